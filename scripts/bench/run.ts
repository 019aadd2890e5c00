/**
 * `npm run bench` (not part of the tests).
 *
 * Builds the app into out-bench/, generates a 1-minute and a 40-minute call (8 kHz mono MP3,
 * 32 kbit/s; test/fixtures/long-call.ts), serves them through the real demo service and the
 * project's own recording protocol handler on loopback, optionally throttled to 16 Mbit/s, and
 * drives Debian's Chromium (a fresh browser and profile for every measurement) to measure, as
 * medians of `--runs` runs (default 5):
 *   - first audio: ms from the user's action to the media element's 'playing' (checked: currentTime
 *     then advances). Voice Review: click "Show call" in the real app, Play pressed as soon as it is
 *     enabled. wavesurfer: WaveSurfer.create({url, autoplay: true}). Bare: audio.src = url; play().
 *   - waveform complete: ms from the same action until the waveform is drawn and painted; Voice
 *     Review also on a second view in the same app session (page reloaded, same main process and
 *     peaks service, so the peaks come from its disk cache);
 *   - renderer memory added: PSS of the renderer processes after GC (and the JS heap), from before
 *     the action to 1 s after first audio and waveform (scripts/bench/memory.ts);
 *   - transcript painted after the response for 500 and 5,000 entries (p95 and median), and for
 *     5,000 entries the highlight update per playback tick and the search (keystroke to highlighted
 *     results painted);
 *   - on the 16 Mbit/s link, one plain download of the 40-minute file per run (Node's fetch, nothing
 *     else running): the link's real speed, printed beside size / rate.
 * and prints them side by side with the performance targets, PASS/FAIL, and the machine
 * (scripts/bench/report.ts). Main is the app's own (createMainStack, scripts/bench/link.ts) and the
 * page's `window.api` the built preload (test/fixtures/preload-bridge.ts), so every call crosses
 * the IPC sender guard as in Electron.
 *
 * Options: --runs N (>= 1; 5 or more for the published figures), --loopback | --throttle (only one link;
 * default both), --skip-build, --paths vr,wavesurfer,bare, --no-transcript.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { chromium, type Browser, type Page } from 'playwright-core';
import { recordingPath } from '../../electron/main/recordings/recording-protocol';
import { channelOf } from '../../electron/shared/contract';
import { CHROMIUM_ARGS, chromiumPath } from '../../test/e2e/harness';
import { generateRecording } from '../../test/fixtures/long-call';
import { installPreload, IPC_BINDING } from '../../test/fixtures/preload-bridge';
import {
  createResults,
  PATH_LABEL,
  type BenchResults,
  type Cell,
  type PathName,
  type TranscriptSamples,
} from './cells';
import {
  startLink,
  TRANSCRIPT_500_VIEWS,
  TRANSCRIPT_5000_VIEWS,
  type BenchLink,
  type CallName,
  type LinkName,
} from './link';
import { memoryAdded, pageRendererPid, readMemory } from './memory';
import { report } from './report';

const ROOT = resolve(__dirname, '../..');
const OUT_DIR = join(ROOT, 'out-bench');
const RENDERER_DIR = join(OUT_DIR, 'renderer');
const PRELOAD = join(OUT_DIR, 'preload', 'index.js');
const PEAKS_WORKER = join(OUT_DIR, 'main', 'peaks-worker.js');
const AGENT = readFileSync(join(__dirname, 'agent.js'), 'utf8');
/** BENCH_PROFILE_DIR=<folder>: save a CPU profile of the page for each first and cached view (a diagnostic; unset in real runs). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ?? '';
/** BENCH_PRELOAD=metadata|none|auto overrides the app's media preload (a diagnostic; unset in real runs). */
const PRELOAD_OVERRIDE = process.env.BENCH_PRELOAD ?? '';
/** What agent.js needs to time the app's IPC: the preload's binding and the channels it times. */
const BENCH_IPC = {
  binding: IPC_BINDING,
  getInteraction: channelOf('getInteraction'),
  getPeaks: channelOf('getPeaks'),
  getPeaksProgress: channelOf('getPeaksProgress'),
};
const APP_AGENT = `window.__benchIpc = ${JSON.stringify(BENCH_IPC)};\nwindow.__benchPreload = ${JSON.stringify(PRELOAD_OVERRIDE)};\n${AGENT}`;

