/**
 * One call's view, measured for one subject in a fresh browser:
 * - a build of the app: "Show call" to first audio (Play pressed as soon as it is enabled) and
 *   to the waveform drawn, its first quarter, the renderer memory it added, what the API served
 *   for it; then, page reloaded in the same app session, the waveform when cached;
 * - bare `<audio>`: src + play() to first audio;
 * - wavesurfer's full fetch: create({url, autoplay}) to first audio and to the waveform drawn;
 * - wavesurfer given the peaks: create({url, peaks, duration}) to the waveform drawn;
 * - one plain download of the file (Node's fetch, nothing else on the link).
 * The references play the same recording from the same far side and link as the app.
 * First audio is the media element's 'playing' (checked: currentTime then advances); "drawn" is
 * the next frame painted after the waveform's canvases are in place (agent.js).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { AppProcess } from './app-process';
import type { BenchLink, CallName } from './link';
import { memoryAdded, pageRendererPid, readMemory } from './memory';
import {
  FIRST_AUDIO_DONE,
  openApp,
  openPage,
  readState,
  waitFor,
  waitUntilPageTime,
  warmUp,
  WAVEFORM_DONE,
  type PageState,
} from './pages';
import { METRIC, stepFigure, viewFigure, type Metric, type SampleStore } from './samples';

/** Where a measurement goes: the run, link and call, and the store. */
export interface ViewContext {
  store: SampleStore;
  run: number;
  link: BenchLink;
  call: CallName;
  /** The app's waveform size last seen on this call (references draw at the same size). */
  waveformBox: Map<CallName, { width: number; height: number }>;
}

const DEFAULT_BOX = { width: 1200, height: 88 };

/** BENCH_SCREENSHOTS=<folder>: a PNG of each page when its measurement is done (a diagnostic; unset in real runs). */
const SCREENSHOTS = process.env.BENCH_SCREENSHOTS ?? '';

async function screenshot(page: Page, ctx: ViewContext, subject: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const name = `${ctx.call}-${ctx.link.name}-${subject}-run${ctx.run}`.replace(/[^a-z0-9-]+/gi, '_');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

function put(ctx: ViewContext, subject: string, metric: Metric, value: number | null | undefined): void {
  ctx.store.add(viewFigure(ctx.call, ctx.link.name, metric), subject, ctx.run, value);
}

const since = (state: PageState, at: number | null): number | null =>
  at === null || state.t0 === null ? null : at - state.t0;

/** Memory before/after a measurement in `page` (PSS of its renderer and its JS heap, after GC). */
async function memoryProbe(browser: Browser, page: Page) {
  const session = await page.context().newCDPSession(page);
  const pid = await pageRendererPid(browser, page, session);
  const before = await readMemory(pid, session);
  return {
    added: async () => memoryAdded(before, await readMemory(pid, session)),
    session,
  };
}

/** Measures one build's first and cached view of the call. */
export async function measureApp(browser: Browser, ctx: ViewContext, app: AppProcess): Promise<void> {
  const call = ctx.link.calls[ctx.call];
  const subject = app.build.id;
  const { page, errors } = await openPage(browser, `${app.origin}/index.html`, app);
  await openApp(page, app.origin, call.sid);
  await warmUp(page);
  const memory = await memoryProbe(browser, page);
  const servedBefore = await ctx.link.counters();
  await app.loopDelay();
  await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: true, marker: call.marker })})`);
  await waitFor(page, `(${FIRST_AUDIO_DONE}) && (${WAVEFORM_DONE})`, `first audio and waveform (${app.build.label})`);
  const state = await readState(page);
  if (state.error)
    throw new Error(`${state.error}${errors.length ? `; page errors: ${errors.slice(0, 3).join(' | ')}` : ''}`);
  const responseAt = await page.evaluate<number | null>(
    `window.__bench.responseHolding(${JSON.stringify(call.marker)})`,
  );
  await waitUntilPageTime(page, Math.max(state.playingAt!, state.waveformAt ?? 0) + 1000);
  const added = await memory.added();
  const loop = await app.loopDelay();
  await screenshot(page, ctx, subject);
  const servedAfter = await ctx.link.counters();

  put(ctx, subject, METRIC.firstAudio, since(state, state.playingAt));
  put(ctx, subject, METRIC.waveform, since(state, state.waveformAt));
  put(ctx, subject, METRIC.quarter, since(state, state.quarterAt));
  put(ctx, subject, METRIC.pss, added.processBytes);
  put(ctx, subject, METRIC.heap, added.jsHeapBytes);
  put(ctx, subject, METRIC.loop, loop);
  put(ctx, subject, METRIC.bytes, servedAfter.recordingBytes - servedBefore.recordingBytes);
  put(
    ctx,
    subject,
    METRIC.gets,
    (servedAfter.interactionGets[call.sid] ?? 0) - (servedBefore.interactionGets[call.sid] ?? 0),
  );
  const steps: Array<[string, number | null]> = [
    ['response', responseAt],
    ['media src set', state.mediaAt],
    ['transcript painted', state.paintedAt],
    ['Play pressed', state.playClickedAt],
    ['playing', state.playingAt],
    ['first quarter of the waveform', state.quarterAt],
    ['waveform drawn', state.waveformAt],
  ];
  for (const [step, at] of steps)
    ctx.store.add(stepFigure(ctx.call, ctx.link.name, step), subject, ctx.run, since(state, at));
  if (state.waveformError) ctx.store.note(subject, `${ctx.call}: ${state.waveformError}`);
  if (state.waveformBox) ctx.waveformBox.set(ctx.call, state.waveformBox);

  // Second view in the same app session: the page reloaded (fresh renderer), same main and caches.
  if (state.waveformAt !== null) {
    await openApp(page, app.origin, call.sid);
    await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: false, marker: call.marker })})`);
    await waitFor(page, WAVEFORM_DONE, `cached waveform (${app.build.label})`);
    const cached = await readState(page);
    if (cached.waveformAt !== null) put(ctx, subject, METRIC.cached, since(cached, cached.waveformAt));
    else ctx.store.note(subject, `${ctx.call} cached view: ${cached.waveformError ?? cached.error}`);
    if ((await page.evaluate<number>('window.__bench.waveformInk()')) === 0)
      ctx.store.note(subject, `${ctx.call}: waveform canvas found but blank`);
  }
  if (errors.length) ctx.store.note(subject, `page errors: ${errors.slice(0, 2).join(' | ').slice(0, 200)}`);
  await page.context().close();
}

