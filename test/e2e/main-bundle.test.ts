/**
 * The built main-process bundle (out/main/index.js as electron-vite emits it), run under Node with
 * a stand-in for the `electron` module that records what the bundle asks of Electron. The Electron
 * binary cannot be installed here, so this is how the wiring of electron/main/index.ts is checked:
 * schemes registered privileged before ready, sandbox forced, every contract channel guarded by
 * the sender check (the same channels the end-to-end harness registers), the app served over
 * app:// with its CSP, permissions denied, navigation, webviews and pop-ups locked, the window
 * hardened (secureWebPreferences), its place remembered by Electron and brought back on screen, the log in the user-data folder,
 * the voice-review scheme registered with one instance (links from a second start and from
 * macOS's open-url read by main and pushed to the window), and the native menu.
 * (test/e2e/electron-smoke.test.ts runs the same bundle in real Electron where it is installed.)
 */
import { EventEmitter } from 'node:events';
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { secureWebPreferences } from '../../electron/main/shell/security';
import { API_METHODS, channelOf, PUSH_CHANNELS, type OpenLinkPush } from '../../electron/shared/contract';
import { ROOT, startHarnessMain } from './harness';

interface FakeWindow extends EventEmitter {
  options: { webPreferences: Record<string, unknown>; [key: string]: unknown };
  loadedUrl?: string;
  /** What main pushed to the page (`webContents.send`), in order. */
  sent: Array<[string, unknown]>;
  focused: number;
  bounds: { x: number; y: number; width: number; height: number };
  shown: boolean;
}
type MenuTemplate = Array<{ label?: string; role?: string; id?: string; click?: () => void; submenu?: MenuTemplate }>;
type Handler = (...args: unknown[]) => unknown;

const record = {
  sandboxEnabledBeforeReady: false,
  privilegedSchemes: [] as Array<{ scheme: string; privileges: Record<string, boolean> }>,
  protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
  ipcHandlers: new Map<string, Handler>(),
  ipcListeners: new Map<string, Handler[]>(),
  permissionRequest: null as null | Handler,
  permissionCheck: null as null | Handler,
  headersReceived: null as null | Handler,
  windows: [] as FakeWindow[],
  opened: [] as string[],
  singleInstanceLockAsked: false,
  protocolClients: [] as unknown[][],
  menu: null as MenuTemplate | null,
  /** URLs main asked Chromium's proxy resolution for (`session.resolveProxy`). */
  proxyAsked: [] as string[],
};
let ready = false;
let outDir: string;
let userData: string;
const app = Object.assign(new EventEmitter(), {
  isPackaged: true,
  name: 'Voice Review',
  enableSandbox: () => {
    record.sandboxEnabledBeforeReady = !ready;
  },
  getPath: (name: string) => (name === 'userData' ? userData : join(userData, name)),
  getAppPath: () => ROOT,
  getVersion: () => '0.0.0-test',
  getName: () => 'Voice Review',
  isReady: () => ready,
  requestSingleInstanceLock: () => {
    record.singleInstanceLockAsked = true;
    return true;
  },
  setAsDefaultProtocolClient: (...args: unknown[]) => {
    record.protocolClients.push(args);
    return true;
  },
  setAboutPanelOptions: () => undefined,
  whenReady: () =>
    new Promise<void>((resolve) => {
      setImmediate(() => {
        ready = true;
        resolve();
      });
    }),
  quit: () => undefined,
});
class BrowserWindow extends EventEmitter {
  static getAllWindows = () => record.windows;
  loadedUrl?: string;
  sent: Array<[string, unknown]> = [];
  focused = 0;
  /** As Electron restored it: on a monitor right of the only display, which is gone. */
  bounds = { x: 2200, y: 40, width: 1111, height: 777 };
  shown = false;
  webContents = { send: (channel: string, payload: unknown) => this.sent.push([channel, payload]) };
  constructor(public options: FakeWindow['options']) {
    super();
    record.windows.push(this);
  }
  loadURL(url: string) {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  loadFile(path: string) {
    this.loadedUrl = `file://${path}`;
    return Promise.resolve();
  }
  getBounds() {
    return this.bounds;
  }
  setBounds(bounds: FakeWindow['bounds']) {
    this.bounds = bounds;
  }
  isMaximized() {
    return false;
  }
  isFullScreen() {
    return false;
  }
  isMinimized() {
    return false;
  }
  maximize() {}
  show() {
    this.shown = true;
  }
  focus() {
    this.focused += 1;
  }
  restore() {}
}
const fakeElectron = {
  app,
  BrowserWindow,
  Menu: {
    buildFromTemplate: (template: MenuTemplate) => template,
    setApplicationMenu: (menu: MenuTemplate) => (record.menu = menu),
  },
  nativeTheme: { shouldUseDarkColors: false },
  ipcMain: {
    handle: (channel: string, fn: Handler) => record.ipcHandlers.set(channel, fn),
    removeHandler: (channel: string) => record.ipcHandlers.delete(channel),
    on: (channel: string, fn: Handler) =>
      record.ipcListeners.set(channel, [...(record.ipcListeners.get(channel) ?? []), fn]),
    removeAllListeners: (channel: string) => record.ipcListeners.delete(channel),
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes: typeof record.privilegedSchemes) => {
      if (ready) throw new Error('registerSchemesAsPrivileged after ready');
      record.privilegedSchemes.push(...schemes);
    },
    handle: (scheme: string, fn: (request: Request) => Promise<Response>) => record.protocolHandlers.set(scheme, fn),
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (fn: Handler) => (record.permissionRequest = fn),
      setPermissionCheckHandler: (fn: Handler) => (record.permissionCheck = fn),
      webRequest: { onHeadersReceived: (fn: Handler) => (record.headersReceived = fn) },
      setPreloads: () => undefined,
      resolveProxy: (url: string) => {
        record.proxyAsked.push(url);
        return Promise.resolve('DIRECT');
      },
    },
  },
  safeStorage: {
    isEncryptionAvailable: () => true,
    encryptString: (text: string) => Buffer.from(text, 'utf8').reverse(),
    decryptString: (data: Buffer) => Buffer.from(data).reverse().toString('utf8'),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  },
  screen: {
    getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
  },
  shell: {
    openExternal: (url: string) => {
      record.opened.push(url);
      return Promise.resolve();
    },
  },
  webContents: { getAllWebContents: () => [] },
};