/** Longest wait for one measurement to finish, ms. */
const STEP_TIMEOUT_MS = 90_000;
/** What is typed in the 5,000-entry transcript's search: a common word, then one entry's own words. */
const SEARCH_QUERIES = ['appointment', 'entry 4381'];
/** Playback ticks measured per 5,000-entry view. */
const TICKS_PER_VIEW = 24;

interface Args {
  runs: number;
  links: LinkName[];
  build: boolean;
  paths: PathName[];
  transcript: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    runs: 5,
    links: ['loopback', '16 Mbit/s'],
    build: true,
    paths: ['bare', 'wavesurfer', 'vr'],
    transcript: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--runs') args.runs = Number(argv[++i]);
    else if (arg.startsWith('--runs=')) args.runs = Number(arg.slice('--runs='.length));
    else if (arg === '--throttle') args.links = ['16 Mbit/s'];
    else if (arg === '--loopback') args.links = ['loopback'];
    else if (arg === '--skip-build') args.build = false;
    else if (arg === '--no-transcript') args.transcript = false;
    else if (arg.startsWith('--paths=')) args.paths = arg.slice('--paths='.length).split(',') as PathName[];
    else
      throw new Error(
        `Unknown option ${arg}. Options: --runs N, --loopback, --throttle, --skip-build, --paths=vr,wavesurfer,bare, --no-transcript`,
      );
  }
  if (!Number.isInteger(args.runs) || args.runs < 1) throw new Error('--runs must be a whole number >= 1');
  return args;
}

/** Step times of a Voice Review view, ms after the action (null when the step did not happen). */
function stepsOf(state: BenchState, prefix: string): Array<[string, number | null]> {
  const at = (v: number | null): number | null => (v === null || state.t0 === null ? null : v - state.t0);
  return [
    [`${prefix}interaction response`, at(state.responseAt)],
    [`${prefix}media element given its src`, at(state.mediaAt)],
    [`${prefix}transcript painted`, at(state.paintedAt)],
    [`${prefix}Play enabled and pressed`, at(state.playClickedAt)],
    [`${prefix}playing`, at(state.playingAt)],
    [`${prefix}peaks requested`, at(state.peaksRequestedAt)],
    [`${prefix}first quarter of the peaks received`, at(state.quarterAt)],
    [`${prefix}peaks received`, at(state.peaksAt)],
    [`${prefix}waveform painted`, at(state.waveformAt)],
  ];
}

/** What agent.js keeps in window.__bench (performance.now() values, ms). */
interface BenchState {
  t0: number | null;
  playingAt: number | null;
  advancingAt: number | null;
  responseAt: number | null;
  rowsAt: number | null;
  paintedAt: number | null;
  peaksAt: number | null;
  peaksFromCache: boolean | null;
  peaksError: string | null;
  waveformAt: number | null;
  /** When the page first had peaks covering a quarter of the recording (progress or final). */
  quarterAt: number | null;
  playClickedAt: number | null;
  mediaAt: number | null;
  peaksRequestedAt: number | null;
  error: string | null;
}

const readState = (page: Page): Promise<BenchState> =>
  page.evaluate<BenchState>('JSON.parse(JSON.stringify(window.__bench))');

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

