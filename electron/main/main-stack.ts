/**
 * The one place main is built: settings, key storage (with log redaction), session, handler
 * table behind the IPC sender guard, recording protocol and peaks service, and the run's recording
 * cache they share (one download per recording). `index.ts` wires the result to Electron; the end-to-end harness, the benchmark
 * and the test rigs call the same function with their own seams (secret store, fetch, decoder,
 * cache folders), so what they exercise is what ships. Plain Node: no Electron import.
 */
import { join } from 'node:path';
import { API_METHODS, channelOf, type ApiMethod, type IpcResult } from '$shared/contract';
import { RECORDING_PATH_PREFIX, recordingSrcOf } from '$shared/recording-src';
import type { Resolver } from './api/destination';
import { withAppCors } from './shell/app-protocol';
import { startDemoServer } from './demo/server';
import type { SavePathChooser } from './exports/save-dialog';
import { createEvidencePackService } from './exports/evidence-pack-service';
import { createExportsService } from './exports/service';
import { createHandlers, type HandlerTable } from './shell/handlers';
import type { SecretStore } from './keys/keychain';
import { registerIpcSecrets, registerSecret, registeringSecrets, type MainLog } from './shell/log';
import { createPeaksService, type PeaksService } from './peaks/service';
import { createWorkerDecoder, type PeaksDecoder } from './peaks/worker-decoder';
import { createRecentCalls } from './workspaces/recent-calls';
import { createRedactionSettingsStore } from './reviews/redaction-settings';
import { createReviewService } from './reviews/review-service';
import { createRecordingCache, type RecordingCache } from './recordings/recording-cache';
import { createRecordingHandler } from './recordings/recording-protocol';
import type { KeyStorage } from './keys/secret-storage';
import { createIpcGuard } from './shell/security';
import { createSession, type DemoHandle, type Session } from './workspaces/session';
import { createSettingsStore } from './workspaces/settings';

/** Options of {@link createMainStack}. */
export interface MainStackOptions {
  /** The user-data folder: settings.json, and the peaks cache unless `peaksCacheDir` says otherwise. */
  userDataDir: string;
  /**
   * Where API keys are kept: a {@link KeyStorage} in the app, a memory store in tests. Every key
   * read or written through it is registered with the log's redaction first.
   */
  secrets: SecretStore | KeyStorage;
  /** Folder holding the demo seed and recordings (`resources/`), for the embedded demo service. */
  resourcesDir: string;
  /**
   * Starts the demo service instead of the embedded one on `resourcesDir` (a test that already
   * runs one). Its key is registered with the log's redaction either way.
   */
  startDemo?: () => Promise<DemoHandle>;
  /**
   * Origin the renderer plays recordings from (an interaction's at `<origin>/recording/<sid>`):
   * `vr-recording://local` in Electron, the loopback server in the harness and the benchmark.
   */
  recordingOrigin: string;
  /**
   * Origin of app pages besides `app://voice-review`: electron-vite's dev server in development,
   * the loopback server in the harness and the benchmark. IPC calls from any other frame are
   * refused; recording responses get CORS headers for it.
   */
  appOrigin?: string;
  /** The (redacting) main log: refused and failed calls, unexpected failures. */
  log: Pick<MainLog, 'info' | 'warn' | 'error'>;
  /** Also told of each unexpected (non-ApiError) failure of a handler, after the log (tests). */
  onUnexpected?: (method: ApiMethod, err: unknown) => void;
  /**
   * fetch for the API client's requests. Recordings (the protocol and the peaks downloads) go
   * through the client's recording fetcher instead, over its guarded connections.
   */
  fetch?: typeof fetch;
  /** Resolves names for recording downloads (tests map a test name to a refused address); default DNS. */
  recordingResolver?: Resolver;
  /**
   * How peaks are decoded: a decoder, or the path of the built worker script (`peaks-worker.js`)
   * to decode in a worker thread as Electron does. Default: in this thread.
   */
  peaksDecoder?: PeaksDecoder | { workerPath: string };
  /** Folder of the peaks disk cache; null for none. Default `<userDataDir>/peaks-cache`. */
  peaksCacheDir?: string | null;
  /** Folder holding the run's private recordings folder; default `<tmp>/voice-review-recordings-<uid>`. */
  recordingCacheRoot?: string;
  /**
   * The save dialog of transcript exports and recording downloads: Electron's
   * `dialog.showSaveDialog` in the app, a chooser of temporary paths in tests. Without it, saving
   * is refused with words.
   */
  chooseSavePath?: SavePathChooser;
}

/** Everything main runs, built by {@link createMainStack}. */
export interface MainStack {
  session: Session;
  /** The unguarded handler table (tests call it directly; IPC goes through `invoke`). */
  handlers: HandlerTable;
  /**
   * The guarded entry point of every IPC call: refuses a sender frame outside the app, registers
   * the call's secrets with the log, runs the method's handler. Never rejects.
   * @param senderUrl `event.senderFrame?.url`
   */
  invoke(method: ApiMethod, senderUrl: string | null | undefined, args: unknown[]): Promise<IpcResult<unknown>>;
  /** The `vr-recording:` protocol handler (Range forwarded, redirects and destinations checked, key only to the workspace's origin). */
  recording: (request: Request) => Promise<Response>;
  peaks: PeaksService;
  /** The run's recordings: one download per recording, read by the player and the peaks decoder. */
  recordings: RecordingCache;
  /** Stops the session (and the demo service it may have started) and deletes the run's recordings. */
  close(): Promise<void>;
}

