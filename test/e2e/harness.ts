/**
 * End-to-end harness: the built renderer (`out/renderer`) in Debian's Chromium, driven by
 * playwright-core, with `window.api` provided by a stand-in that routes every call to the same
 * handler table Electron registers (electron/main/handlers.ts). Recordings are served by the
 * same recording-protocol function over loopback HTTP, on the page's own origin.
 *
 * Used by the end-to-end tests and by `npm run harness` (harness-cli.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { API_METHODS, type ApiMethod } from '../../electron/shared/contract';
import { createAppProtocolHandler } from '../../electron/main/app-protocol';
import { startDemoServer } from '../../electron/main/demo/server';
import { createPeaksService } from '../../electron/main/peaks/service';
import { createPlaybackGate } from '../../electron/main/peaks/playback-gate';
import { createWorkerDecoder } from '../../electron/main/peaks/worker-decoder';
import { createHandlers, type HandlerTable } from '../../electron/main/handlers';
import { createMemoryStore, type SecretStore } from '../../electron/main/keychain';
import { createRecordingHandler, recordingPath } from '../../electron/main/recording-protocol';
import { createSession, type Session } from '../../electron/main/session';
import { createSettingsStore } from '../../electron/main/settings';
import { answerWith } from '../fixtures/http-bridge';

/** Repository root. */
export const ROOT = resolve(__dirname, '../..');
/** Build output folder (`out`, or VR_OUT_DIR so parallel work can build side by side). */
export const OUT_DIR = resolve(ROOT, process.env.VR_OUT_DIR ?? 'out');
/** Built renderer served by the harness. */
export const RENDERER_DIR = join(OUT_DIR, 'renderer');
/** Built peaks worker (electron/main/peaks/worker.ts), used as Electron uses it. */
export const PEAKS_WORKER = join(OUT_DIR, 'main', 'peaks-worker.js');
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

/** A running harness: loopback server, session, handler table and a browser page. */
export interface Harness {
  /** URL of the app page. */
  url: string;
  session: Session;
  handlers: HandlerTable;
  secrets: SecretStore;
  context: BrowserContext;
  page: Page;
  /** Every error the page logged (console.error and uncaught exceptions). */
  pageErrors: string[];
  close(): Promise<void>;
}

/** The app's files, served by the same handler as Electron's app:// protocol. */
const appFiles = createAppProtocolHandler({ rootDir: RENDERER_DIR });

/**
 * Starts the loopback server and Chromium and opens the app. Nothing is connected: the test
 * picks the demo workspace or connects to a server through the UI or `handlers.connect`.
 * @throws Error when `out/renderer` is missing (run `npm run build`) or Chromium is not installed
 */
export async function startHarness(options: { viewport?: { width: number; height: number } } = {}): Promise<Harness> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(`The built renderer is missing (${RENDERER_DIR}). Run "npm run build" first.`);
  }
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium was not found at ${chromiumPath()}. Install Debian's "chromium" package or set CHROMIUM_PATH.`,
    );
  }
  const userData = mkdtempSync(join(tmpdir(), 'voice-review-e2e-'));
  const secrets = createMemoryStore();
  const session = createSession({
    settings: createSettingsStore(userData),
    secrets,
    startDemo: () => startDemoServer({ resourcesDir: join(ROOT, 'resources') }),
  });

  let origin = '';
  // Decoding runs in the built worker, as in Electron (ensureBuilt/npm run build made it).
  const playbackGate = createPlaybackGate();
  const peaks = createPeaksService({
    locate: (sid) => session.locateRecording(sid),
    cacheDir: null,
    decode: createWorkerDecoder(PEAKS_WORKER),
    beforeDownload: (sid) => playbackGate.wait(sid),
  });
  const handlers = createHandlers({ session, peaks, recordingSrc: (sid) => `${origin}${recordingPath(sid)}` });
  const recording = createRecordingHandler({
    locate: (sid) => session.locateRecording(sid),
    onStreaming: (sid) => playbackGate.opened(sid),
  });

  const server = createServer((req, res) => {
    void serve(req, res, recording).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The harness server has no port.');
  origin = `http://127.0.0.1:${address.port}`;

  const profile = mkdtempSync(join(tmpdir(), 'voice-review-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') pageErrors.push(msg.text());
  });

  // The stand-in for the preload: same shape (functions only), each routed to the handler table.
  await page.exposeFunction('__voiceReviewInvoke', (method: ApiMethod, args: unknown[]) => {
    if (!(API_METHODS as readonly string[]).includes(method))
      return { ok: false, error: { kind: 'bad_input', message: 'Unknown method' } };
    return handlers[method](args);
  });
  await page.addInitScript((methods: readonly string[]) => {
    const invoke = (window as unknown as { __voiceReviewInvoke: (m: string, a: unknown[]) => Promise<unknown> })
      .__voiceReviewInvoke;
    const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const m of methods) api[m] = (...args: unknown[]) => invoke(m, args);
    Object.defineProperty(window, 'api', { value: Object.freeze(api), writable: false });
  }, API_METHODS);

  const url = `${origin}/index.html`;
  await page.goto(url);

  return {
    url,
    session,
    handlers,
    secrets,
    context,
    page,
    pageErrors,
    async close() {
      await context.close().catch(() => undefined);
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      await session.close();
      rmSync(profile, { recursive: true, force: true });
      rmSync(userData, { recursive: true, force: true });
    },
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  recording: (request: Request) => Promise<Response>,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path.startsWith('/recording/')) return answerWith(recording, req, res);
  // The app's files through the very handler Electron serves app://voice-review/ with (CSP included).
  return answerWith(appFiles, req, res, `app://voice-review${path === '/' ? '/index.html' : path}`);
}

/** Playback time in seconds, read from the player's slider (what a screen reader announces). */
export async function playerTimeSeconds(page: Page): Promise<number> {
  const value = await page.getByRole('slider', { name: /Playback position/ }).getAttribute('aria-valuenow');
  return Number(value ?? 'NaN');
}

/**
 * Looks up `sid` in the Interaction view and waits until the call is shown and the waveform is
 * ready (play button enabled).
 * @throws Error with the page's own error text when the call cannot be shown
 */
export async function showInteraction(page: Page, sid: string, timeoutMs = 30_000): Promise<void> {
  await page.getByLabel('Interaction SID').fill(sid);
  await page.getByRole('button', { name: 'Show call' }).click();
  const ready = page.getByRole('button', { name: 'Play' });
  const noRecording = page.getByRole('note');
  const failure = page.getByRole('alert');
  await ready.or(noRecording).or(failure).first().waitFor({ timeout: timeoutMs });
  if (await failure.count()) throw new Error((await failure.first().innerText()).trim());
  if (await noRecording.count()) return;
  await page.waitForFunction(
    () => !document.querySelector('button[aria-label="Play"]')?.hasAttribute('disabled'),
    undefined,
    { timeout: timeoutMs },
  );
}
