/**
 * Electron entry: builds main with createMainStack (main-stack.ts) and wires it to the Electron
 * runtime: IPC, the app and recording protocols, permissions, navigation, windows, the log, the
 * window state, the application menu, and `voice-review://` links (single instance: a link opened
 * while the app runs reaches the running window). Everything with logic lives in plain modules tested under Node; this file is run by
 * test/e2e/main-bundle.test.ts (built, with a stand-in for Electron) and by the real-Electron smoke
 * test where Electron is installed.
 */
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeTheme,
  protocol,
  safeStorage,
  screen,
  session as electronSession,
  shell,
  type WebContents,
} from 'electron';
import log from 'electron-log/main';
import { autoUpdater } from 'electron-updater';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PUSH_CHANNELS, type MenuCommand, type ProxySignInPush } from '$shared/contract';
import { applicationMenuTemplate } from './shell/app-menu';
import { createAppProtocolHandler } from './shell/app-protocol';
import { electronSaveChooser } from './exports/save-dialog';
import { createLinkRouter, findLinkArgument, registerLinkScheme } from './shell/deep-links';
import { createKeytarStore } from './keys/keychain';
import { configureMainLog } from './shell/log';
import { createMainStack, registerIpc } from './main-stack';
import { RECORDING_SCHEME } from './recordings/recording-protocol';
import { createKeyStorage } from './keys/secret-storage';
import { electronWeakStorageConfirm } from './keys/weak-storage-dialog';
import {
  APP_INDEX_URL,
  APP_SCHEME,
  CONTENT_SECURITY_POLICY,
  isAppUrl,
  isPermissionAllowed,
  refuseWindowOpen,
  secureWebPreferences,
} from './shell/security';
import { APP_WINDOW_PLACEMENT, keepOnScreen } from './shell/app-window';
import { describeUpdate, startAppUpdates } from './network/app-updates';
import type { UpdateController } from './network/update-controller';
import { queryRegistryPolicy, readUpdatePolicy } from './network/update-policy';

// Every renderer sandboxed, whatever a window's own preferences say (Electron security checklist).
app.enableSandbox();

protocol.registerSchemesAsPrivileged([
  // The app's pages: a standard, secure origin (app://voice-review) with fetch, instead of file://.
  // V8's code cache, as Chromium keeps it for http(s) pages: the app's scripts are not compiled
  // afresh at every start and on the first "Show call" of each session.
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
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

/** Opens the window again when a link arrives and none is open (macOS keeps running without one). */
let reopenWindow: (() => void) | null = null;
const links = createLinkRouter({
  log,
  wantWindow: () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) reopenWindow?.();
  },
});

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  if (!registerLinkScheme(app, process)) {
    log.warn('Could not register Voice Review as the handler of voice-review:// links.');
  }
  // macOS hands links over by event, possibly before ready (the app started by a click on a link).
  app.on('open-url', (event, url) => {
    event.preventDefault();
    links.receive(url, 'open-url');
  });
  // Windows and Linux start the app with the link as an argument; a second start hands its
  // arguments to this instance and quits.
  const firstLink = findLinkArgument(process.argv);
  if (firstLink !== null) links.receive(firstLink, 'command line');
  app.on('second-instance', (_event, argv) => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) revealWindow(win);
    const link = findLinkArgument(argv);
    if (link !== null) links.receive(link, 'second-instance');
  });
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => log.error('Voice Review could not start:', err));
}

/** The update controller once started (see startUpdates). */
let updates: UpdateController | null = null;

/** The update policy: the environment, the machine-wide policy.json, and on Windows the registry. */
function updatePolicy() {
  return readUpdatePolicy({
    env: process.env,
    platform: process.platform,
    readFile: (path) => readFile(path, 'utf8'),
    ...(process.platform === 'win32'
      ? { readRegistry: () => queryRegistryPolicy(promisify(execFile), process.env) }
      : {}),
  });
}

/**
 * Starts updates when the build has a feed and no policy turns them off; the state goes to the
 * window as it changes.
 */
async function startUpdates(): Promise<void> {
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  const { controller, started } = await startAppUpdates({
    feedFile: app.isPackaged && typeof resources === 'string' ? join(resources, 'app-update.yml') : null,
    policy: updatePolicy,
    // electron-updater uses Electron's network stack: the session's proxy (system, PAC, WPAD).
    loadUpdater: () => Promise.resolve(autoUpdater),
    onChange: (model) => BrowserWindow.getAllWindows()[0]?.webContents.send(PUSH_CHANNELS.updateState, model.state),
  });
  updates = controller;
  log.info(
    started
      ? 'Updates: checking the feed.'
      : `Updates: not started (${describeUpdate(controller.model()) ?? 'turned off by policy'}).`,
  );
}

