/**
 * Electron entry: wires the plain modules (session, handlers, recording protocol, security
 * rules) into the Electron runtime. Everything with logic lives in those modules and is tested
 * under Node; this file is covered by the real-Electron smoke test where Electron is installed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, ipcMain, protocol, session as electronSession, shell } from 'electron';
import log from 'electron-log/main';
import { API_METHODS, channelOf } from '../shared/contract';
import { startDemoServer } from './demo/server';
import { createPeaksService } from './peaks/service';
import { createHandlers } from './handlers';
import { createKeytarStore } from './keychain';
import { createRecordingHandler, RECORDING_SCHEME, recordingPath } from './recording-protocol';
import { CONTENT_SECURITY_POLICY, isAppUrl, isExternalLinkAllowed, secureWebPreferences } from './security';
import { createSession } from './session';
import { createSettingsStore } from './settings';

protocol.registerSchemesAsPrivileged([
  { scheme: RECORDING_SCHEME, privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true } },
]);

const rendererIndex = join(__dirname, '../renderer/index.html');
const rendererFileUrl = pathToFileURL(rendererIndex).href;
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;

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
  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  log.initialize();
  const session = createSession({
    settings: createSettingsStore(app.getPath('userData')),
    secrets: createKeytarStore(),
    startDemo: () => startDemoServer({ resourcesDir: join(app.getAppPath(), 'resources') }),
  });
  const peaks = createPeaksService({
    locate: (sid) => session.locateRecording(sid),
    cacheDir: join(app.getPath('userData'), 'peaks-cache'),
  });
  const handlers = createHandlers({
    session,
    peaks,
    recordingSrc: (sid) => `${RECORDING_SCHEME}://local${recordingPath(sid)}`,
    onUnexpected: (method, err) => log.error(`Unexpected failure in ${method}:`, err instanceof Error ? err.message : String(err)),
  });

  for (const method of API_METHODS) {
    ipcMain.handle(channelOf(method), (event, ...args: unknown[]) => {
      const senderUrl = event.senderFrame?.url ?? '';
      if (!isAppUrl(senderUrl, rendererFileUrl, devServerUrl)) {
        log.warn(`Refused IPC ${method} from a frame outside the app.`);
        return { ok: false, error: { kind: 'bad_input', message: 'Refused: the request did not come from Voice Review.' } };
      }
      return handlers[method](args);
    });
  }

  protocol.handle(RECORDING_SCHEME, createRecordingHandler({ locate: (sid) => session.locateRecording(sid) }));

  const ses = electronSession.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    if (isAppUrl(details.url, rendererFileUrl, devServerUrl)) headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    callback({ responseHeaders: headers });
  });

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, rendererFileUrl, devServerUrl)) event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      if (isExternalLinkAllowed(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });

  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('window-all-closed', () => {
    void session.close().finally(() => {
      if (process.platform !== 'darwin') app.quit();
    });
  });
}

function createWindow(): void {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    title: 'Voice Review',
    show: false,
    webPreferences: secureWebPreferences(join(__dirname, '../preload/index.js')),
  });
  win.once('ready-to-show', () => win.show());
  if (devServerUrl) void win.loadURL(devServerUrl);
  else void win.loadFile(rendererIndex);
}
