/**
 * End-to-end harness: the built renderer (`out/renderer`) in Debian's Chromium, driven by
 * playwright-core, with the built preload (`out/preload/index.js`) providing `window.api` and main
 * built by the app's own composition root (electron/main/main-stack.ts). Every call crosses the
 * same IPC registration and sender guard as in Electron (test/fixtures/preload-bridge.ts), the
 * page's loopback origin standing in for the app origin. Recordings are served by the same
 * recording-protocol handler over loopback HTTP, on the page's own origin.
 *
 * Used by the end-to-end tests and by `npm run harness` (harness-cli.ts, which reads the view
 * through interaction-check.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createAppProtocolHandler } from '../../electron/main/shell/app-protocol';
import type { HandlerTable } from '../../electron/main/shell/handlers';
import { createMemoryStore, type SecretStore } from '../../electron/main/keys/keychain';
import { createMainStack, registerIpc, type MainStack, type MainStackOptions } from '../../electron/main/main-stack';
import type { Session } from '../../electron/main/workspaces/session';
import { answerWith } from '../fixtures/http-bridge';
import { memoryClipboard } from '../fixtures/memory-clipboard';
import { extractInteractionSid } from '../../electron/shared/sid';
import {
  createIpcMainStandIn,
  installPreload,
  IPC_RESULT_PATH,
  pushToRenderer,
  type IpcMainStandIn,
} from '../fixtures/preload-bridge';
import { PUSH_CHANNELS } from '../../electron/shared/contract';
import type { SignInPush } from '../../electron/main/network/network-service';

/** Repository root. */
export const ROOT = resolve(__dirname, '../..');
/** Build output folder (`out`, or VR_OUT_DIR so parallel work can build side by side). */
export const OUT_DIR = resolve(ROOT, process.env.VR_OUT_DIR ?? 'out');
/** Built renderer served by the harness. */
export const RENDERER_DIR = join(OUT_DIR, 'renderer');
/** Built preload (electron/preload/index.ts), loaded into the page as Electron loads it. */
export const PRELOAD = join(OUT_DIR, 'preload', 'index.js');
/** Built peaks worker (electron/main/peaks/worker.ts), used as Electron uses it. */
export const PEAKS_WORKER = join(OUT_DIR, 'main', 'peaks-worker.js');
/** The build's MP3 remux worker (electron/main/recordings/mp3-remux-worker.ts). */
export const MP3_REMUX_WORKER = join(OUT_DIR, 'main', 'mp3-remux-worker.js');
/** Git-ignored folder for screenshots. */
export const ARTIFACTS_DIR = join(ROOT, 'test-artifacts');

/** Chromium flags that work on this machine's closed network (see README). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

/** Path of the Chromium binary (override with CHROMIUM_PATH). */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** The save dialog's stand-in: answers a save request with an absolute path, or null (cancelled). */
export type SavePathChooser = NonNullable<MainStackOptions['chooseSavePath']>;

/** Main's side of the harness: the loopback server and the stack, registered on an `ipcMain` stand-in. */
export interface HarnessMain {
  /** Origin of the loopback server (the app origin the sender guard accepts). */
  origin: string;
  stack: MainStack;
  secrets: SecretStore;
  /** The `ipcMain` stand-in the stack registered its channels on (registerIpc). */
  ipcMain: IpcMainStandIn;
  /** Lines main logged (refused and failed calls), redacted as in the app. */
  mainLog: string[];
  /** Where main's proxy sign-in asks go (the page, once one is open); null: no window, asks are cancelled. */
  setSignInPush(push: SignInPush | null): void;
  close(): Promise<void>;
}

/**
 * How main starts in the harness. A test that restarts the app passes the same `userDataDir` and
 * `secrets` to both starts, as a desk keeps its settings folder and keychain across restarts.
 */
export interface HarnessMainOptions extends Pick<
  MainStackOptions,
  | 'chooseSavePath'
  | 'confirmWeakKeyStorage'
  | 'clipboard'
  | 'chooseOpenPath'
  | 'confirmInMain'
  | 'proxyEnv'
  | 'peaksCacheDir'
> {
  /** The settings folder; the caller owns it and removes it. Default: a fresh folder, removed at close. */
  userDataDir?: string;
  /** The key store; default a fresh in-memory store. */
  secrets?: SecretStore;
}

/** A running harness: main's side, and a browser page on the app with the built preload. */
export interface Harness extends HarnessMain {
  /** URL of the app page. */
  url: string;
  session: Session;
  /** The stack's handler table, unguarded (tests call it directly to set up state). */
  handlers: HandlerTable;
  context: BrowserContext;
  page: Page;
  /** Every error the page logged (console.error and uncaught exceptions). */
  pageErrors: string[];
}

