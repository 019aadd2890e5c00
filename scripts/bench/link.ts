/**
 * One link of the benchmark (loopback, or throttled to 16 Mbit/s): the long-call service in a
 * child process, main built by the app's composition root (createMainStack) and registered on an
 * `ipcMain` stand-in (registerIpc), and the bench server serving the built renderer, the
 * recordings and the reference pages. Each run gets a new stack with an empty peaks disk cache.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createMemoryStore } from '../../electron/main/keys/keychain';
import { createMainStack, registerIpc, type MainStack } from '../../electron/main/main-stack';
import {
  buildTranscript,
  type LongCallServerOptions,
  type WireLogEntry,
  type LongCallCounters,
} from '../../test/fixtures/long-call';
import { createIpcMainStandIn, type IpcMainStandIn } from '../../test/fixtures/preload-bridge';
import { startBenchServer } from './server';

/** 16 Mbit/s in bytes per second. */
export const SIXTEEN_MBIT = 2_000_000;
/** Interactions per run for the 500-entry paint figure (more samples for the p95). */
export const TRANSCRIPT_500_VIEWS = 6;
/** Interactions per run for the 5,000-entry figures. */
export const TRANSCRIPT_5000_VIEWS = 2;

export type LinkName = 'loopback' | '16 Mbit/s';
export type CallName = '1 min' | '40 min';

/** Where the built app is: its renderer, preload and peaks worker. */
export interface BuiltApp {
  rendererDir: string;
  peaksWorker: string;
}

/** A running link; see {@link startLink}. */
export interface BenchLink {
  /** The bench server's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  sids: Record<CallName, string>;
  /** Text of the first transcript entry of each call (the paint marker). */
  markers: Record<CallName, string>;
  transcriptCalls: Array<{ size: 500 | 5000; sid: string; marker: string }>;
  /** The `ipcMain` stand-in of the current run's stack (the page's preload calls it). */
  ipcMain(): IpcMainStandIn;
  /** A new stack (fresh session, empty peaks disk cache) for the next run. */
  freshStack(): Promise<void>;
  /**
   * Deletes the current stack's recording cache, so the next view downloads its recording as a
   * first view does (the bare and wavesurfer paths play through the same recording protocol).
   */
  forgetRecordings(): Promise<void>;
  /**
   * Downloads `call`'s recording once straight from the long-call service (Node's fetch with the
   * key), after discarding the stack's recordings so nothing else is on the link, as a check of
   * the link itself. @returns the time to the last byte, ms
   */
  timeDownload(call: CallName): Promise<number>;
  /** The long-call service's running totals: recording bytes sent and GET /interactions/<sid> by SID. */
  counters(): Promise<LongCallCounters>;
  close(): Promise<void>;
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
    cwd: join(__dirname, '../..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ baseUrl: string; apiKey: string; sids: string[] }>((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('READY '))
        resolvePromise(JSON.parse(line.slice('READY '.length)) as { baseUrl: string; apiKey: string; sids: string[] });
    });
    child.once('exit', (code) => {
      reject(new Error(`The long-call service exited with code ${String(code)}`));
    });
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

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The transcripts of one link: the two timed calls, and the views for the paint figures. */
function benchTranscripts() {
  return {
    calls: {
      '1 min': tag(buildTranscript(60, 20), 'call 1 min'),
      '40 min': tag(buildTranscript(2400, 500), 'call 40 min'),
    },
    transcript500: Array.from({ length: TRANSCRIPT_500_VIEWS }, (_, k) => tag(buildTranscript(2400, 500), `t500 ${k}`)),
    transcript5000: Array.from({ length: TRANSCRIPT_5000_VIEWS }, (_, k) =>
      tag(buildTranscript(2400, 5000), `t5000 ${k}`),
    ),
  };
}

/** One run's main: a stack, the `ipcMain` stand-in it registered on, and its user-data folder. */
interface Run {
  stack: MainStack;
  ipcMain: IpcMainStandIn;
  dir: string;
}

/**
 * A stack as Electron's main builds it (decoding in the built worker),
 * in a new user-data folder, connected to the long-call service.
 * @throws Error when the service refuses the connection
 */
