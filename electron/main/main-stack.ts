/**
 * The one place main is built: settings, key storage (with log redaction), session, handler
 * table behind the IPC sender guard, recording protocol and peaks service, and the run's recording
 * cache they share (one download per recording). `index.ts` wires the result to Electron; the end-to-end harness, the benchmark
 * and the test rigs call the same function with their own seams (secret store, fetch, decoder,
 * cache folders), so what they exercise is what ships. Plain Node: no Electron import.
 */
import { join } from 'node:path';
import { API_METHODS, channelOf, type ApiMethod, type IpcResult } from '$shared/contract';
import { RECORDING_PATH_PREFIX, recordingSrcOf, seekableRecordingSrcOf } from '$shared/recording-src';
import type { Resolver } from './api/destination';
import { withAppCors } from './shell/app-protocol';
import { startDemoServer } from './demo/server';
import type { SavePathChooser } from './exports/save-dialog';
import { createEvidencePackService } from './exports/evidence-pack-service';
import { createExportsService } from './exports/service';
import { createHandlers, type HandlerTable, type IpcCaller, type UpdatesBridge } from './shell/handlers';
import type { SecretStore } from './keys/keychain';
import { registeredSecrets, registerIpcSecrets, registerSecret, registeringSecrets, type MainLog } from './shell/log';
import { createPeaksService, type PeaksService } from './peaks/service';
import { createWorkerDecoder, type PeaksDecoder } from './peaks/worker-decoder';
import { createRecentCalls } from './workspaces/recent-calls';
import { createReviewQueue } from './workspaces/review-queue';
import { createRedactionSettingsStore } from './reviews/redaction-settings';
import { createReviewService } from './reviews/review-service';
import { createRecordingCache, type RecordingCache } from './recordings/recording-cache';
import { createRecordingHandler } from './recordings/recording-protocol';
import type { Mp3Remuxer } from './recordings/mp3-remux';
import { createWorkerRemuxer } from './recordings/mp3-remux-worker-client';
import { createSeekableVariants, type SeekableVariants } from './recordings/seekable-variants';
import { createRecordingSessions, type RecordingSessions } from './recordings/recording-sessions';
import type { KeyStorage } from './keys/secret-storage';
import type { WeakKeyStorageConfirm } from './keys/weak-storage-dialog';
import { createSecretClipboard, type ClipboardLike } from './shell/secret-clipboard';
import { createIpcGuard } from './shell/security';
import { createSession, type DemoHandle, type Session } from './workspaces/session';
import { createSettingsStore } from './workspaces/settings';
import { createMainNetwork, type MainNetwork } from './network/main-network';
import {
  createNetworkService,
  createSignInBroker,
  keyStoreProxyCredentials,
  type ConfirmInMain,
  type OpenPathChooser,
  type SignInPush,
} from './network/network-service';
import type { ProxyEnvironment } from './network/proxy-choice';
import { createDiagnostics } from './network/diagnostics-service';
import { readUpdatePolicy, type UpdatePolicy } from './network/update-policy';
import { readFile } from 'node:fs/promises';
import type { ProxyCredentials } from './network/proxy-routes';

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
  /**
   * How an MP3 recording is rewrapped in MP4 for exact seeking (its seekable variant): a remuxer,
   * or the path of the built worker script (`mp3-remux-worker.js`) to remux in a worker thread as
   * Electron does. Default: in this thread.
   */
  mp3Remux?: Mp3Remuxer | { workerPath: string };
  /** Folder of the peaks disk cache; null for none. Default `<userDataDir>/peaks-cache`. */
  peaksCacheDir?: string | null;
  /** Folder under which the run's private recordings folder is made (mkdtemp); default the system temporary folder. */
  recordingCacheRoot?: string;
  /**
   * The save dialog of transcript exports and recording downloads: Electron's
   * `dialog.showSaveDialog` in the app, a chooser of temporary paths in tests. Without it, saving
   * is refused with words.
   */
  chooseSavePath?: SavePathChooser;
  /**
   * Main's confirmation before keys go to safeStorage's weak `basic_text` backend: Electron's
   * `dialog.showMessageBox` in the app, a stand-in answering in tests. Without it, that backend is
   * refused with words.
   */
  confirmWeakKeyStorage?: WeakKeyStorageConfirm;
  /**
   * The system clipboard secrets are copied to (`copySecret`) and cleared from after 30 s:
   * Electron's `clipboard` in the app, a stand-in in tests. Without it, copying a secret is refused.
   */
  clipboard?: ClipboardLike;
  /**
   * Chromium's proxy for a URL: Electron's `session.defaultSession.resolveProxy` (system settings,
   * PAC, WPAD). Absent in the harness and tests: the proxy environment variables decide.
   */
  resolveProxy?: (url: string) => Promise<string>;
  /** The environment read for HTTPS_PROXY, HTTP_PROXY and NO_PROXY; default `process.env`. */
  proxyEnv?: ProxyEnvironment;
  /** Where proxy sign-ins are kept; default the key store (`secrets`), one entry per proxy origin. */
  proxyCredentials?: ProxyCredentials;
  /**
   * Sends the proxy sign-in ask to the window (`webContents.send` on `PUSH_CHANNELS.proxySignIn`);
   * returns null when no window is open, and the ask is then cancelled. Read at each ask.
   */
  signInPush?: () => SignInPush | null;
  /** Main's open dialog, for importing a CA certificate (a chooser of test files in tests). */
  chooseOpenPath?: OpenPathChooser;
  /** Main's confirmation dialog (Electron's message box), for importing a CA certificate. */
  confirmInMain?: ConfirmInMain;
  /** The app's name and version for Diagnostics; default "Voice Review" and package.json's version unknown. */
  app?: { name: string; version: string };
  /** The main log's folder (Diagnostics, "Open logs folder"); default `<userDataDir>/logs`. */
  logsFolder?: string;
  /** Opens a folder in the file manager (Electron's `shell.openPath`: resolves with '' or the error). */
  openFolder?: (path: string) => Promise<string>;
  /** The update policy in force; default read from the environment and the policy file. */
  updatePolicy?: () => Promise<UpdatePolicy>;
  /** The updater's status in words for Diagnostics; default none. */
  updateStatus?: () => string | null;
  /** The running update controller, read at each call (index.ts starts it after the stack). */
  updates?: () => UpdatesBridge | null;
}