async function launch(): Promise<Browser> {
  // chromium.launch gives every browser a fresh temporary profile.
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

/**
 * Opens a page with the agent; for the app (`link` given) the built preload first, its IPC going
 * to the link's current stack.
 */
async function openPage(
  browser: Browser,
  url: string,
  link: BenchLink | null,
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (link) await installPreload(context, PRELOAD, () => link.ipcMain(), 'http');
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.addInitScript({ content: link ? APP_AGENT : AGENT });
  await page.goto(url);
  return { page, errors };
}

/**
 * Waits until `expression` (evaluated in the page) is true, or throws with the page's state. Polls
 * from Node every 20 ms: the app's CSP forbids the string evaluation page.waitForFunction uses. The
 * figures come from timestamps taken in the page, so the polling interval does not affect them.
 */
async function waitFor(page: Page, expression: string, what: string, timeoutMs = STEP_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let reason = 'timed out';
  while (Date.now() < deadline) {
    try {
      if (await page.evaluate<boolean>(`Boolean(${expression})`)) return;
    } catch (error) {
      reason = (error as Error).message.split('\n')[0] ?? 'evaluation failed';
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const state = await readState(page).catch(() => null);
  throw new Error(`Gave up waiting for ${what} after ${timeoutMs} ms (${reason}); page state ${JSON.stringify(state)}`);
}

const FIRST_AUDIO_DONE = 'window.__bench.advancingAt !== null || window.__bench.error !== null';

/** Sleeps until `ms` milliseconds after the page's performance.now() value `at`. */
async function waitUntilPageTime(page: Page, at: number): Promise<void> {
  const now = await page.evaluate<number>('performance.now()');
  if (at > now) await new Promise((r) => setTimeout(r, at - now));
}

/**
 * Plays a quarter second of silence (/bench/warmup.wav, same origin, so the app's CSP allows it)
 * so that every path starts with Chromium's audio output already running: the one-time start of
 * the audio stack is not part of any path's first audio or memory.
 */
async function warmUp(page: Page): Promise<void> {
  const ok = await page.evaluate<boolean>('window.__bench.warmUp()');
  if (!ok) throw new Error('The warm-up sound did not play');
}

interface Measured {
  firstAudioMs: number | null;
  /** First audio counted from the media element's src being set (null where not comparable). */
  mediaFirstAudioMs: number | null;
  waveformMs: number | null;
  /** Voice Review only: when the page first had peaks covering a quarter of the recording. */
  waveformQuarterMs?: number | null;
  processBytes: number;
  jsHeapBytes: number;
  note?: string;
  steps?: Array<[string, number | null]>;
  /** Voice Review only: the second view in the same app session. */
  waveformCachedMs?: number | null;
  cachedFromDisk?: boolean | null;
  /** Voice Review only: what the long-call service served during the first view. */
  served?: { recordingBytes: number; interactionGets: number };
}

async function measureBare(browser: Browser, origin: string, sid: string): Promise<Measured> {
  const { page } = await openPage(browser, `${origin}/bench/bare.html`, null);
  await warmUp(page);
  const session = await page.context().newCDPSession(page);
  const pid = await pageRendererPid(browser, page, session);
  const before = await readMemory(pid, session);
  await page.evaluate(`window.__bench.startBare(${JSON.stringify(recordingPath(sid))})`);
  await waitFor(page, FIRST_AUDIO_DONE, 'first audio (bare)');
  const state = await readState(page);
  if (state.error) throw new Error(state.error);
  await waitUntilPageTime(page, state.playingAt! + 1000);
  const added = memoryAdded(before, await readMemory(pid, session));
  await page.context().close();
  const firstAudioMs = state.playingAt! - state.t0!;
  return { firstAudioMs, mediaFirstAudioMs: firstAudioMs, waveformMs: null, ...added };
}

async function measureWaveSurfer(browser: Browser, origin: string, sid: string): Promise<Measured> {
  const { page } = await openPage(browser, `${origin}/bench/wavesurfer.html`, null);
  await waitFor(page, 'typeof window.WaveSurfer === "function"', 'wavesurfer.js to load', 10_000);
  await warmUp(page);
  const session = await page.context().newCDPSession(page);
  const pid = await pageRendererPid(browser, page, session);
  const before = await readMemory(pid, session);
  await page.evaluate(`window.__bench.startWaveSurfer(${JSON.stringify(recordingPath(sid))})`);
  await waitFor(
    page,
    `(${FIRST_AUDIO_DONE}) && (window.__bench.waveformAt !== null || window.__bench.error !== null)`,
    'first audio and waveform (wavesurfer)',
  );
  const state = await readState(page);
  if (state.error) throw new Error(state.error);
  await waitUntilPageTime(page, Math.max(state.playingAt!, state.waveformAt!) + 1000);
  const added = memoryAdded(before, await readMemory(pid, session));
  await page.context().close();
  // Its media element gets a src only after the whole download: no media-level figure.
  return {
    firstAudioMs: state.playingAt! - state.t0!,
    mediaFirstAudioMs: null,
    waveformMs: state.waveformAt! - state.t0!,
    ...added,
  };
}

/** Opens the app, puts `sid` in the SID field; resolves when the page is ready for startApp. */
async function openApp(page: Page, origin: string, sid: string): Promise<void> {
  if (page.url() !== `${origin}/index.html`) await page.goto(`${origin}/index.html`);
  else await page.reload();
  const field = page.getByLabel('Interaction SID');
  await field.waitFor({ timeout: 20_000 });
  await field.fill(sid);
}

const WAVEFORM_DONE =
  'window.__bench.waveformAt !== null || window.__bench.peaksError !== null || window.__bench.error !== null';

async function measureApp(browser: Browser, link: BenchLink, sid: string, marker: string): Promise<Measured> {
  const { origin } = link;
  const { page, errors } = await openPage(browser, `${origin}/index.html`, link);
  await openApp(page, origin, sid);
  await warmUp(page);
  const session = await page.context().newCDPSession(page);
  const pid = await pageRendererPid(browser, page, session);
  const before = await readMemory(pid, session);
  const servedBefore = await link.counters();
  if (PROFILE_DIR) await session.send('Profiler.enable');
  if (PROFILE_DIR) await session.send('Profiler.setSamplingInterval', { interval: 200 });
  if (PROFILE_DIR) await session.send('Profiler.start');
  await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: true, marker })})`);
  await waitFor(page, `(${FIRST_AUDIO_DONE}) && (${WAVEFORM_DONE})`, 'first audio and waveform (Voice Review)');
  if (PROFILE_DIR) {
    const { profile } = await session.send('Profiler.stop');
    writeFileSync(join(PROFILE_DIR, `${sid}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
  }
  const state = await readState(page);
  if (state.error)
    throw new Error(`${state.error}${errors.length ? `; page errors: ${errors.slice(0, 3).join(' | ')}` : ''}`);
  await waitUntilPageTime(page, Math.max(state.playingAt!, state.waveformAt ?? state.peaksAt ?? 0) + 1000);
  const added = memoryAdded(before, await readMemory(pid, session));
  const servedAfter = await link.counters();
  const served = {
    recordingBytes: servedAfter.recordingBytes - servedBefore.recordingBytes,
    interactionGets: (servedAfter.interactionGets[sid] ?? 0) - (servedBefore.interactionGets[sid] ?? 0),
  };
  const firstAudioMs = state.playingAt! - state.t0!;
  const mediaFirstAudioMs = state.mediaAt === null ? null : state.playingAt! - state.mediaAt;
  const waveformMs = state.waveformAt === null ? null : state.waveformAt - state.t0!;
  const waveformQuarterMs = state.quarterAt === null ? null : state.quarterAt - state.t0!;
  let note = state.peaksError ? `peaks failed: ${state.peaksError}` : undefined;

  // Second view in the same app session: reload the page (fresh renderer), same main and peaks cache.
  let waveformCachedMs: number | null = null;
  let cachedFromDisk: boolean | null = null;
  const steps = stepsOf(state, '');
  if (waveformMs !== null) {
    await openApp(page, origin, sid);
    if (PROFILE_DIR) await session.send('Profiler.start');
    await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: false, marker })})`);
    await waitFor(page, WAVEFORM_DONE, 'cached waveform (Voice Review)');
    if (PROFILE_DIR) {
      const { profile } = await session.send('Profiler.stop');
      writeFileSync(join(PROFILE_DIR, `${sid}-cached-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    }
    const cached = await readState(page);
    steps.push(...stepsOf(cached, 'cached: ').filter(([name]) => !name.includes('Play') && !name.includes('playing')));
    if (cached.waveformAt !== null) {
      waveformCachedMs = cached.waveformAt - cached.t0!;
      cachedFromDisk = cached.peaksFromCache;
    } else {
      note = `cached view: ${cached.peaksError ?? cached.error}`;
    }
    const ink = await page.evaluate<number>('window.__bench.waveformInk()');
    if (ink === 0) note = 'waveform canvas found but blank';
  }
  await page.context().close();
  return {
    firstAudioMs,
    mediaFirstAudioMs,
    waveformMs,
    waveformQuarterMs,
    waveformCachedMs,
    cachedFromDisk,
    ...added,
    note,
    steps,
    served,
  };
}

