/**
 * A rig for the page-side decoder: the test page (decoder-page/) built by Vite the way the app's
 * renderer is built ($shared alias, the peaks worker as a module worker of the page's own origin),
 * served over loopback HTTP by the app's own file handler with the app's CSP, recordings served
 * on the same origin with Range support (as the recording protocol does) or by main's recording
 * protocol handler itself, and opened in Debian's Chromium.
 */
import * as fs from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { createAppProtocolHandler } from '../../electron/main/shell/app-protocol';
import { answerWith } from '../fixtures/http-bridge';
import { CHROMIUM_ARGS, chromiumPath, ROOT } from './harness';

/** The running rig. */
export interface DecoderPageRig {
  page: Page;
  context: BrowserContext;
  origin: string;
  /** Every error the page logged. */
  pageErrors: string[];
  /** Serves `file` at a same-origin URL (with `mimeType`) and returns the URL's path. */
  serve(file: string, mimeType: string): string;
  /** Serves `file` at a same-origin URL whose body breaks off (the connection reset) after `bytes` bytes. */
  serveBroken(file: string, mimeType: string, bytes: number): string;
  /**
   * Answers every other same-origin request under `/recording/` with `handler` (main's recording
   * protocol handler, as the harness serves it), its URL `<origin><path>?<query>`.
   */
  serveRecordingHandler(handler: (request: Request) => Promise<Response>): void;
  close(): Promise<void>;
}

/** Builds the test page into a fresh folder; returns the folder. */
export async function buildDecoderPage(): Promise<string> {
  const outDir = fs.mkdtempSync(join(tmpdir(), 'vr-decoder-page-'));
  await build({
    configFile: false,
    logLevel: 'error',
    root: resolve(__dirname, 'decoder-page'),
    base: './',
    resolve: { alias: { $shared: resolve(ROOT, 'electron/shared') } },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'esnext',
      reportCompressedSize: false,
      modulePreload: { polyfill: false },
    },
  });
  return outDir;
}

/** Answers a GET for `file` with its bytes, honouring one `bytes=a-b` Range as the recording protocol does. */
function serveFile(req: IncomingMessage, res: ServerResponse, file: string, mimeType: string): void {
  const size = fs.statSync(file).size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  let start = 0;
  let end = size - 1;
  const headers: Record<string, string> = { 'Content-Type': mimeType, 'Accept-Ranges': 'bytes' };
  if (range && (range[1] || range[2])) {
    start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  }
  headers['Content-Length'] = String(end - start + 1);
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  fs.createReadStream(file, { start, end }).pipe(res);
}

/** Announces all of `file`, sends its first `bytes` bytes, then resets the connection (a download that fails). */
function serveBroken(res: ServerResponse, file: string, mimeType: string, bytes: number): void {
  const body = fs.readFileSync(file);
  res.writeHead(200, { 'Content-Type': mimeType, 'Content-Length': String(body.length) });
  res.write(body.subarray(0, bytes), () => setImmediate(() => res.destroy()));
}

/**
 * Builds the test page, serves it and opens it in Chromium.
 * @throws Error when Chromium is missing or the build fails
 */
export async function startDecoderPage(): Promise<DecoderPageRig> {
  if (!fs.existsSync(chromiumPath())) {
    throw new Error(`Chromium was not found at ${chromiumPath()}. Install Debian's "chromium" or set CHROMIUM_PATH.`);
  }
  const rootDir = await buildDecoderPage();
  const appFiles = createAppProtocolHandler({ rootDir });
  const recordings = new Map<string, { file: string; mimeType: string; breakAfter?: number }>();
  let recordingHandler: ((request: Request) => Promise<Response>) | null = null;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const recording = recordings.get(path);
    if (recording?.breakAfter !== undefined) serveBroken(res, recording.file, recording.mimeType, recording.breakAfter);
    else if (recording) serveFile(req, res, recording.file, recording.mimeType);
    else if (recordingHandler && path.startsWith('/recording/'))
      void answerWith(recordingHandler, req, res, `${origin}${req.url ?? '/'}`).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    else
      void answerWith(appFiles, req, res, `app://voice-review${path === '/' ? '/index.html' : path}`).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The rig server has no port.');
  const origin = `http://127.0.0.1:${address.port}`;

  const profile = fs.mkdtempSync(join(tmpdir(), 'vr-decoder-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') pageErrors.push(msg.text());
  });
  await page.goto(`${origin}/index.html`);
  await page.waitForFunction(() => 'decoderPage' in window);

  return {
    page,
    context,
    origin,
    pageErrors,
    serve(file, mimeType) {
      const path = `/recording/${recordings.size}-${encodeURIComponent(file.split('/').pop() ?? 'audio')}`;
      recordings.set(path, { file, mimeType });
      return path;
    },
    serveBroken(file, mimeType, bytes) {
      const path = `/recording/${recordings.size}-broken`;
      recordings.set(path, { file, mimeType, breakAfter: bytes });
      return path;
    },
    serveRecordingHandler(handler) {
      recordingHandler = handler;
    },
    async close() {
      await context.close().catch(() => undefined);
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      fs.rmSync(profile, { recursive: true, force: true });
      fs.rmSync(rootDir, { recursive: true, force: true });
    },
  };
}