/** Everything main runs, built by {@link createMainStack}. */
export interface MainStack {
  session: Session;
  /** How every request leaves: proxy, sign-in, trust (the updater and Diagnostics use it too). */
  network: MainNetwork;
  /** The unguarded handler table (tests call it directly; IPC goes through `invoke`). */
  handlers: HandlerTable;
  /**
   * The guarded entry point of every IPC call: refuses a sender frame outside the app, registers
   * the call's secrets with the log, runs the method's handler. Never rejects.
   * @param senderUrl `event.senderFrame?.url`
   * @param caller the sending frame, for the methods that push to it (recording sessions)
   */
  invoke(
    method: ApiMethod,
    senderUrl: string | null | undefined,
    args: unknown[],
    caller?: IpcCaller,
  ): Promise<IpcResult<unknown>>;
  /** The `vr-recording:` protocol handler (Range forwarded, redirects and destinations checked, key only to the workspace's origin). */
  recording: (request: Request) => Promise<Response>;
  peaks: PeaksService;
  /** The recording sessions of the calls shown (pushed to the frame that opened each). */
  recordingSessions: RecordingSessions;
  /** The run's recordings: one download per recording, read by the player and the peaks decoder. */
  recordings: RecordingCache;
  /**
   * The recordings' seekable variants (an MP3 rewrapped in MP4 once downloaded): `onReady` tells
   * when interaction `sid`'s is ready and its URL, so the page can swap its media element's
   * source keeping its time; `readySrc(sid)` answers the same for a page that asks late.
   */
  seekable: Pick<SeekableVariants, 'onReady' | 'readySrc'>;
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
  const secretClipboard = options.clipboard ? createSecretClipboard(options.clipboard) : undefined;
  const secrets = registeringSecrets(options.secrets);
  const signIn = createSignInBroker(options.signInPush ?? (() => null));
  const network = createMainNetwork({
    settingsDir: options.userDataDir,
    resolveProxy: options.resolveProxy ?? null,
    env: options.proxyEnv ?? process.env,
    credentials: options.proxyCredentials ?? keyStoreProxyCredentials(secrets),
    prompt: signIn.prompt,
    registerSecret,
  });
  const session = createSession({
    settings: createSettingsStore(options.userDataDir),
    secrets,
    startDemo: async () => {
      const demo = await startDemo();
      registerSecret(demo.apiKey);
      return demo;
    },
    fetch: options.fetch,
    network,
    recordingResolver: options.recordingResolver,
    onRecordingsForgotten: () => void recordings.clear(),
    confirmWeakKeyStorage: options.confirmWeakKeyStorage,
  });
  const { activeWorkspace } = session;
  /** The recording URL of the last call whose recording was asked for (Diagnostics shows its host). */
  let lastRecordingUrl: string | null = null;
  const locate = async (sid: string) => {
    const location = await activeWorkspace.locateRecording(sid);
    if (location?.recordingUrl) lastRecordingUrl = location.recordingUrl;
    return location;
  };
  const decoder = options.peaksDecoder;
  const workerDecoder =
    decoder === undefined || typeof decoder === 'function' ? null : createWorkerDecoder(decoder.workerPath);
  const peaks = createPeaksService({
    locate,
    cacheDir: options.peaksCacheDir === undefined ? join(options.userDataDir, 'peaks-cache') : options.peaksCacheDir,
    decode: workerDecoder ?? (typeof decoder === 'function' ? decoder : undefined),
    recordings,
  });
  const decodedDurationSeconds = (sid: string) => peaks.decodedDurationSeconds(sid);
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
  const recordingSrc = (sid: string) => recordingSrcOf(recordingSrcPrefix, sid);
  const exports = createExportsService({
    lookUpInteraction: (sid) => activeWorkspace.lookUpInteraction(sid),
    workspaceName: () => activeWorkspace.workspace()?.name ?? null,
    locateRecording: locate,
    decodedDurationSeconds,
    recordings,
    choosePath: options.chooseSavePath,
  });
  const remux = options.mp3Remux;
  const seekable = createSeekableVariants({
    srcOf: (sid) => seekableRecordingSrcOf(recordingSrcPrefix, sid),
    remux: remux === undefined || typeof remux === 'function' ? remux : createWorkerRemuxer(remux.workerPath),
    log,
  });
  const recordingSessions = createRecordingSessions({
    peaks,
    recordingSrc,
    seekable,
    workspaceId: () => activeWorkspace.workspace()?.id ?? null,
    onRecordingProblem: (listener) => activeWorkspace.onRecordingProblem(listener),
    onDownloadProgress: (listener) => exports.onDownloadProgress(listener),
    downloadProgress: (sid) => exports.downloadProgress(sid),
  });
  const handlers = createHandlers({
    reviews,
    evidencePacks,
    session,
    activeWorkspace,
    peaks,
    recordingSessions,
    recordingSrc,
    exports,
    recentCalls: createRecentCalls(options.userDataDir),
    network: {
      ...createNetworkService({
        network,
        activeBaseUrl: () => activeWorkspace.workspace()?.baseUrl ?? null,
        chooseOpenPath: options.chooseOpenPath,
        confirm: options.confirmInMain,
      }),
      answer: (id, credentials) => signIn.answer(id, credentials),
    },
    diagnostics: createDiagnostics({
      network,
      session,
      app: options.app ?? { name: 'Voice Review', version: 'unknown' },
      logsFolder: options.logsFolder ?? join(options.userDataDir, 'logs'),
      updatePolicy:
        options.updatePolicy ??
        (() =>
          readUpdatePolicy({
            env: process.env,
            platform: process.platform,
            readFile: (path) => readFile(path, 'utf8'),
          })),
      updateStatus: options.updateStatus ?? (() => null),
      lastRecordingUrl: () => lastRecordingUrl,
      secrets: () => registeredSecrets(),
      openFolder: options.openFolder,
    }),
    updates: options.updates ?? (() => null),
    reviewQueue: createReviewQueue(options.userDataDir),
    onUnexpected: (method, err) => {
      log.error(`Unexpected failure in ${method}:`, err);
      options.onUnexpected?.(method, err);
    },
    secretClipboard,
  });
  const recording = withAppCors(createRecordingHandler({ locate, recordings, variants: seekable }), appOrigin);
  return {
    session,
    network,
    handlers,
    invoke: createIpcGuard({ handlers, devServerUrl: appOrigin, log, beforeCall: registerIpcSecrets }),
    recording,
    peaks,
    recordingSessions,
    recordings,
    seekable,
    close: async () => {
      recordingSessions.closeAll();
      await secretClipboard?.close();
      await session.close();
      await recordings.close();
      await workerDecoder?.close();
      await peaks.flush();
      await network.close();
      reviews.close();
    },
  };
}

