/**
 * The transcript figures, for a build of the app and for the plain list (reference-pages.ts), on
 * the same interactions (40-minute recording; 500 and 5,000 entries):
 * - painted: the app from the IPC response that carried the entries to the first row on screen
 *   (the next frame painted after it is in the DOM); the plain list from being handed the entries
 *   to the same moment;
 * - highlight tick (5,000 entries): playback at 2x from 10:00; per 'timeupdate', its capture on
 *   window to the end of a listener after the page's own that forces style and layout;
 * - search (5,000 entries): "appointment" and "entry 4381" typed a character at a time; input
 *   event to the next frame painted with the matches marked.
 */
import type { Browser, Page } from 'playwright-core';
import type { AppProcess } from './app-process';
import type { BenchLink } from './link';
import { openApp, openPage, readState, waitFor, WAVEFORM_DONE } from './pages';
import { TRANSCRIPT, type SampleStore } from './samples';

/** What is typed in the 5,000-entry transcript's search: a common word, then one entry's own words. */
const SEARCH_QUERIES = ['appointment', 'entry 4381'];
/** Playback ticks measured per 5,000-entry view. */
const TICKS_PER_VIEW = 24;
const TICKS = { count: TICKS_PER_VIEW, startSeconds: 600, rate: 2 };
const MEDIA_READY = '!!document.querySelector("audio") && document.querySelector("audio").readyState >= 1';

/** Where the samples go. */
export interface TranscriptContext {
  store: SampleStore;
  run: number;
  link: BenchLink;
}

async function ticksAndSearch(
  page: Page,
  ctx: TranscriptContext,
  subject: string,
  activeSelector: string,
): Promise<void> {
  await waitFor(page, MEDIA_READY, 'media metadata', 30_000);
  const ticks = await page.evaluate<Array<{ ms: number; active: string | null }>>(
    `window.__bench.measureTicks(${JSON.stringify({ ...TICKS, activeSelector })})`,
  );
  for (const tick of ticks) ctx.store.add(TRANSCRIPT.tick, subject, ctx.run, tick.ms);
  const moved = new Set(ticks.map((t) => t.active)).size;
  if (moved < 2) ctx.store.note(subject, 'the highlight did not move during the measured ticks');
  for (const text of SEARCH_QUERIES) {
    const samples = await page.evaluate<Array<{ ms: number; marks: number }>>(
      `window.__bench.measureSearch(${JSON.stringify(text)})`,
    );
    if (samples.at(-1)?.marks === 0) ctx.store.note(subject, `search for "${text}" marked nothing`);
    for (const s of samples) ctx.store.add(TRANSCRIPT.search, subject, ctx.run, s.ms);
  }
}

/** Every transcript figure of one build, in one browser and one app session. */
export async function measureAppTranscripts(browser: Browser, ctx: TranscriptContext, app: AppProcess): Promise<void> {
  const subject = app.build.id;
  const { page, errors } = await openPage(browser, `${app.origin}/index.html`, app);
  for (const call of ctx.link.transcriptCalls) {
    await openApp(page, app.origin, call.sid);
    await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: false, marker: call.marker })})`);
    await waitFor(
      page,
      'window.__bench.paintedAt !== null || window.__bench.error !== null',
      `transcript of ${call.size} entries`,
      30_000,
    );
    const state = await readState(page);
    if (state.error) throw new Error(state.error);
    const responseAt = await page.evaluate<number | null>(
      `window.__bench.responseHolding(${JSON.stringify(call.marker)})`,
    );
    if (responseAt === null)
      ctx.store.note(subject, 'no IPC result held the transcript: paint counted from "Show call"');
    const paint = state.paintedAt! - (responseAt ?? state.t0!);
    ctx.store.add(call.size === 500 ? TRANSCRIPT.paint500 : TRANSCRIPT.paint5000, subject, ctx.run, paint);
    // Let the waveform finish so the next sample does not overlap this call's peaks work.
    await waitFor(page, WAVEFORM_DONE, 'waveform after the transcript sample').catch((e: unknown) =>
      ctx.store.note(subject, (e instanceof Error ? e.message : String(e)).slice(0, 160)),
    );
    if (call.size === 5000) await ticksAndSearch(page, ctx, subject, '[aria-current="true"]');
  }
  if (errors.length) ctx.store.note(subject, `page errors: ${errors.slice(0, 2).join(' | ').slice(0, 200)}`);
  await page.context().close();
}

/** The same figures for the plain list, on the same interactions' entries and recording. */
export async function measurePlainTranscripts(browser: Browser, ctx: TranscriptContext): Promise<void> {
  const origin = ctx.link.referenceOrigin;
  const { page } = await openPage(browser, `${origin}/bench/list.html`, null);
  for (const call of ctx.link.transcriptCalls) {
    await page.evaluate(
      `fetch('/bench/entries/${call.sid}.json').then((r) => r.json()).then((e) => { window.__entries = e; })`,
    );
    await page.evaluate('window.__bench.paintPlain()');
    await waitFor(page, 'window.__bench.paintedAt !== null', `plain list of ${call.size} entries`, 30_000);
    const state = await readState(page);
    ctx.store.add(
      call.size === 500 ? TRANSCRIPT.paint500 : TRANSCRIPT.paint5000,
      'plain',
      ctx.run,
      state.paintedAt! - state.t0!,
    );
    if (call.size === 5000) {
      await page.evaluate(`window.referenceList.load(${JSON.stringify(`${origin}/bench/recording/${call.sid}`)})`);
      await ticksAndSearch(page, ctx, 'plain', '#list li.current');
    }
  }
  await page.context().close();
}