/** electron-updater's `autoUpdater` stood in: records the checks main asks for. */
const fakeUpdater = Object.assign(new EventEmitter(), {
  checks: 0,
  autoDownload: false,
  autoInstallOnAppQuit: false,
  checkForUpdates() {
    this.checks += 1;
    return Promise.resolve(null);
  },
  quitAndInstall: () => undefined,
});
let resourcesDir: string;

const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = moduleWithLoad._load;
let stopCatching: () => void = () => undefined;

beforeAll(() => {
  // Inside the repository (so the bundle resolves node_modules), in a git-ignored out-* folder.
  outDir = mkdtempSync(join(ROOT, 'out-bundle-test-'));
  userData = mkdtempSync(join(tmpdir(), 'vr-main-userdata-'));
  execSync(`npx electron-vite build --outDir ${JSON.stringify(outDir)}`, { cwd: ROOT, stdio: 'pipe' });
  // A packaged build with an update feed (electron-builder writes app-update.yml from `publish`).
  resourcesDir = mkdtempSync(join(tmpdir(), 'vr-main-resources-'));
  writeFileSync(join(resourcesDir, 'app-update.yml'), 'provider: generic\nurl: https://updates.invalid/\n');
  (process as { resourcesPath?: string }).resourcesPath = resourcesDir;
  delete process.env.VOICE_REVIEW_DISABLE_UPDATES;
  moduleWithLoad._load = function load(request: string, ...rest: unknown[]) {
    if (request === 'electron') return fakeElectron;
    if (request === 'electron-updater') return { autoUpdater: fakeUpdater };
    return originalLoad.call(this, request, ...rest);
  };
  const requireFromRoot = createRequire(join(ROOT, 'package.json'));
  requireFromRoot(join(outDir, 'main/index.js'));
  // macOS hands over the link that started the app before ready: it must wait for the window.
  app.emit('open-url', { preventDefault: () => undefined }, `voice-review://interactions/${SID}?t=5`);
  // The bundle's electron-log instance (same module cache): stop its global error catching afterwards.
  const log = requireFromRoot('electron-log/main') as { errorHandler: { stopCatching(): void } };
  stopCatching = () => log.errorHandler.stopCatching();
}, 180_000);

