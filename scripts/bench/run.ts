/**
 * `npm run bench` (issue 5 "Benchmark"; not part of the tests).
 *
 * Builds the renderer into out-bench/, generates a 1-minute and a 40-minute call (8 kHz mono MP3,
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
 *     5,000 entries the highlight update per playback tick.
 * and prints them side by side with the issue's targets, PASS/FAIL, and the machine.
 *
 * Options: --runs N (>= 1; the issue asks for >= 5), --loopback | --throttle (only one link;
 * default both), --skip-build, --paths vr,wavesurfer,bare, --no-transcript.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import * as os from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDemoServer } from '../../electron/main/demo/server';
import { createHandlers, type HandlerTable } from '../../electron/main/handlers';
import { createMemoryStore } from '../../electron/main/keychain';
import { createPeaksService } from '../../electron/main/peaks/service';
import { createPlaybackGate } from '../../electron/main/peaks/playback-gate';
import { createWorkerDecoder } from '../../electron/main/peaks/worker-decoder';
import { createRecordingHandler, recordingPath } from '../../electron/main/recording-protocol';
import { createSession, type Session } from '../../electron/main/session';
import { createSettingsStore } from '../../electron/main/settings';
import { API_METHODS } from '../../electron/shared/contract';
import { CHROMIUM_ARGS, chromiumPath } from '../../test/e2e/harness';
import {
  buildTranscript,
  generateRecording,
  type LongCallServerOptions,
  type WireLogEntry,
} from '../../test/fixtures/long-call';
import { memoryAdded, pageRendererPid, readMemory } from './memory';
import { startBenchServer } from './server';
import { median, percentile } from './stats';

const ROOT = resolve(__dirname, '../..');
const OUT_DIR = join(ROOT, 'out-bench');
const RENDERER_DIR = join(OUT_DIR, 'renderer');
const AGENT = readFileSync(join(__dirname, 'agent.js'), 'utf8');
/** BENCH_PRELOAD=metadata|none|auto overrides the app's media preload (a diagnostic; unset in real runs). */
const PRELOAD_OVERRIDE = process.env.BENCH_PRELOAD ?? '';
const APP_AGENT = `window.__benchApiMethods = ${JSON.stringify(API_METHODS)};\nwindow.__benchPreload = ${JSON.stringify(PRELOAD_OVERRIDE)};\n${AGENT}`;

/** 16 Mbit/s in bytes per second. */
const SIXTEEN_MBIT = 2_000_000;
/** Longest wait for one measurement to finish, ms. */
const STEP_TIMEOUT_MS = 90_000;
/** Interactions per run for the 500-entry paint figure (more samples for the p95). */
const TRANSCRIPT_500_VIEWS = 6;
/** Interactions per run for the 5,000-entry figures. */
const TRANSCRIPT_5000_VIEWS = 2;
/** Playback ticks measured per 5,000-entry view. */
const TICKS_PER_VIEW = 24;

type PathName = 'vr' | 'wavesurfer' | 'bare';
type LinkName = 'loopback' | '16 Mbit/s';
type CallName = '1 min' | '40 min';

const PATH_LABEL: Record<PathName, string> = {
  vr: 'Voice Review',
  wavesurfer: 'wavesurfer full fetch',
  bare: 'bare <audio>',
};

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

/** Samples of one (link, call, path) cell; all times in ms, memory in bytes. */
interface Cell {
  firstAudioMs: number[];
  /** From the moment the page has the media element with its src (bare: the same as firstAudioMs). */
  mediaFirstAudioMs: number[];
  waveformMs: number[];
  waveformCachedMs: number[];
  cachedFromDisk: boolean[];
  processBytes: number[];
  jsHeapBytes: number[];
  notes: Set<string>;
  /** Voice Review only: ms from the action to each step, by step name. */
  steps: Map<string, number[]>;
  /** Voice Review only: worst event-loop delay of this ("main") process during the first view, ms. */
  mainLoopMaxDelayMs: number[];
}