async function start(): Promise<void> {
  log.info(
    `Voice Review ${app.getVersion()} starting (Electron ${process.versions.electron}, ${app.isPackaged ? 'packaged' : 'development'}).`,
  );
  const stack = createMainStack({
    userDataDir,
    secrets: createKeyStorage({ keychain: createKeytarStore(), safeStorage, dir: userDataDir }),
    resourcesDir: join(app.getAppPath(), 'resources'),
    recordingOrigin: `${RECORDING_SCHEME}://local`,
    appOrigin: devServerUrl,
    log,
    peaksDecoder: { workerPath: join(__dirname, 'peaks-worker.js') },
    mp3Remux: { workerPath: join(__dirname, 'mp3-remux-worker.js') },
    // A save is always asked for by the window (over IPC), so there is one to attach the dialog to.
    chooseSavePath: electronSaveChooser(dialog, appWindow, app.getPath('downloads')),
    confirmWeakKeyStorage: electronWeakStorageConfirm<BrowserWindow>(dialog, appWindow),
    clipboard,
    app: { name: 'Voice Review', version: app.getVersion() },
    updatePolicy,
    updateStatus: () => describeUpdate(updates?.model() ?? null),
    updates: () => {
      const running = updates;
      if (!running) return null;
      return {
        state: () => running.model().state,
        requestRestart: () => running.requestRestart(),
        setPlaying: (playing) => running.setPlaying(playing),
      };
    },
    logsFolder: join(userDataDir, 'logs'),
    openFolder: (path) => shell.openPath(path),
    // Chromium's proxy for each URL main asks for: system settings, PAC and WPAD.
    resolveProxy: (url) => electronSession.defaultSession.resolveProxy(url),
    signInPush: () => {
      const win = BrowserWindow.getAllWindows()[0];
      if (!win) return null;
      return (push: ProxySignInPush) => {
        win.webContents.send(PUSH_CHANNELS.proxySignIn, push);
        return true;
      };
    },
    chooseOpenPath: async ({ title, filters }) => {
      const result = await dialog.showOpenDialog(appWindow(), { title, filters, properties: ['openFile'] });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    confirmInMain: async ({ title, message, detail, confirmLabel }) => {
      const result = await dialog.showMessageBox(appWindow(), {
        type: 'question',
        title,
        message,
        detail,
        buttons: ['Cancel', confirmLabel],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      });
      return result.response === 1;
    },
  });
  registerIpc(ipcMain, stack);
  setApplicationMenu();
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir: join(__dirname, '../renderer') }));
  protocol.handle(RECORDING_SCHEME, stack.recording);
  lockDownDefaultSession();
  app.on('web-contents-created', (_event, contents) => lockDownWebContents(contents));

  const openWindow = () => createWindow().catch((err: unknown) => log.error('Could not open the window:', err));
  reopenWindow = () => void openWindow();
  await openWindow();
  void startUpdates().catch((err: unknown) => log.warn('Updates could not start:', err));
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void openWindow();
  });
  app.on('window-all-closed', () => {
    void stack.close().finally(() => {
      if (process.platform !== 'darwin') app.quit();
    });
  });
}

/** The native menu (app-menu.ts); its page commands go to the first window. */
function setApplicationMenu(): void {
  const send = (command: MenuCommand) => {
    BrowserWindow.getAllWindows()[0]?.webContents.send(PUSH_CHANNELS.menuCommand, command);
  };
  app.setAboutPanelOptions({ applicationName: 'Voice Review', applicationVersion: app.getVersion() });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(applicationMenuTemplate({ platform: process.platform, isPackaged: app.isPackaged }, send)),
  );
}

/** The focused window, else the app's one window (the save dialog's parent). */
function appWindow() {
  const win = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  if (!win) throw new Error('No window to attach the save dialog to.');
  return win;
}

/** Brings `win` to the front: restored when minimized, then focused. */
function revealWindow(win: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'focus'>): void {
  if (win.isMinimized()) win.restore();
  win.focus();
}

/** Permissions denied (but the Copy buttons' clipboard write), and the CSP on every app page. */
function lockDownDefaultSession(): void {
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
}

/** No navigation away from the app, no webviews, no new windows, nothing handed to the browser. */
function lockDownWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url, devServerUrl)) {
      event.preventDefault();
      log.warn('Blocked a navigation away from the app.');
    }
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => refuseWindowOpen(url, log));
}

/** Opens the app window where it was last (Electron remembers it; else centred), hardened, on the app's page. */
async function createWindow(): Promise<void> {
  const win = new BrowserWindow({
    ...APP_WINDOW_PLACEMENT,
    title: 'Voice Review',
    // The page's background in the system's theme (app.css), so the window does not flash white.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#0f172a' : '#f8fafc',
    show: false,
    webPreferences: secureWebPreferences(join(__dirname, '../preload/index.js'), { devTools: !app.isPackaged }),
  });
  win.once('ready-to-show', () => {
    if (keepOnScreen(win, screen.getAllDisplays(), screen.getPrimaryDisplay())) {
      log.info('The window was outside every display; it opens centred.');
    }
    win.show();
  });
  win.on('closed', () => links.detach());
  await win.loadURL(devServerUrl ?? APP_INDEX_URL);
  // The page is loaded and listens: a link kept since start-up (or since the window closed) goes now.
  links.attach({ send: (channel, payload) => win.webContents.send(channel, payload), reveal: () => revealWindow(win) });
}