afterAll(() => {
  stopCatching();
  moduleWithLoad._load = originalLoad;
  rmSync(outDir, { recursive: true, force: true });
  rmSync(userData, { recursive: true, force: true });
  rmSync(resourcesDir, { recursive: true, force: true });
  delete (process as { resourcesPath?: string }).resourcesPath;
});

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

const window = async () => {
  await vi.waitFor(() => expect(record.windows[0]?.loadedUrl).toBeDefined(), { timeout: 10_000 });
  return record.windows[0]!;
};

describe('the built main process', () => {
  it("asks Chromium (the session) for the proxy of the API's requests", async () => {
    await window();
    // A service nothing answers for: the request fails, but only after the route was chosen.
    const connect = record.ipcHandlers.get(channelOf('connect'))!;
    const result = (await connect(
      { senderFrame: { url: 'app://voice-review/index.html' } },
      { name: 'Desk', baseUrl: 'https://127.0.0.1:9/v1', apiKey: 'desk-key-123' },
    )) as { ok: boolean };
    expect(result.ok).toBe(false);
    expect(record.proxyAsked).toContain('https://127.0.0.1:9/v1/phones');
  });

  it('starts the updater when the build has a feed and no policy turns it off, and tells the page its state', async () => {
    await window();
    await vi.waitFor(() => expect(fakeUpdater.checks).toBe(1), { timeout: 10_000 });
    expect(fakeUpdater.autoDownload).toBe(true);
    const getUpdateState = record.ipcHandlers.get(channelOf('getUpdateState'))!;
    const state = (await getUpdateState({ senderFrame: { url: 'app://voice-review/index.html' } })) as {
      ok: boolean;
      value: { status: string } | null;
    };
    expect(state).toEqual({ ok: true, value: { status: 'idle', lastCheckedAtMs: null } });
    fakeUpdater.emit('update-available', { version: '9.9.9', releaseNotes: 'Faster waveforms.' });
    fakeUpdater.emit('download-progress', { percent: 40, bytesPerSecond: 1000, transferred: 40, total: 100 });
    const win = await window();
    expect(win.sent.filter(([channel]) => channel === PUSH_CHANNELS.updateState).at(-1)?.[1]).toMatchObject({
      status: 'downloading',
      release: { version: '9.9.9', notes: 'Faster waveforms.' },
      progress: { percent: 40 },
    });
  });

  it('forces the sandbox and registers the app and recording schemes before ready', () => {
    expect(record.sandboxEnabledBeforeReady).toBe(true);
    const app = record.privilegedSchemes.find((s) => s.scheme === 'app');
    expect(app?.privileges).toMatchObject({ standard: true, secure: true, supportFetchAPI: true, codeCache: true });
    expect(app?.privileges.bypassCSP).toBeFalsy();
    const recording = record.privilegedSchemes.find((s) => s.scheme === 'vr-recording');
    expect(recording?.privileges).toMatchObject({ standard: true, secure: true, stream: true, corsEnabled: true });
    expect(recording?.privileges.bypassCSP).toBeFalsy();
  });

  it('opens one hardened window on app://voice-review/index.html', async () => {
    const win = await window();
    expect(win.loadedUrl).toBe('app://voice-review/index.html');
    expect(win.loadedUrl).not.toMatch(/^file:/);
    // Exactly the hardened set security.ts defines, nothing added or loosened.
    expect(win.options.webPreferences).toEqual(
      secureWebPreferences(join(outDir, 'preload/index.js'), { devTools: false }),
    );
    expect(win.options.webPreferences).toMatchObject({
      // The stand-in app is packaged: DevTools must be off.
      devTools: false,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(String(win.options.webPreferences.preload)).toBe(join(outDir, 'preload/index.js'));
    expect(existsSync(String(win.options.webPreferences.preload))).toBe(true);
    expect(win.options).toMatchObject({ width: 1280, height: 800, center: true });
    // Electron remembers the window's place under this name (windowStatePersistence).
    expect(win.options).toMatchObject({ name: 'voice-review-main', windowStatePersistence: true });
  });

  it('serves the built renderer over app:// with the CSP, and every asset the page loads', async () => {
    await window();
    const serve = record.protocolHandlers.get('app')!;
    const page = await serve(new Request('app://voice-review/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((u) => !u.startsWith('data:'));
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const res = await serve(new Request(new URL(asset, 'app://voice-review/index.html').href));
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type'), asset).toMatch(/^(text\/javascript|text\/css)/);
    }
    expect((await serve(new Request('app://voice-review/..%2f..%2fpackage.json'))).status).toBe(403);
    expect(record.protocolHandlers.has('vr-recording')).toBe(true);
  });

  it('guards every contract channel with the sender check, and leaves no other IPC open', async () => {
    await window();
    const channels = [...record.ipcHandlers.keys()].sort();
    expect(channels).toEqual(API_METHODS.map(channelOf).sort());
    expect(record.ipcListeners.size).toBe(0);
    const getSession = record.ipcHandlers.get(channelOf('getSession'))!;
    const fromApp = (await getSession({ senderFrame: { url: 'app://voice-review/index.html' } })) as { ok: boolean };
    expect(fromApp.ok).toBe(true);
    for (const senderFrame of [{ url: 'https://evil.example/' }, { url: 'file:///tmp/x.html' }, null]) {
      const refused = (await getSession({ senderFrame })) as { ok: boolean; error: { message: string } };
      expect(refused.ok).toBe(false);
      expect(refused.error.message).toContain('Refused');
    }
    // A frame without a URL (destroyed) is refused too, and the arguments never reach the handler.
    const connect = record.ipcHandlers.get(channelOf('connect'))!;
    const refusedConnect = (await connect({ senderFrame: { url: 'https://evil.example/' } }, { name: 'x' })) as {
      ok: boolean;
    };
    expect(refusedConnect.ok).toBe(false);
    // The refusals are in the log file in the user-data folder.
    const logText = readFileSync(join(userData, 'logs', 'main.log'), 'utf8');
    expect(logText).toContain('Refused IPC call getSession from https://evil.example');
  });

  it('registers the same IPC channels as the end-to-end harness and the benchmark (registerIpc on createMainStack)', async () => {
    await window();
    const harness = await startHarnessMain();
    try {
      const app = [...record.ipcHandlers.keys()].sort();
      expect([...harness.ipcMain.handlers.keys()].sort()).toEqual(app);
      expect(app).toEqual(API_METHODS.map(channelOf).sort());
    } finally {
      await harness.close();
    }
  });

  it('denies permissions and locks navigation and pop-ups of every web contents', async () => {
    await window();
    const answers: boolean[] = [];
    record.permissionRequest!({}, 'media', (granted: boolean) => answers.push(granted), {
      requestingUrl: 'app://voice-review/index.html',
    });
    record.permissionRequest!({}, 'clipboard-sanitized-write', (granted: boolean) => answers.push(granted), {
      requestingUrl: 'app://voice-review/index.html',
    });
    expect(answers).toEqual([false, true]);
    expect(record.permissionCheck!({}, 'notifications', 'app://voice-review', {})).toBe(false);
    expect(record.permissionCheck!({}, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false);

    const contents = Object.assign(new EventEmitter(), {
      openHandler: null as null | ((details: { url: string }) => { action: string }),
      setWindowOpenHandler(fn: (details: { url: string }) => { action: string }) {
        this.openHandler = fn;
      },
    });
    app.emit('web-contents-created', {}, contents);
    const navigate = (url: string) => {
      const event = {
        url,
        prevented: false,
        preventDefault() {
          this.prevented = true;
        },
      };
      contents.emit('will-navigate', event, url);
      return event.prevented;
    };
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('app://voice-review.evil/index.html')).toBe(true);
    expect(navigate('app://voice-review/index.html#/phones')).toBe(false);
    const webview = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.emit('will-attach-webview', webview);
    expect(webview.prevented).toBe(true);
    expect(contents.openHandler!({ url: 'https://docs.example.com/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    // The app has no external links of its own: nothing goes to the system browser either.
    expect(record.opened).toEqual([]);
  });

  it('sets the CSP on the app pages it did not serve itself (dev server) and leaves other responses alone', async () => {
    await window();
    const answer = (url: string) => {
      let out: unknown;
      record.headersReceived!(
        { url, responseHeaders: { 'content-security-policy': ['default-src *'] } },
        (r: unknown) => (out = r),
      );
      return out as { responseHeaders?: Record<string, string[]> };
    };
    const page = answer('app://voice-review/index.html').responseHeaders!;
    expect(Object.keys(page).filter((k) => k.toLowerCase() === 'content-security-policy')).toEqual([
      'Content-Security-Policy',
    ]);
    expect(page['Content-Security-Policy']![0]).toContain("default-src 'none'");
    expect(answer('https://api.example.com/v1/phones')).toEqual({});
  });

  it('shows a window restored outside every display centred on the primary one', async () => {
    const win = await window();
    win.emit('ready-to-show');
    expect(win.shown).toBe(true);
    expect(win.bounds).toEqual({ x: 320, y: 140, width: 1280, height: 800 });
  });
});

describe('links and the menu in the built main process', () => {
  const openLinkPushes = (win: FakeWindow) => win.sent.filter(([channel]) => channel === PUSH_CHANNELS.openLink);

  it('asks for the single-instance lock and registers the voice-review scheme', () => {
    expect(record.singleInstanceLockAsked).toBe(true);
    // Not run as `electron .` (process.defaultApp unset): the scheme alone.
    expect(record.protocolClients).toEqual([['voice-review']]);
  });

  it('delivers a link received before the window existed once its page is loaded', async () => {
    const win = await window();
    await vi.waitFor(() => expect(openLinkPushes(win).length).toBeGreaterThan(0));
    const expected: OpenLinkPush = { ok: true, link: { sid: SID, atSeconds: 5, workspaceName: null } };
    expect(openLinkPushes(win)[0]).toEqual([PUSH_CHANNELS.openLink, expected]);
  });

  it('routes the link of a second start to the window, parsed, and brings the window to the front', async () => {
    const win = await window();
    const before = openLinkPushes(win).length;
    const focused = win.focused;
    const link = `voice-review://interactions/${SID}?t=30&workspace=Production%20EU`;
    app.emit('second-instance', {}, ['C:\\Voice Review\\Voice Review.exe', '--allow-file-access', link], 'C:\\');
    const expected: OpenLinkPush = { ok: true, link: { sid: SID, atSeconds: 30, workspaceName: 'Production EU' } };
    expect(openLinkPushes(win).slice(before)).toEqual([[PUSH_CHANNELS.openLink, expected]]);
    expect(win.focused).toBeGreaterThan(focused);
    // A second start without a link only brings the window to the front.
    app.emit('second-instance', {}, ['C:\\Voice Review\\Voice Review.exe'], 'C:\\');
    expect(openLinkPushes(win)).toHaveLength(before + 1);
  });

  it('refuses a hostile link with words, and logs the refusal without the link', async () => {
    const win = await window();
    const before = openLinkPushes(win).length;
    app.emit(
      'second-instance',
      {},
      ['voice-review', `voice-review://interactions/${SID}?token=sk_live_9f8e7d6c5b4a3210`],
      '/',
    );
    const prevented = { value: false };
    app.emit(
      'open-url',
      { preventDefault: () => (prevented.value = true) },
      'voice-review://interactions/../../etc/passwd',
    );
    expect(prevented.value).toBe(true);
    const refusals = openLinkPushes(win)
      .slice(before)
      .map(([, push]) => push as { ok: boolean; message: string });
    expect(refusals.map((r) => r.ok)).toEqual([false, false]);
    expect(refusals[0]!.message).toMatch(/never carries a key/);
    expect(refusals[1]!.message).toMatch(/does not name a well-formed interaction SID/);
    const logText = readFileSync(join(userData, 'logs', 'main.log'), 'utf8');
    expect(logText).toContain('Refused a voice-review link (second-instance)');
    expect(logText).toContain('Refused a voice-review link (open-url)');
    expect(logText).not.toContain('sk_live');
    expect(logText).not.toContain('etc/passwd');
  });

  it('builds the menu with the Edit roles, and without reload or DevTools in the packaged app', async () => {
    const win = await window();
    const menu = record.menu!;
    const items = (template: MenuTemplate): MenuTemplate =>
      template.flatMap((item) => [item, ...items(item.submenu ?? [])]);
    const edit = menu.find((m) => m.label === 'Edit')!;
    expect(edit.submenu!.filter((i) => i.role).map((i) => i.role)).toEqual([
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'pasteAndMatchStyle',
      'delete',
      'selectAll',
    ]);
    const roles = items(menu).map((i) => i.role);
    expect(roles).not.toContain('reload');
    expect(roles).not.toContain('toggleDevTools');
    expect(roles).toEqual(expect.arrayContaining(['zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen']));
    items(menu).find((i) => i.id === 'open-link')!.click!();
    expect(win.sent.at(-1)).toEqual([PUSH_CHANNELS.menuCommand, 'open-link']);
  });
});