/** The app's files, served by the same handler as Electron's app:// protocol. */
const appFiles = createAppProtocolHandler({ rootDir: RENDERER_DIR });

/**
 * Starts main as the harness runs it: the loopback server (app files and recordings) and the
 * stack from the app's composition root, its IPC registered on an `ipcMain` stand-in, the
 * server's origin as the app origin. Nothing is connected.
 */
export async function startHarnessMain(extra: HarnessMainOptions = {}): Promise<HarnessMain> {
  const ownsUserData = extra.userDataDir === undefined;
  const userData = extra.userDataDir ?? mkdtempSync(join(tmpdir(), 'voice-review-e2e-'));
  const secrets = extra.secrets ?? createMemoryStore();
  const mainLog: string[] = [];
  const logLine =
    (level: string) =>
    (...data: unknown[]) =>
      mainLog.push(`${level} ${data.map(String).join(' ')}`);
  // The server first: its origin is the app origin the stack's sender guard accepts.
  const routes: HarnessRoutes = {
    recording: (request) => stack.recording(request),
    ipcResult: (request) => ipcMain.serveResult(request),
  };
  const server = createServer((req, res) => {
    void serve(req, res, routes).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The harness server has no port.');
  const origin = `http://127.0.0.1:${address.port}`;

  let signInPush: SignInPush | null = null;
  const stack = createMainStack({
    userDataDir: userData,
    secrets,
    resourcesDir: join(ROOT, 'resources'),
    recordingOrigin: origin,
    appOrigin: origin,
    log: { info: logLine('info'), warn: logLine('warn'), error: logLine('error') },
    // Decoding and the MP3 remux run in the built workers, as in Electron (ensureBuilt/npm run build made them).
    peaksDecoder: { workerPath: PEAKS_WORKER },
    mp3Remux: { workerPath: MP3_REMUX_WORKER },
    // No peaks disk cache unless a test asks for one: each test's waveforms are computed afresh.
    peaksCacheDir: extra.peaksCacheDir ?? null,
    ...(extra.chooseSavePath ? { chooseSavePath: extra.chooseSavePath } : {}),
    ...(extra.confirmWeakKeyStorage ? { confirmWeakKeyStorage: extra.confirmWeakKeyStorage } : {}),
    // The system clipboard's stand-in: main's copies of secrets land here, not on the desk's clipboard.
    clipboard: extra.clipboard ?? memoryClipboard(),
    ...(extra.chooseOpenPath ? { chooseOpenPath: extra.chooseOpenPath } : {}),
    ...(extra.confirmInMain ? { confirmInMain: extra.confirmInMain } : {}),
    // The machine's own proxy variables never leak into a test: a test (or the CLI) passes them.
    proxyEnv: extra.proxyEnv ?? {},
    signInPush: () => signInPush,
    app: { name: 'Voice Review', version: packageVersion() },
  });
  const ipcMain = createIpcMainStandIn();
  registerIpc(ipcMain, stack);
  return {
    origin,
    stack,
    secrets,
    ipcMain,
    mainLog,
    setSignInPush: (push) => {
      signInPush = push;
    },
    async close() {
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      await stack.close();
      if (ownsUserData) rmSync(userData, { recursive: true, force: true });
    },
  };
}

/**
 * Starts main ({@link startHarnessMain}) and Chromium, loads the built preload and opens the app.
 * Nothing is connected: the test picks the demo workspace or connects to a server through the UI
 * or `handlers.connect`.
 * @throws Error when the build (`out/renderer`, `out/preload`) is missing (run `npm run build`)
 *   or Chromium is not installed
 */
export async function startHarness(
  options: HarnessMainOptions & {
    viewport?: { width: number; height: number };
  } = {},
): Promise<Harness> {
  for (const built of [join(RENDERER_DIR, 'index.html'), PRELOAD]) {
    if (!existsSync(built)) throw new Error(`The build is missing ${built}. Run "npm run build" first.`);
  }
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium was not found at ${chromiumPath()}. Install Debian's "chromium" package or set CHROMIUM_PATH.`,
    );
  }
  const { viewport, ...mainOptions } = options;
  const main = await startHarnessMain(mainOptions);
  const profile = mkdtempSync(join(tmpdir(), 'voice-review-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    viewport: viewport ?? { width: 1280, height: 800 },
  });
  await installPreload(context, PRELOAD, () => main.ipcMain);
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // The browser's own line about a recording that failed to load is not a page error: the app
    // starts a call's recording at "Show call", before it knows whether the call has one (an
    // unknown SID, a call without a recording, a service that cannot be reached), and what the
    // app says about a recording that fails is asserted where a test expects it.
    const at = msg.location().url;
    if (msg.text().startsWith('Failed to load resource') && new URL(at, 'http://x').pathname.startsWith('/recording/'))
      return;
    pageErrors.push(at ? `${msg.text()} (${at})` : msg.text());
  });

  main.setSignInPush((push) => {
    void pushToRenderer(page, PUSH_CHANNELS.proxySignIn, push).catch(() => undefined);
    return true;
  });

  const url = `${main.origin}/index.html`;
  await page.goto(url);

  return {
    ...main,
    url,
    session: main.stack.session,
    handlers: main.stack.handlers,
    context,
    page,
    pageErrors,
    async close() {
      await context.close().catch(() => undefined);
      await main.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The app's version from package.json (Diagnostics shows it). */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** What the harness's server answers besides the app's files. */
interface HarnessRoutes {
  /** `/recording/<sid>`: the stack's recording protocol handler. */
  recording: (request: Request) => Promise<Response>;
  /** {@link IPC_RESULT_PATH}: large IPC results held by the `ipcMain` stand-in. */
  ipcResult: (request: Request) => Promise<Response>;
}

async function serve(req: IncomingMessage, res: ServerResponse, routes: HarnessRoutes): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path.startsWith('/recording/')) return answerWith(routes.recording, req, res);
  if (path.startsWith(IPC_RESULT_PATH)) return answerWith(routes.ipcResult, req, res);
  // The app's files through the very handler Electron serves app://voice-review/ with (CSP included).
  return answerWith(appFiles, req, res, `app://voice-review${path === '/' ? '/index.html' : path}`);
}

