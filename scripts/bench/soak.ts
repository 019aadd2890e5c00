/**
 * The soak: lookups (200 in a full run) in one app session (one page, one main), cycling through the demo
 * workspace's completed calls; each lookup shows the call, waits for its waveform, plays one
 * second and pauses. The renderer's JS heap (after a forced GC) and main's RSS (after a GC) are
 * read before the first lookup, after the middle one and after the last: a session that keeps what
 * it no longer shows grows from the middle to the end.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { waitIdle, type AppProcess } from './app-process';
import { openPage, readState, waitFor, waitUntilPageTime, warmUp, WAVEFORM_DONE } from './pages';

/** Memory at one point of the soak, bytes. */
export interface SoakReading {
  rendererHeapBytes: number;
  mainRssBytes: number;
}

/** A build's soak. */
export interface SoakResult {
  start: SoakReading | null;
  middle: SoakReading | null;
  end: SoakReading | null;
  lookups: number;
  /** Lookups whose waveform failed or timed out, and page errors. */
  problems: string[];
  seconds: number;
}

/** Completed demo calls with a recording, from the build's own demo seed. */
function demoSids(tree: string): string[] {
  const seed = JSON.parse(readFileSync(join(tree, 'resources', 'demo', 'seed.json'), 'utf8')) as {
    interactions: Array<{ sid: string; status?: string; recording_url?: string | null }>;
  };
  return seed.interactions.filter((i) => i.status === 'completed' && i.recording_url).map((i) => i.sid);
}

/** Runs the soak on `app` (its stack is connected to the demo workspace first). */
export async function soak(
  browser: Browser,
  app: AppProcess,
  lookups: number,
  log: (line: string) => void,
): Promise<SoakResult> {
  const started = performance.now();
  await app.freshStack({ demo: true });
  await waitIdle([app.pid]);
  const sids = demoSids(app.build.tree);
  if (sids.length === 0) throw new Error('The demo seed has no completed call with a recording');
  const { page, errors } = await openPage(browser, `${app.origin}/index.html`, app);
  const field = page.getByLabel('Interaction SID');
  await field.waitFor({ timeout: 20_000 });
  await warmUp(page);
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const read = async (): Promise<SoakReading> => {
    await session.send('HeapProfiler.collectGarbage');
    const { metrics } = await session.send('Performance.getMetrics');
    const main = await app.memory();
    return {
      rendererHeapBytes: metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN,
      mainRssBytes: main.rssBytes,
    };
  };
  const result: SoakResult = { start: await read(), middle: null, end: null, lookups: 0, problems: [], seconds: 0 };
  for (let i = 0; i < lookups; i++) {
    const sid = sids[i % sids.length]!;
    try {
      await field.fill(sid);
      await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: false, marker: null })})`);
      await waitFor(page, WAVEFORM_DONE, `waveform of lookup ${i + 1}`, 30_000);
      const state = await readState(page);
      if (state.waveformError || state.error) result.problems.push(`${sid}: ${state.waveformError ?? state.error}`);
      await waitFor(page, 'window.__bench.pressPlay()', `Play of lookup ${i + 1}`, 30_000);
      await waitFor(
        page,
        'window.__bench.playingAt !== null || window.__bench.error !== null',
        `playing, lookup ${i + 1}`,
        30_000,
      );
      const playing = await readState(page);
      if (playing.playingAt !== null) await waitUntilPageTime(page, playing.playingAt + 1000);
      await page.evaluate('window.__bench.pauseAll()');
    } catch (error) {
      result.problems.push(`lookup ${i + 1} (${sid}): ${(error as Error).message.slice(0, 160)}`);
    }
    result.lookups = i + 1;
    if (result.lookups === Math.floor(lookups / 2)) result.middle = await read();
    if (result.lookups % 50 === 0) log(`  soak (${app.build.label}): ${result.lookups}/${lookups} lookups`);
  }
  result.end = await read();
  result.problems.push(...errors.slice(0, 3).map((e) => `page error: ${e.slice(0, 160)}`));
  result.seconds = (performance.now() - started) / 1000;
  await page.context().close();
  return result;
}