/** Builds main's stack. Nothing runs until a method is called; the demo service starts on demand. */
export function createMainStack(options: MainStackOptions): MainStack {
  const { log, appOrigin } = options;
  const startDemo = options.startDemo ?? (() => startDemoServer({ resourcesDir: options.resourcesDir }));
  const recordings = createRecordingCache(
    options.recordingCacheRoot === undefined ? {} : { root: options.recordingCacheRoot },
  );
  const recordingSrcPrefix = `${options.recordingOrigin}${RECORDING_PATH_PREFIX}`;
  const session = createSession({
    settings: createSettingsStore(options.userDataDir),
    secrets: registeringSecrets(options.secrets),
    startDemo: async () => {
      const demo = await startDemo();
      registerSecret(demo.apiKey);
      return demo;
    },
    fetch: options.fetch,
    recordingResolver: options.recordingResolver,
    onRecordingsForgotten: () => void recordings.clear(),
    recordingSrcPrefix,
  });
  const { activeWorkspace } = session;
  const locate = (sid: string) => activeWorkspace.locateRecording(sid);
  const decoder = options.peaksDecoder;
  const workerDecoder =
    decoder === undefined || typeof decoder === 'function' ? null : createWorkerDecoder(decoder.workerPath);
  const peaks = createPeaksService({
    locate,
    cacheDir: options.peaksCacheDir === undefined ? join(options.userDataDir, 'peaks-cache') : options.peaksCacheDir,
    decode: workerDecoder ?? (typeof decoder === 'function' ? decoder : undefined),
    recordings,
  });
  const decodedDurationSeconds = (sid: string) => {
    const progress = peaks.progress(sid);
    return progress?.complete ? progress.peaks.durationSeconds : null;
  };
  // One review database in the settings folder, for every workspace (rows keyed by workspace id).
  const reviews = createReviewService({
    userDataDir: options.userDataDir,
    activeWorkspace: () => activeWorkspace.workspace(),
    redaction: createRedactionSettingsStore(options.userDataDir),
    choosePath: options.chooseSavePath,
  });
  const evidencePacks = createEvidencePackService({
    lookUpInteraction: (sid) => activeWorkspace.lookUpInteraction(sid),
    workspaceName: () => activeWorkspace.workspace()?.name ?? null,
    locateRecording: locate,
    decodedDurationSeconds,
    recordings,
    record: (workspaceId, sid) => reviews.get({ workspaceId, sid }),
    redaction: () => reviews.redactionSettings(),
    choosePath: options.chooseSavePath,
  });
  const handlers = createHandlers({
    reviews,
    evidencePacks,
    session,
    activeWorkspace,
    peaks,
    recordingSrc: (sid) => recordingSrcOf(recordingSrcPrefix, sid),
    exports: createExportsService({
      lookUpInteraction: (sid) => activeWorkspace.lookUpInteraction(sid),
      workspaceName: () => activeWorkspace.workspace()?.name ?? null,
      locateRecording: locate,
      decodedDurationSeconds,
      recordings,
      choosePath: options.chooseSavePath,
    }),
    recentCalls: createRecentCalls(options.userDataDir),
    onUnexpected: (method, err) => {
      log.error(`Unexpected failure in ${method}:`, err);
      options.onUnexpected?.(method, err);
    },
  });
  const recording = withAppCors(createRecordingHandler({ locate, recordings }), appOrigin);
  return {
    session,
    handlers,
    invoke: createIpcGuard({ handlers, devServerUrl: appOrigin, log, beforeCall: registerIpcSecrets }),
    recording,
    peaks,
    recordings,
    close: async () => {
      await session.close();
      await recordings.close();
      await workerDecoder?.close();
      await peaks.flush();
      reviews.close();
    },
  };
}

/** What a handler registered by {@link registerIpc} gets from Electron: the sending frame, if any. */
export interface IpcInvokeEventLike {
  senderFrame?: { url: string } | null;
}

/** The part of Electron's `ipcMain` {@link registerIpc} uses (stood in by the harness and the benchmark). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
}

/**
 * Registers one `ipcMain.handle` per contract method ({@link API_METHODS}, channel
 * {@link channelOf}), each going through the stack's guarded `invoke` with the sender frame's URL.
 * Electron's `ipcMain` in the app; a stand-in in the harness and the benchmark.
 */
export function registerIpc(ipcMain: IpcMainLike, stack: Pick<MainStack, 'invoke'>): void {
  for (const method of API_METHODS) {
    ipcMain.handle(channelOf(method), (event, ...args) => stack.invoke(method, event.senderFrame?.url, args));
  }
}