/**
 * What a handler registered by {@link registerIpc} gets from Electron: the sending frame, if any
 * (Electron's `WebFrameMain`: its URL, its process and routing ids, and `send` to push to it alone).
 */
export interface IpcInvokeEventLike {
  senderFrame?: {
    url: string;
    processId?: number;
    routingId?: number;
    send?: (channel: string, ...args: unknown[]) => void;
  } | null;
}

/** The calling frame of `event` as the handlers see it, or undefined when it cannot be pushed to. */
function callerOf(event: IpcInvokeEventLike): IpcCaller | undefined {
  const frame = event.senderFrame;
  if (!frame || typeof frame.send !== 'function') return undefined;
  return {
    frameKey: `${frame.processId ?? 0}:${frame.routingId ?? 0}`,
    push: (channel, payload) => frame.send?.(channel, payload),
  };
}

/** The part of Electron's `ipcMain` {@link registerIpc} uses (stood in by the harness and the benchmark). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
}

/**
 * Registers one `ipcMain.handle` per contract method ({@link API_METHODS}, channel
 * {@link channelOf}), each going through the stack's guarded `invoke` with the sender frame's URL
 * and, for the methods that push to it, the frame itself.
 * Electron's `ipcMain` in the app; a stand-in in the harness and the benchmark.
 */
export function registerIpc(ipcMain: IpcMainLike, stack: Pick<MainStack, 'invoke'>): void {
  for (const method of API_METHODS) {
    ipcMain.handle(channelOf(method), (event, ...args) =>
      stack.invoke(method, event.senderFrame?.url, args, callerOf(event)),
    );
  }
}