const recordingUrl = (ctx: ViewContext) =>
  `${ctx.link.referenceOrigin}/bench/recording/${ctx.link.calls[ctx.call].sid}`;

/** Bare `<audio>`: src + play() to first audio, and the memory it added. */
export async function measureBare(browser: Browser, ctx: ViewContext): Promise<void> {
  const { page } = await openPage(browser, `${ctx.link.referenceOrigin}/bench/bare.html`, null);
  await warmUp(page);
  const memory = await memoryProbe(browser, page);
  await page.evaluate(`window.__bench.startBare(${JSON.stringify(recordingUrl(ctx))})`);
  await waitFor(page, FIRST_AUDIO_DONE, 'first audio (bare)');
  const state = await readState(page);
  if (state.error) throw new Error(state.error);
  await waitUntilPageTime(page, state.playingAt! + 1000);
  const added = await memory.added();
  await screenshot(page, ctx, 'bare');
  put(ctx, 'bare', METRIC.firstAudio, since(state, state.playingAt));
  put(ctx, 'bare', METRIC.pss, added.processBytes);
  put(ctx, 'bare', METRIC.heap, added.jsHeapBytes);
  await page.context().close();
}

/** wavesurfer's full fetch: first audio, waveform drawn, memory added. */
export async function measureWaveSurfer(browser: Browser, ctx: ViewContext): Promise<void> {
  const { page } = await openPage(browser, `${ctx.link.referenceOrigin}/bench/wavesurfer.html`, null);
  await waitFor(page, 'typeof window.WaveSurfer === "function"', 'wavesurfer.js to load', 10_000);
  await warmUp(page);
  const memory = await memoryProbe(browser, page);
  const box = ctx.waveformBox.get(ctx.call) ?? DEFAULT_BOX;
  await page.evaluate(`window.__bench.startWaveSurfer(${JSON.stringify(recordingUrl(ctx))}, ${JSON.stringify(box)})`);
  await waitFor(page, `(${FIRST_AUDIO_DONE}) && (${WAVEFORM_DONE})`, 'first audio and waveform (wavesurfer)');
  const state = await readState(page);
  if (state.error) throw new Error(state.error);
  await waitUntilPageTime(page, Math.max(state.playingAt!, state.waveformAt!) + 1000);
  const added = await memory.added();
  await screenshot(page, ctx, 'wavesurfer');
  put(ctx, 'wavesurfer', METRIC.firstAudio, since(state, state.playingAt));
  put(ctx, 'wavesurfer', METRIC.waveform, since(state, state.waveformAt));
  put(ctx, 'wavesurfer', METRIC.pss, added.processBytes);
  put(ctx, 'wavesurfer', METRIC.heap, added.jsHeapBytes);
  await page.context().close();
}

/** wavesurfer handed the peaks and duration: create() to the waveform drawn (the cached view's reference). */
export async function measureWaveSurferPeaks(browser: Browser, ctx: ViewContext): Promise<void> {
  const { page } = await openPage(browser, `${ctx.link.referenceOrigin}/bench/wavesurfer.html`, null);
  await waitFor(page, 'typeof window.WaveSurfer === "function"', 'wavesurfer.js to load', 10_000);
  const sid = ctx.link.calls[ctx.call].sid;
  const loaded = await page.evaluate<boolean>(
    `fetch('/bench/peaks/${sid}.json').then((r) => r.ok ? r.json() : null).then((p) => { window.__peaks = p; return p !== null; })`,
  );
  if (!loaded) throw new Error('No precomputed peaks for the reference');
  const box = ctx.waveformBox.get(ctx.call) ?? DEFAULT_BOX;
  await page.evaluate(
    `window.__bench.startWaveSurferPeaks(${JSON.stringify(recordingUrl(ctx))}, ${JSON.stringify(box)})`,
  );
  await waitFor(page, WAVEFORM_DONE, 'waveform (wavesurfer given the peaks)');
  const state = await readState(page);
  if (state.error) throw new Error(state.error);
  await screenshot(page, ctx, 'peaks');
  put(ctx, 'peaks', METRIC.cached, since(state, state.waveformAt));
  await page.context().close();
}

/** One plain download of the call's file (the link's own speed). */
export async function measureDownload(ctx: ViewContext): Promise<void> {
  put(ctx, 'download', METRIC.download, await ctx.link.timeDownload(ctx.call));
}
