/**
 * Electron entry: wires the plain modules (session, key storage, handlers, app and recording
 * protocols, security rules, log, window state) into the Electron runtime. Everything with logic
 * lives in those modules and is tested under Node; this file is covered by the real-Electron
 * smoke test where Electron is installed.
 */
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  ipcMain,
  protocol,
  safeStorage,
  screen,
  session as electronSession,
  shell,
} from 'electron';
import log from 'electron-log/main';
import { API_METHODS, channelOf } from '../shared/contract';
import { createAppProtocolHandler, withAppCors } from './app-protocol';
import { startDemoServer } from './demo/server';
import { createHandlers } from './handlers';
import { createKeytarStore } from './keychain';
import { configureMainLog, registerIpcSecrets, registerSecret, registeringSecrets } from './log';
import { createPeaksService } from './peaks/service';
import { createPlaybackGate } from './peaks/playback-gate';
import { createWorkerDecoder } from './peaks/worker-decoder';
import { createRecordingHandler, RECORDING_SCHEME, recordingPath } from './recording-protocol';
import { createKeyStorage } from './secret-storage';
import {
  APP_INDEX_URL,
  APP_SCHEME,
  CONTENT_SECURITY_POLICY,
  createIpcGuard,
  isAppUrl,
  isExternalLinkAllowed,
  isPermissionAllowed,
  secureWebPreferences,
} from './security';
import { createSession } from './session';
import { createSettingsStore } from './settings';
import { chooseWindowPlacement, createWindowStateStore, MIN_WINDOW_SIZE, rememberWindowState } from './window-state';

// Every renderer sandboxed, whatever a window's own preferences say (Electron security checklist).
app.enableSandbox();

protocol.registerSchemesAsPrivileged([
  // The app's pages: a standard, secure origin (app://voice-review) with fetch, instead of file://.
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  // Recordings: streamed to <audio>, fetched cross-origin by the page (hence CORS).
  {
    scheme: RECORDING_SCHEME,
    privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true, corsEnabled: true },
  },
]);

/** Channel electron-log/main registers for renderer logging (electron-log 5, src/main/index.js). */
const ELECTRON_LOG_CHANNEL = '__ELECTRON_LOG__';

/** electron-vite's dev server, only when running unpackaged (`npm run dev`). */
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const userDataDir = app.getPath('userData');

// No log.initialize(): it would add electron-log's preload to every session; the renderer does
// not log to main, and main's log never goes to the renderer (configureMainLog turns IPC off).
configureMainLog(log, { dir: join(userDataDir, 'logs'), consoleLevel: app.isPackaged ? false : 'info' });
log.errorHandler.startCatching({ showDialog: false });
// electron-log/main listens for renderer log messages on its own channel; nothing of ours sends
// there, so close it: the only IPC a page reaches is the guarded contract below.
ipcMain.removeAllListeners(ELECTRON_LOG_CHANNEL);
ipcMain.removeHandler(ELECTRON_LOG_CHANNEL);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => log.error('Voice Review could not start:', err));
}

async function start(): Promise<void> {
  log.info(
    `Voice Review ${app.getVersion()} starting (Electron ${process.versions.electron}, ${app.isPackaged ? 'packaged' : 'development'}).`,
  );
  // Every key read from or written to storage is registered with the log's redaction first.
  const secrets = registeringSecrets(
    createKeyStorage({ keychain: createKeytarStore(), safeStorage, dir: userDataDir }),
  );
  const session = createSession({
    settings: createSettingsStore(userDataDir),
    secrets,
    startDemo: async () => {
      const demo = await startDemoServer({ resourcesDir: join(app.getAppPath(), 'resources') });
      registerSecret(demo.apiKey);
      return demo;
    },
  });
  const locate = (sid: string) => session.locateRecording(sid);
  // Peaks downloads wait until the player's first Range request is being streamed (or 1 s).
  const playbackGate = createPlaybackGate();
  const peaks = createPeaksService({
    locate,
    cacheDir: join(userDataDir, 'peaks-cache'),
    decode: createWorkerDecoder(join(__dirname, 'peaks-worker.js')),
    beforeDownload: (sid) => playbackGate.wait(sid),
  });
  const handlers = createHandlers({
    session,
    peaks,
    recordingSrc: (sid) => `${RECORDING_SCHEME}://local${recordingPath(sid)}`,
    onUnexpected: (method, err) => log.error(`Unexpected failure in ${method}:`, err),
  });

  const invoke = createIpcGuard({ handlers, devServerUrl, log, beforeCall: registerIpcSecrets });
  for (const method of API_METHODS) {
    ipcMain.handle(channelOf(method), (event, ...args: unknown[]) => invoke(method, event.senderFrame?.url, args));
  }

  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir: join(__dirname, '../renderer') }));
  protocol.handle(
    RECORDING_SCHEME,
    withAppCors(createRecordingHandler({ locate, onStreaming: (sid) => playbackGate.opened(sid) }), devServerUrl),
  );

  const ses = electronSession.defaultSession;
  ses.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const allowed = isPermissionAllowed(permission, details.requestingUrl, devServerUrl);
    if (!allowed) log.info(`Denied the permission "${permission}".`);
    callback(allowed);
  });
  ses.setPermissionCheckHandler((_wc, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, devServerUrl),
  );
  // The app protocol sets the CSP itself; this covers the dev server's pages (and any other app page).
  ses.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url, devServerUrl)) {
      callback({});
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    );
    headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    callback({ responseHeaders: headers });
  });

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => {
      if (!isAppUrl(event.url, devServerUrl)) {
        event.preventDefault();
        log.warn('Blocked a navigation away from the app.');
      }
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isExternalLinkAllowed(url)) void shell.openExternal(url);
      else log.warn('Refused to open a link that is not http(s).');
      return { action: 'deny' };
    });
  });

  const windowStates = createWindowStateStore(userDataDir);
  let flushWindowState: () => Promise<void> = async () => undefined;

  async function createWindow(): Promise<void> {
    const placement = chooseWindowPlacement(await windowStates.load(), screen.getAllDisplays());
    const win = new BrowserWindow({
      width: placement.width,
      height: placement.height,
      ...(placement.center ? { center: true } : { x: placement.x, y: placement.y }),
      minWidth: MIN_WINDOW_SIZE.width,
      minHeight: MIN_WINDOW_SIZE.height,
      title: 'Voice Review',
      show: false,
      webPreferences: secureWebPreferences(join(__dirname, '../preload/index.js')),
    });
    flushWindowState = rememberWindowState(win, windowStates, (err) =>
      log.warn('Could not save the window position:', err),
    ).flush;
    win.once('ready-to-show', () => {
      if (placement.maximized) win.maximize();
      win.show();
    });
    await win.loadURL(devServerUrl ?? APP_INDEX_URL);
  }

  const openWindow = () => createWindow().catch((err: unknown) => log.error('Could not open the window:', err));
  await openWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void openWindow();
  });
  app.on('window-all-closed', () => {
    void Promise.allSettled([session.close(), flushWindowState()]).finally(() => {
      if (process.platform !== 'darwin') app.quit();
    });
  });
}