async function startRun(
  link: LinkName,
  app: BuiltApp,
  origin: string,
  service: { baseUrl: string; apiKey: string },
): Promise<Run> {
  const dir = mkdtempSync(join(os.tmpdir(), 'voice-review-bench-'));
  const stack = createMainStack({
    userDataDir: dir,
    secrets: createMemoryStore(),
    resourcesDir: join(__dirname, '../../resources'),
    recordingOrigin: origin,
    appOrigin: origin,
    log: quiet,
    peaksDecoder: { workerPath: app.peaksWorker },
  });
  const ipcMain = createIpcMainStandIn();
  registerIpc(ipcMain, stack);
  const connected = await stack.handlers.connect([
    { name: `Long calls (${link})`, baseUrl: service.baseUrl, apiKey: service.apiKey },
  ]);
  if (!connected.ok) throw new Error(`Could not connect to the long-call service: ${JSON.stringify(connected.error)}`);
  return { stack, ipcMain, dir };
}

async function closeRun(run: Run): Promise<void> {
  await run.stack.close();
  rmSync(run.dir, { recursive: true, force: true });
}

/** Everything one link needs: the long-call service, main's stack connected to it, the bench server. */
export async function startLink(
  link: LinkName,
  files: { oneMinute: string; fortyMinutes: string },
  app: BuiltApp,
): Promise<BenchLink> {
  const { calls, transcript500, transcript5000 } = benchTranscripts();
  const longCalls = await startLongCallService({
    bytesPerSecond: link === '16 Mbit/s' ? SIXTEEN_MBIT : undefined,
    recordings: [
      { seconds: 60, file: files.oneMinute, entries: calls['1 min'] },
      { seconds: 2400, file: files.fortyMinutes, entries: calls['40 min'] },
      ...transcript500.map((entries) => ({ seconds: 2400, file: files.fortyMinutes, entries })),
      ...transcript5000.map((entries) => ({ seconds: 2400, file: files.fortyMinutes, entries })),
    ],
  });

  let current: Run | null = null;
  const server = await startBenchServer({
    rendererDir: app.rendererDir,
    wavesurferFile: join(__dirname, '../../node_modules/wavesurfer.js/dist/wavesurfer.esm.js'),
    recording: (request) => {
      if (!current) throw new Error('No stack is running.');
      return current.stack.recording(request);
    },
    ipcResult: (request) => {
      if (!current) throw new Error('No stack is running.');
      return current.ipcMain.serveResult(request);
    },
    ipcCall: (request) => {
      if (!current) throw new Error('No stack is running.');
      return current.ipcMain.serveCall(request);
    },
  });
  const origin = server.origin;

  async function freshStack(): Promise<void> {
    const previous = current;
    current = await startRun(link, app, origin, longCalls);
    if (previous) await closeRun(previous);
  }

  await freshStack();
  const sids = longCalls.sids;
  const callSids: Record<CallName, string> = { '1 min': sids[0]!, '40 min': sids[1]! };
  return {
    origin,
    sids: callSids,
    markers: { '1 min': calls['1 min'][0]!.message, '40 min': calls['40 min'][0]!.message },
    transcriptCalls: [
      ...transcript500.map((entries, k) => ({ size: 500 as const, sid: sids[2 + k]!, marker: entries[0]!.message })),
      ...transcript5000.map((entries, k) => ({
        size: 5000 as const,
        sid: sids[2 + TRANSCRIPT_500_VIEWS + k]!,
        marker: entries[0]!.message,
      })),
    ],
    ipcMain: () => {
      if (!current) throw new Error('No stack is running.');
      return current.ipcMain;
    },
    freshStack,
    forgetRecordings: async () => {
      await current?.stack.recordings.clear();
    },
    timeDownload: async (call) => {
      // The stack's own downloads run to their end even when no one reads them (a bare element's
      // view ends at first audio): discard them, so the link carries this download alone.
      await current?.stack.recordings.clear();
      const auth = { Authorization: `Bearer ${longCalls.apiKey}` };
      const answer = await fetch(`${longCalls.baseUrl}/interactions/${callSids[call]}`, { headers: auth });
      const { interaction } = (await answer.json()) as { interaction: { recording_url: string } };
      const url = interaction.recording_url;
      const started = performance.now();
      const response = await fetch(url, { headers: auth });
      await response.arrayBuffer();
      return performance.now() - started;
    },
    counters: async () =>
      (await (await fetch(`${new URL(longCalls.baseUrl).origin}/__counters`)).json()) as LongCallCounters,
    async close() {
      await server.close();
      if (current) await closeRun(current);
      current = null;
      await longCalls.close();
    },
  };
}