function emptyCell(): Cell {
  return {
    firstAudioMs: [],
    mediaFirstAudioMs: [],
    waveformMs: [],
    waveformCachedMs: [],
    cachedFromDisk: [],
    processBytes: [],
    jsHeapBytes: [],
    notes: new Set(),
    steps: new Map(),
    mainLoopMaxDelayMs: [],
  };
}

/** Step times of a Voice Review view, ms after the action (null when the step did not happen). */
function stepsOf(state: BenchState, prefix: string): Array<[string, number | null]> {
  const at = (v: number | null): number | null => (v === null || state.t0 === null ? null : v - state.t0);
  return [
    [`${prefix}interaction response`, at(state.responseAt)],
    [`${prefix}media element`, at(state.mediaAt)],
    [`${prefix}transcript painted`, at(state.paintedAt)],
    [`${prefix}Play enabled and pressed`, at(state.playClickedAt)],
    [`${prefix}playing`, at(state.playingAt)],
    [`${prefix}peaks requested`, at(state.peaksRequestedAt)],
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

/** Opens a page with the agent (and, for the app, the window.api stand-in). */
async function openPage(browser: Browser, url: string, app: boolean): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.addInitScript({ content: app ? APP_AGENT : AGENT });
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
  processBytes: number;
  jsHeapBytes: number;
  note?: string;
  steps?: Array<[string, number | null]>;
  /** Voice Review only: the second view in the same app session. */
  waveformCachedMs?: number | null;
  cachedFromDisk?: boolean | null;
}

async function measureBare(browser: Browser, origin: string, sid: string): Promise<Measured> {
  const { page } = await openPage(browser, `${origin}/bench/bare.html`, false);
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
  const { page } = await openPage(browser, `${origin}/bench/wavesurfer.html`, false);
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

async function measureApp(browser: Browser, origin: string, sid: string, marker: string): Promise<Measured> {
  const { page, errors } = await openPage(browser, `${origin}/index.html`, true);
  await openApp(page, origin, sid);
  await warmUp(page);
  const session = await page.context().newCDPSession(page);
  const pid = await pageRendererPid(browser, page, session);
  const before = await readMemory(pid, session);
  await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: true, marker })})`);
  await waitFor(page, `(${FIRST_AUDIO_DONE}) && (${WAVEFORM_DONE})`, 'first audio and waveform (Voice Review)');
  const state = await readState(page);
  if (state.error)
    throw new Error(`${state.error}${errors.length ? `; page errors: ${errors.slice(0, 3).join(' | ')}` : ''}`);
  await waitUntilPageTime(page, Math.max(state.playingAt!, state.waveformAt ?? state.peaksAt ?? 0) + 1000);
  const added = memoryAdded(before, await readMemory(pid, session));
  const firstAudioMs = state.playingAt! - state.t0!;
  const mediaFirstAudioMs = state.mediaAt === null ? null : state.playingAt! - state.mediaAt;
  const waveformMs = state.waveformAt === null ? null : state.waveformAt - state.t0!;
  let note = state.peaksError ? `peaks failed: ${state.peaksError}` : undefined;

  // Second view in the same app session: reload the page (fresh renderer), same main and peaks cache.
  let waveformCachedMs: number | null = null;
  let cachedFromDisk: boolean | null = null;
  const steps = stepsOf(state, '');
  if (waveformMs !== null) {
    await openApp(page, origin, sid);
    await page.evaluate(`window.__bench.startApp(${JSON.stringify({ autoPlay: false, marker })})`);
    await waitFor(page, WAVEFORM_DONE, 'cached waveform (Voice Review)');
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
  return { firstAudioMs, mediaFirstAudioMs, waveformMs, waveformCachedMs, cachedFromDisk, ...added, note, steps };
}

/** Transcript figures of one run: paint times (ms) and highlight tick times (ms). */
interface TranscriptSamples {
  paint500Ms: number[];
  paint5000Ms: number[];
  tickMs: number[];
  /** Same tick measurement on a 500-entry transcript: tells the transcript's share from the rest (waveform cursor). */
  tick500Ms: number[];
  tickChanges: number;
  ticks: number;
  notes: Set<string>;
}

async function measureTranscripts(
  browser: Browser,
  origin: string,
  calls: { size: 500 | 5000; sid: string; marker: string }[],
  into: TranscriptSamples,
): Promise<void> {
  const { page, errors } = await openPage(browser, `${origin}/index.html`, true);
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
    await waitFor(page, WAVEFORM_DONE, 'waveform after the transcript sample').catch((e: Error) =>
      into.notes.add(e.message.slice(0, 120)),
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
    }
  }
  if (errors.length) into.notes.add(`page errors: ${errors.slice(0, 2).join(' | ').slice(0, 200)}`);
  await page.context().close();
}

function tag(entries: WireLogEntry[], label: string): WireLogEntry[] {
  return entries.map((e) => ({ ...e, message: `${e.message} [${label}]` }));
}

/**
 * Starts test/fixtures/long-call.ts's service in a child process (scripts/bench/long-call-service.ts)
 * and resolves with its base URL, key and interaction SIDs (in the order of `options.recordings`).
 */
async function startLongCallService(
  options: LongCallServerOptions,
): Promise<{ baseUrl: string; apiKey: string; sids: string[]; close(): Promise<void> }> {
  const dir = mkdtempSync(join(os.tmpdir(), 'voice-review-bench-service-'));
  const optionsFile = join(dir, 'options.json');
  writeFileSync(optionsFile, JSON.stringify(options));
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'long-call-service.ts'), optionsFile], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ baseUrl: string; apiKey: string; sids: string[] }>((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('READY '))
        resolvePromise(JSON.parse(line.slice('READY '.length)) as { baseUrl: string; apiKey: string; sids: string[] });
    });
    child.once('exit', (code) => reject(new Error(`The long-call service exited with code ${code}`)));
  });
  return {
    ...ready,
    close: async () => {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Everything one link needs: the long-call service, a session connected to it, the bench server. */
async function startLink(link: LinkName, files: { oneMinute: string; fortyMinutes: string }, rendererDir: string) {
  const calls = {
    '1 min': tag(buildTranscript(60, 20), 'call 1 min'),
    '40 min': tag(buildTranscript(2400, 500), 'call 40 min'),
  };
  const transcript500 = Array.from({ length: TRANSCRIPT_500_VIEWS }, (_, k) =>
    tag(buildTranscript(2400, 500), `t500 ${k}`),
  );
  const transcript5000 = Array.from({ length: TRANSCRIPT_5000_VIEWS }, (_, k) =>
    tag(buildTranscript(2400, 5000), `t5000 ${k}`),
  );
  const longCalls = await startLongCallService({
    bytesPerSecond: link === '16 Mbit/s' ? SIXTEEN_MBIT : undefined,
    recordings: [
      { seconds: 60, file: files.oneMinute, entries: calls['1 min'] },
      { seconds: 2400, file: files.fortyMinutes, entries: calls['40 min'] },
      ...transcript500.map((entries) => ({ seconds: 2400, file: files.fortyMinutes, entries })),
      ...transcript5000.map((entries) => ({ seconds: 2400, file: files.fortyMinutes, entries })),
    ],
  });
  const userData = mkdtempSync(join(os.tmpdir(), 'voice-review-bench-'));
  const session: Session = createSession({
    settings: createSettingsStore(userData),
    secrets: createMemoryStore(),
    startDemo: () => startDemoServer({ resourcesDir: join(ROOT, 'resources') }),
  });
  let origin = '';
  const locate = (sid: string) => session.locateRecording(sid);
  const cacheDirs: string[] = [];
  // As electron/main/index.ts: peaks downloads wait for the player's first streamed Range request
  // (a new gate with each handler table, so an earlier path's playback never opens it).
  let playbackGate = createPlaybackGate();
  const newHandlers = (): HandlerTable => {
    const cacheDir = mkdtempSync(join(os.tmpdir(), 'voice-review-bench-peaks-'));
    cacheDirs.push(cacheDir);
    playbackGate = createPlaybackGate();
    // Decoding in the built worker thread, as Electron's main does (electron/main/index.ts).
    const peaks = createPeaksService({
      locate,
      cacheDir,
      decode: createWorkerDecoder(join(OUT_DIR, 'main', 'peaks-worker.js')),
      beforeDownload: (sid) => playbackGate.wait(sid),
    });
    return createHandlers({ session, peaks, recordingSrc: (sid) => `${origin}${recordingPath(sid)}` });
  };
  let handlers = newHandlers();
  const server = await startBenchServer({
    rendererDir,
    wavesurferFile: join(ROOT, 'node_modules/wavesurfer.js/dist/wavesurfer.esm.js'),
    recording: createRecordingHandler({ locate, onStreaming: (sid) => playbackGate.opened(sid) }),
    handlers: () => handlers,
  });
  origin = server.origin;
  const connected = await handlers.connect([
    { name: `Long calls (${link})`, baseUrl: longCalls.baseUrl, apiKey: longCalls.apiKey },
  ]);
  if (!connected.ok) throw new Error(`Could not connect to the long-call service: ${JSON.stringify(connected.error)}`);
  const byIndex = longCalls.sids.map((sid) => ({ sid }));
  return {
    origin,
    sids: { '1 min': byIndex[0]!.sid, '40 min': byIndex[1]!.sid } as Record<CallName, string>,
    markers: { '1 min': calls['1 min'][0]!.message, '40 min': calls['40 min'][0]!.message } as Record<CallName, string>,
    transcriptCalls: [
      ...transcript500.map((entries, k) => ({
        size: 500 as const,
        sid: byIndex[2 + k]!.sid,
        marker: entries[0]!.message,
      })),
      ...transcript5000.map((entries, k) => ({
        size: 5000 as const,
        sid: byIndex[2 + TRANSCRIPT_500_VIEWS + k]!.sid,
        marker: entries[0]!.message,
      })),
    ],
    /** A fresh peaks service (empty disk cache) for the next run. */
    freshPeaks() {
      handlers = newHandlers();
    },
    async close() {
      await server.close();
      await session.close();
      await longCalls.close();
      for (const dir of [userData, ...cacheDirs]) rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---- output ------------------------------------------------------------------------------

const ms = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : `${Math.round(v)} ms`;
const mb = (bytes: number | undefined): string =>
  bytes === undefined || !Number.isFinite(bytes) ? '—' : `${bytes >= 0 ? '+' : ''}${(bytes / 1e6).toFixed(1)} MB`;
const ratio = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '))
    .join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.build) {
    log(`Building the renderer into ${OUT_DIR} ...`);
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

  const cells = new Map<string, Cell>();
  const cell = (link: LinkName, call: CallName, path: PathName): Cell => {
    const key = `${link}|${call}|${path}`;
    if (!cells.has(key)) cells.set(key, emptyCell());
    return cells.get(key)!;
  };
  const transcript: TranscriptSamples = {
    paint500Ms: [],
    paint5000Ms: [],
    tickMs: [],
    tick500Ms: [],
    tickChanges: 0,
    ticks: 0,
    notes: new Set(),
  };
  let chromiumVersion = '';

  for (const link of args.links) {
    const setup = await startLink(link, files, RENDERER_DIR);
    try {
      for (let run = 1; run <= args.runs; run++) {
        setup.freshPeaks();
        for (const call of ['1 min', '40 min'] as CallName[]) {
          for (const path of args.paths) {
            log(`[${link}] run ${run}/${args.runs}: ${call} · ${PATH_LABEL[path]}`);
            const target = cell(link, call, path);
            const browser = await launch();
            chromiumVersion ||= browser.version();
            const loop = monitorEventLoopDelay({ resolution: 5 });
            loop.enable();
            try {
              const sid = setup.sids[call];
              const result =
                path === 'bare'
                  ? await measureBare(browser, setup.origin, sid)
                  : path === 'wavesurfer'
                    ? await measureWaveSurfer(browser, setup.origin, sid)
                    : await measureApp(browser, setup.origin, sid, setup.markers[call]);
              if (result.firstAudioMs !== null) target.firstAudioMs.push(result.firstAudioMs);
              if (result.mediaFirstAudioMs !== null) target.mediaFirstAudioMs.push(result.mediaFirstAudioMs);
              if (result.waveformMs !== null) target.waveformMs.push(result.waveformMs);
              target.processBytes.push(result.processBytes);
              target.jsHeapBytes.push(result.jsHeapBytes);
              if (result.waveformCachedMs !== undefined && result.waveformCachedMs !== null) {
                target.waveformCachedMs.push(result.waveformCachedMs);
                if (result.cachedFromDisk !== undefined && result.cachedFromDisk !== null)
                  target.cachedFromDisk.push(result.cachedFromDisk);
              }
              if (result.note) target.notes.add(result.note);
              if (path === 'vr') target.mainLoopMaxDelayMs.push(loop.max / 1e6);
              for (const [name, value] of result.steps ?? []) {
                if (value === null) continue;
                if (!target.steps.has(name)) target.steps.set(name, []);
                target.steps.get(name)!.push(value);
              }
            } catch (error) {
              target.notes.add((error as Error).message.slice(0, 300));
              log(`  failed: ${(error as Error).message.slice(0, 300)}`);
            } finally {
              loop.disable();
              await browser.close();
            }
          }
        }
        if (args.transcript && args.paths.includes('vr') && link === args.links[0]) {
          log(
            `[${link}] run ${run}/${args.runs}: transcripts (${TRANSCRIPT_500_VIEWS} x 500, ${TRANSCRIPT_5000_VIEWS} x 5,000 entries)`,
          );
          const browser = await launch();
          try {
            await measureTranscripts(browser, setup.origin, setup.transcriptCalls, transcript);
          } catch (error) {
            transcript.notes.add((error as Error).message.slice(0, 300));
            log(`  failed: ${(error as Error).message.slice(0, 300)}`);
          } finally {
            await browser.close();
          }
        }
      }
    } finally {
      await setup.close();
    }
  }

  // ---- print ----
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const out: string[] = [];
  const size40 = (statSync(files.fortyMinutes).size / 1e6).toFixed(1);
  out.push(`Voice Review benchmark — medians of ${args.runs} run(s) (npm run bench)`);
  if (PRELOAD_OVERRIDE)
    out.push(`DIAGNOSTIC RUN: the app's media element preload forced to "${PRELOAD_OVERRIDE}" (BENCH_PRELOAD)`);
  out.push(
    `Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 1e9).toFixed(1)} GB RAM, Linux ${os.release()}; Node ${process.version}; Chromium ${chromiumVersion} (headless, /usr/bin/chromium)`,
  );
  out.push(
    `Recordings: 1 min and 40 min, 8 kHz mono MP3 at 32 kbit/s (40 min = ${size40} MB), generated by test/fixtures/long-call.ts,`,
  );
  out.push(
    'served by the demo service and the app\'s recording protocol handler on 127.0.0.1; "16 Mbit/s" throttles recording bodies to 2,000,000 B/s.',
  );
  out.push(
    'First audio: user action -> media element "playing" (currentTime then advancing); the action is "Show call" in Voice Review (Play pressed',
  );
  out.push(
    'as soon as it is enabled), WaveSurfer.create({url, autoplay}) for wavesurfer, src + play() for bare <audio>. "From media src": from the',
  );
  out.push(
    'moment the page has the media element with its src (Voice Review: first seen by a MutationObserver; bare: same as first audio).',
  );
  out.push('Waveform: user action -> waveform drawn and painted;');
  out.push(
    "cached = second view in the same app session (page reloaded, peaks from the main-side disk cache). Memory: PSS of the page's",
  );
  out.push(
    'renderer process (/proc/<pid>/smaps_rollup; PID from CDP SystemInfo.getProcessInfo, told apart by a 128 MB ballast) and JS heap',
  );
  out.push(
    '(CDP Performance.getMetrics JSHeapUsedSize), both after a forced GC, before the action vs 1 s after first audio and waveform.',
  );
  out.push(
    'Each measurement runs in a fresh browser (new profile) after a 0.25 s warm-up sound; the long-call API runs in a child process;',
  );
  out.push(
    "the recording protocol handler, handler table and peaks service run in this process, as they share Electron's main process.",
  );
  out.push('');

  for (const link of args.links) {
    for (const call of ['1 min', '40 min'] as CallName[]) {
      const rows: string[][] = [
        [
          `${call} call · ${link}`,
          'first audio',
          'from media src',
          'waveform',
          'waveform cached',
          'renderer memory',
          'JS heap',
          'runs',
        ],
      ];
      for (const path of args.paths) {
        const c = cell(link, call, path);
        rows.push([
          PATH_LABEL[path],
          ms(median(c.firstAudioMs)),
          path === 'wavesurfer' ? 'n/a' : ms(median(c.mediaFirstAudioMs)),
          path === 'bare' ? 'n/a' : ms(median(c.waveformMs)),
          path === 'vr' ? ms(median(c.waveformCachedMs)) : 'n/a',
          mb(median(c.processBytes)),
          mb(median(c.jsHeapBytes)),
          String(c.firstAudioMs.length),
        ]);
      }
      out.push(table(rows));
      for (const path of args.paths) {
        const c = cell(link, call, path);
        if (path === 'vr' && c.steps.size) {
          const parts = [...c.steps].map(([name, values]) => `${name} ${ms(median(values))}`);
          out.push(
            `  Voice Review steps (medians, ms after "Show call"): ${parts.filter((p) => !p.startsWith('cached')).join(', ')}`,
          );
          out.push(`    ${parts.filter((p) => p.startsWith('cached')).join(', ')}`);
        }
        if (path === 'vr' && c.mainLoopMaxDelayMs.length) {
          out.push(
            `  main-process event loop (recording protocol, IPC handlers, peaks): longest delay during a Voice Review measurement ${ms(median(c.mainLoopMaxDelayMs))} (median of runs)`,
          );
        }
        if (path === 'vr' && c.cachedFromDisk.length)
          out.push(
            `  Voice Review cached view: peaks reported fromCache=${c.cachedFromDisk.filter(Boolean).length}/${c.cachedFromDisk.length}`,
          );
        for (const note of c.notes) out.push(`  note (${PATH_LABEL[path]}): ${note}`);
      }
      const vr = median(cell(link, call, 'vr').firstAudioMs);
      const vrMedia = median(cell(link, call, 'vr').mediaFirstAudioMs);
      const bare = median(cell(link, call, 'bare').firstAudioMs);
      const full = median(cell(link, call, 'wavesurfer').firstAudioMs);
      out.push(
        `  ratios: VR / bare <audio> first audio = ${ratio(vrMedia / bare)} from media src, ${ratio(vr / bare)} from "Show call"; full fetch / VR (from "Show call") = ${ratio(full / vr)}`,
      );
      out.push('');
    }
  }

  if (args.transcript && args.paths.includes('vr')) {
    out.push(
      table([
        ['Transcript (Voice Review, 40-min call)', 'median', 'p95', 'samples'],
        [
          '500 entries: painted after the response',
          ms(median(transcript.paint500Ms)),
          ms(percentile(transcript.paint500Ms, 95)),
          String(transcript.paint500Ms.length),
        ],
        [
          '5,000 entries: painted after the response',
          ms(median(transcript.paint5000Ms)),
          ms(percentile(transcript.paint5000Ms, 95)),
          String(transcript.paint5000Ms.length),
        ],
        [
          '5,000 entries: highlight update per tick',
          `${median(transcript.tickMs).toFixed(2)} ms`,
          `${percentile(transcript.tickMs, 95).toFixed(2)} ms`,
          String(transcript.tickMs.length),
        ],
        [
          '500 entries: update per tick (for comparison)',
          `${median(transcript.tick500Ms).toFixed(2)} ms`,
          `${percentile(transcript.tick500Ms, 95).toFixed(2)} ms`,
          String(transcript.tick500Ms.length),
        ],
      ]),
    );
    out.push(
      `  ticks: playback at 2x from 10:00, ${transcript.tickChanges} of ${transcript.ticks} ticks moved the highlight; time = 'timeupdate' capture on window -> end of`,
    );
    out.push(
      "  a listener after the app's that forces style and layout (document.body.offsetHeight); it includes everything the app does on a",
    );
    out.push('  tick (transcript highlight and the waveform cursor). Painted = response in the renderer -> first');
    out.push('  row in the DOM -> next frame painted (requestAnimationFrame, then a task).');
    for (const note of transcript.notes) out.push(`  note: ${note}`);
    out.push('');
  }

  // ---- targets ----
  const targetRows: string[][] = [['Target (issue 5)', 'figure', 'result']];
  const verdict = (ok: boolean | null): string => (ok === null ? 'NOT RUN' : ok ? 'PASS' : 'FAIL');
  const has = (v: number): boolean => Number.isFinite(v);
  for (const link of ['loopback', '16 Mbit/s'] as LinkName[]) {
    const run = args.links.includes(link);
    const vr = median(cell(link, '40 min', 'vr').mediaFirstAudioMs);
    const bare = median(cell(link, '40 min', 'bare').firstAudioMs);
    targetRows.push([
      `40 min, first audio within 1.3x of bare <audio>, from media src (${link})`,
      ratio(vr / bare),
      verdict(run && has(vr / bare) ? vr / bare <= 1.3 : null),
    ]);
  }
  {
    const vr = median(cell('16 Mbit/s', '40 min', 'vr').firstAudioMs);
    const full = median(cell('16 Mbit/s', '40 min', 'wavesurfer').firstAudioMs);
    targetRows.push([
      '40 min, first audio >= 25x faster than full fetch (16 Mbit/s)',
      ratio(full / vr),
      verdict(has(full / vr) ? full / vr >= 25 : null),
    ]);
  }
  for (const link of args.links) {
    const first = median(cell(link, '40 min', 'vr').waveformMs);
    const cached = median(cell(link, '40 min', 'vr').waveformCachedMs);
    if (link === 'loopback') {
      targetRows.push([
        `40 min, waveform complete on first view < 1500 ms (${link})`,
        ms(first),
        verdict(has(first) ? first < 1500 : args.paths.includes('vr') ? false : null),
      ]);
    } else {
      // Peaks need the whole file: at 2,000,000 B/s its download alone takes size / rate.
      const floor = (statSync(files.fortyMinutes).size / SIXTEEN_MBIT) * 1000;
      targetRows.push([
        `40 min, waveform on first view (${link}; the download alone takes ${ms(floor)})`,
        ms(first),
        'INFO',
      ]);
    }
    targetRows.push([
      `40 min, waveform complete when cached < 100 ms (${link})`,
      ms(cached),
      verdict(has(cached) ? cached < 100 : args.paths.includes('vr') ? false : null),
    ]);
  }
  for (const link of args.links) {
    const memory = median(cell(link, '40 min', 'vr').processBytes);
    targetRows.push([
      `40 min, renderer memory added < 50 MB (${link})`,
      mb(memory),
      verdict(has(memory) ? memory < 50e6 : null),
    ]);
  }
  if (args.transcript && args.paths.includes('vr')) {
    const p95 = percentile(transcript.paint500Ms, 95);
    targetRows.push([
      '500 entries painted < 100 ms after the response (p95)',
      ms(p95),
      verdict(has(p95) ? p95 < 100 : false),
    ]);
    const tick = percentile(transcript.tickMs, 95);
    targetRows.push([
      '5,000 entries, highlight update < 2 ms per tick (p95)',
      has(tick) ? `${tick.toFixed(2)} ms` : '—',
      verdict(has(tick) ? tick < 2 : false),
    ]);
  }
  out.push(table(targetRows));
  process.stdout.write(`${out.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