async function measureTranscripts(browser: Browser, link: BenchLink, into: TranscriptSamples): Promise<void> {
  const { origin, transcriptCalls: calls } = link;
  const { page, errors } = await openPage(browser, `${origin}/index.html`, link);
  let ticked500 = false;
  for (const call of calls) {
    await openApp(page, origin, call.sid);
    await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: false, marker: call.marker })})`);
    await waitFor(
      page,
      'window.__bench.paintedAt !== null || window.__bench.error !== null',
      `transcript of ${call.size} entries`,
      30_000,
    );
    const state = await readState(page);
    if (state.error) throw new Error(state.error);
    (call.size === 500 ? into.paint500Ms : into.paint5000Ms).push(state.paintedAt! - state.responseAt!);
    // Let the waveform finish so the next sample does not overlap this call's peaks work.
    await waitFor(page, WAVEFORM_DONE, 'waveform after the transcript sample').catch((e: unknown) =>
      into.notes.add((e instanceof Error ? e.message : String(e)).slice(0, 120)),
    );
    if (call.size === 500 && !ticked500) {
      ticked500 = true;
      await waitFor(
        page,
        '!!document.querySelector("audio") && document.querySelector("audio").readyState >= 1',
        'media metadata',
        30_000,
      );
      const ticks = await page.evaluate<Array<{ ms: number }>>(
        `window.__bench.measureTicks(${JSON.stringify({ count: TICKS_PER_VIEW, startSeconds: 600, rate: 2 })})`,
      );
      into.tick500Ms.push(...ticks.map((t) => t.ms));
    }
    if (call.size === 5000) {
      await waitFor(
        page,
        '!!document.querySelector("audio") && document.querySelector("audio").readyState >= 1',
        'media metadata',
        30_000,
      );
      const ticks = await page.evaluate<Array<{ ms: number; active: string | null }>>(
        `window.__bench.measureTicks(${JSON.stringify({ count: TICKS_PER_VIEW, startSeconds: 600, rate: 2 })})`,
      );
      let previous: string | null | undefined;
      for (const tick of ticks) {
        into.tickMs.push(tick.ms);
        into.ticks++;
        if (previous !== undefined && tick.active !== previous) into.tickChanges++;
        previous = tick.active;
      }
      await measureSearch(page, into);
    }
  }
  if (errors.length) into.notes.add(`page errors: ${errors.slice(0, 2).join(' | ').slice(0, 200)}`);
  await page.context().close();
}

/**
 * Searches the 5,000-entry transcript as a person types: a word found in most entries (every
 * keystroke re-highlights hundreds of rows' worth of matches) and one entry's own words.
 */
async function measureSearch(page: Page, into: TranscriptSamples): Promise<void> {
  for (const text of SEARCH_QUERIES) {
    const samples = await page.evaluate<Array<{ ms: number; marks: number }>>(
      `window.__bench.measureSearch(${JSON.stringify(text)})`,
    );
    if (samples.at(-1)?.marks === 0) into.notes.add(`search for "${text}" highlighted nothing`);
    into.searchMs.push(...samples.map((s) => s.ms));
  }
}

/** Adds one measurement to its cell. */
function record(target: Cell, result: Measured): void {
  if (result.firstAudioMs !== null) target.firstAudioMs.push(result.firstAudioMs);
  if (result.mediaFirstAudioMs !== null) target.mediaFirstAudioMs.push(result.mediaFirstAudioMs);
  if (result.waveformMs !== null) target.waveformMs.push(result.waveformMs);
  if (result.waveformQuarterMs !== undefined && result.waveformQuarterMs !== null) {
    target.waveformQuarterMs.push(result.waveformQuarterMs);
  }
  target.processBytes.push(result.processBytes);
  target.jsHeapBytes.push(result.jsHeapBytes);
  if (result.waveformCachedMs !== undefined && result.waveformCachedMs !== null) {
    target.waveformCachedMs.push(result.waveformCachedMs);
    if (result.cachedFromDisk !== undefined && result.cachedFromDisk !== null)
      target.cachedFromDisk.push(result.cachedFromDisk);
  }
  if (result.note) target.notes.add(result.note);
  if (result.served) {
    target.recordingBytes.push(result.served.recordingBytes);
    target.interactionGets.push(result.served.interactionGets);
  }
  for (const [name, value] of result.steps ?? []) {
    if (value === null) continue;
    const values = target.steps.get(name) ?? [];
    values.push(value);
    target.steps.set(name, values);
  }
}

/** Measures one path on one call in a fresh browser; a failure becomes a note of the cell. */
async function measureOne(setup: BenchLink, call: CallName, path: PathName, target: Cell): Promise<string> {
  const browser = await launch();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  try {
    const sid = setup.sids[call];
    await setup.forgetRecordings();
    const result =
      path === 'bare'
        ? await measureBare(browser, setup.origin, sid)
        : path === 'wavesurfer'
          ? await measureWaveSurfer(browser, setup.origin, sid)
          : await measureApp(browser, setup, sid, setup.markers[call]);
    record(target, result);
    if (path === 'vr') target.mainLoopMaxDelayMs.push(loop.max / 1e6);
  } catch (error) {
    target.notes.add((error as Error).message.slice(0, 300));
    log(`  failed: ${(error as Error).message.slice(0, 300)}`);
  } finally {
    loop.disable();
    await browser.close();
  }
  return browser.version();
}

/** Every run on one link. @returns the Chromium version used */
async function measureLink(
  link: LinkName,
  files: { oneMinute: string; fortyMinutes: string },
  args: Args,
  results: BenchResults,
): Promise<string> {
  let chromiumVersion = '';
  const setup = await startLink(link, files, { rendererDir: RENDERER_DIR, peaksWorker: PEAKS_WORKER });
  try {
    for (let run = 1; run <= args.runs; run++) {
      if (run > 1) await setup.freshStack();
      for (const call of ['1 min', '40 min'] as CallName[]) {
        for (const path of args.paths) {
          log(`[${link}] run ${run}/${args.runs}: ${call} · ${PATH_LABEL[path]}`);
          chromiumVersion = await measureOne(setup, call, path, results.cell(link, call, path));
        }
      }
      if (link === '16 Mbit/s') (results.downloadMs[link] ??= []).push(await setup.timeDownload('40 min'));
      if (args.transcript && args.paths.includes('vr') && link === args.links[0]) {
        log(
          `[${link}] run ${run}/${args.runs}: transcripts (${TRANSCRIPT_500_VIEWS} x 500, ${TRANSCRIPT_5000_VIEWS} x 5,000 entries)`,
        );
        const browser = await launch();
        try {
          await measureTranscripts(browser, setup, results.transcript);
        } catch (error) {
          results.transcript.notes.add((error as Error).message.slice(0, 300));
          log(`  failed: ${(error as Error).message.slice(0, 300)}`);
        } finally {
          await browser.close();
        }
      }
    }
  } finally {
    await setup.close();
  }
  return chromiumVersion;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.build) {
    log(`Building the app into ${OUT_DIR} ...`);
    execFileSync('npx', ['electron-vite', 'build', '--outDir', OUT_DIR], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  log('Generating recordings ...');
  const files = {
    oneMinute: await generateRecording({ seconds: 60, format: 'mp3' }),
    fortyMinutes: await generateRecording({ seconds: 2400, format: 'mp3' }),
  };
  const results = createResults();
  let chromiumVersion = '';
  for (const link of args.links) chromiumVersion = (await measureLink(link, files, args, results)) || chromiumVersion;
  const lines = report({ ...results, args, files, chromiumVersion, preloadOverride: PRELOAD_OVERRIDE });
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