/**
 * Puts the app where a test about the demo workspace starts: every workspace but the demo one
 * removed (keys included), none active, the page loaded afresh (nothing left open by an earlier
 * test), and the demo workspace opened from the welcome screen as a user opens it.
 */
export async function openDemoAfresh(h: Harness): Promise<void> {
  for (const workspace of (await h.session.info()).workspaces) {
    if (!workspace.isDemo) await h.session.removeWorkspace(workspace.id);
  }
  await h.session.disconnect();
  await h.page.reload();
  await h.page.getByRole('button', { name: 'Open demo workspace' }).click();
  await h.page.getByLabel('Current workspace').getByText('Demo workspace').waitFor();
}

/** Playback time in seconds, read from the player's slider (what a screen reader announces). */
export async function playerTimeSeconds(page: Page): Promise<number> {
  const value = await page.getByRole('slider', { name: /Playback position/ }).getAttribute('aria-valuenow');
  return Number(value ?? 'NaN');
}

/**
 * Looks up `sid` in the Calls view and waits until the call is shown in full: the player ready
 * (Play enabled) or its note that there is no recording, and the rest of the view (turn timing,
 * variables, the transcript), which is built one task after the player.
 * @throws Error with the page's own error text when the call cannot be shown
 */
export async function showInteraction(page: Page, sid: string, timeoutMs = 30_000): Promise<void> {
  await page.getByLabel('Interaction SID').fill(sid);
  await page.getByRole('button', { name: 'Show call' }).click();
  const failure = page.getByRole('alert');
  // The call asked for, not the one shown before: its SID in the call details.
  const found = extractInteractionSid(sid);
  if (found !== null) {
    const details = page.getByRole('region', { name: 'Call details' }).getByText(found, { exact: true });
    await details.or(failure).first().waitFor({ timeout: timeoutMs });
  }
  const ready = page.getByRole('button', { name: 'Play' });
  // The Recording region's note (no recording); the call details may hold a note of their own.
  const noRecording = page.getByRole('region', { name: 'Recording' }).getByRole('note');
  await ready.or(noRecording).or(failure).first().waitFor({ timeout: timeoutMs });
  if (await failure.count()) throw new Error((await failure.first().innerText()).trim());
  if (!(await noRecording.count())) {
    await page.waitForFunction(
      () => !document.querySelector('button[aria-label="Play"]')?.hasAttribute('disabled'),
      undefined,
      { timeout: timeoutMs },
    );
  }
  await waitForTranscript(page, timeoutMs);
}

/**
 * Waits until the call's transcript is on screen with its first rows drawn (the virtual list
 * draws them once it knows its size), or says it has no entries.
 */
export async function waitForTranscript(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const section = document.querySelector('section[aria-labelledby="transcript-title"]');
      return !!section && (section.querySelector('li') !== null || /\b0 entries\b/.test(section.textContent));
    },
    undefined,
    { timeout: timeoutMs },
  );
}
