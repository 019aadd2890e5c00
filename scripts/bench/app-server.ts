/**
 * One build's main, in a process of its own, as the benchmark runs it: the stack from that build's
 * composition root (`<tree>/electron/main/main-stack.ts`: createMainStack, registerIpc) behind a
 * loopback server that stands in for Electron's protocols and IPC, with the page's `window.api`
 * being that build's built preload (loaded by the driver through `<tree>/test/fixtures/preload-bridge.ts`,
 * "http" transport). Only those two modules and the built `out` folder are read from the build's
 * tree, imported by absolute path, so whatever else the build moved or renamed resolves inside its
 * own tree: the same file serves today's build and an older one (`npm run bench -- --against`).
 *
 * Routes:
 * - `/__bench/*` (this script's control, used by scripts/bench/app-process.ts):
 *   `POST /__bench/stack` `{ name, baseUrl, apiKey }` or `{ demo: true }`: closes the current
 *   stack and builds a new one (new user-data folder, so empty peaks and recording caches)
 *   connected to that workspace; `GET /__bench/memory`: `{ rssBytes, heapUsedBytes }` after a
 *   garbage collection (needs `--expose-gc`); `GET /__bench/loop`: `{ maxDelayMs }`, the longest
 *   event-loop delay since the previous call;
 * - the preload bridge's own paths (`IPC_CALL_PATH`, `IPC_RESULT_PATH`, and every other path
 *   under `/__voice-review-` when the build's `ipcMain` stand-in has a `serve(request)` method for
 *   a transport of its own) to the current stack's `ipcMain` stand-in; main's pushes to the page
 *   (a call's recording session: peaks, problems, download progress) are such a path, a stream of
 *   server-sent events per page (`IPC_PUSH_PATH`), streamed through as the stand-in writes them;
 * - `/bench/warmup.wav`; the built renderer's files (their own CSP is in index.html's meta tag);
 * - anything else to the stack's recording protocol handler (the app's recording URLs are on this
 *   origin, whatever their path).
 *
 * Run (cwd = the build's tree): `node --expose-gc --import tsx scripts/bench/app-server.ts <options.json>`
 * with {@link AppServerOptions}; prints `READY {"origin": ...}`; stops on SIGTERM or when stdin closes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import * as os from 'node:os';
import { extname, join, normalize } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import { silentWav } from './reference-pages';

/** What the server is started with. */
export interface AppServerOptions {
  /** The build's source tree (its main-stack.ts and preload bridge are imported from here). */
  tree: string;
  /** The build's renderer folder (`<out>/renderer`). */
  rendererDir: string;
  /** The build's peaks worker (`<out>/main/peaks-worker.js`). */
  peaksWorker: string;
}

/** A workspace to connect the next stack to: the long-call service, or the embedded demo. */
export type StackRequest = { name: string; baseUrl: string; apiKey: string } | { demo: true };

/** The parts of a build's MainStack this server uses (checked at run time: builds differ). */
interface StackLike {
  invoke(method: string, senderUrl: string, args: unknown[]): Promise<{ ok: boolean; error?: unknown }>;
  recording(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** The parts of a build's `ipcMain` stand-in this server uses. */
interface IpcMainLike {
  serveCall(request: Request): Promise<Response>;
  serveResult(request: Request): Promise<Response>;
  serve?: (request: Request) => Promise<Response>;
}

interface BuildModules {
  createMainStack: (options: Record<string, unknown>) => StackLike;
  registerIpc: (ipcMain: unknown, stack: StackLike) => void;
  createIpcMainStandIn: () => IpcMainLike;
  IPC_CALL_PATH: string;
  IPC_RESULT_PATH: string;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const WARMUP_WAV = silentWav();
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A key store in memory: the SecretStore shape (get, set, delete by account). */
function memorySecrets() {
  const secrets = new Map<string, string>();
  return {
    get: (account: string) => Promise.resolve(secrets.get(account) ?? null),
    set: (account: string, secret: string) => Promise.resolve(void secrets.set(account, secret)),
    delete: (account: string) => Promise.resolve(secrets.delete(account)),
  };
}

async function loadBuild(tree: string): Promise<BuildModules> {
  const load = (path: string) => import(pathToFileURL(join(tree, path)).href) as Promise<Record<string, unknown>>;
  const stack = await load('electron/main/main-stack.ts');
  const bridge = await load('test/fixtures/preload-bridge.ts');
  const modules = { ...stack, ...bridge } as unknown as BuildModules;
  for (const name of ['createMainStack', 'registerIpc', 'createIpcMainStandIn'] as const) {
    if (typeof modules[name] !== 'function') throw new Error(`${tree} exports no ${name}`);
  }
  return modules;
}

/** Answers `req` with `handler`'s response, streaming both bodies. */
async function answerWith(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream);
  const response = await handler(
    new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body,
      duplex: 'half',
    } as RequestInit),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const stream = Readable.fromWeb(response.body as NodeReadableStream);
  res.on('close', () => stream.destroy());
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

async function main(): Promise<void> {
  const optionsFile = process.argv[2];
  if (!optionsFile) throw new Error('Usage: app-server.ts <options.json>');
  const options = JSON.parse(readFileSync(optionsFile, 'utf8')) as AppServerOptions;
  const build = await loadBuild(options.tree);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();

  let current: { stack: StackLike; ipcMain: IpcMainLike; dir: string } | null = null;
  let origin = '';

  async function newStack(request: StackRequest): Promise<void> {
    const previous = current;
    current = null;
    if (previous) {
      await previous.stack.close();
      rmSync(previous.dir, { recursive: true, force: true });
    }
    const dir = mkdtempSync(join(os.tmpdir(), 'voice-review-bench-main-'));
    const stack = build.createMainStack({
      userDataDir: dir,
      secrets: memorySecrets(),
      resourcesDir: join(options.tree, 'resources'),
      recordingOrigin: origin,
      appOrigin: origin,
      log: quiet,
      peaksDecoder: { workerPath: options.peaksWorker },
    });
    const ipcMain = build.createIpcMainStandIn();
    build.registerIpc(ipcMain, stack);
    const sender = `${origin}/index.html`;
    const connected =
      'demo' in request ? await stack.invoke('openDemo', sender, []) : await stack.invoke('connect', sender, [request]);
    if (!connected.ok) throw new Error(`Could not connect: ${JSON.stringify(connected.error)}`);
    current = { stack, ipcMain, dir };
  }

  const needStack = () => {
    if (!current) throw new Error('No stack is running.');
    return current;
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const json = (value: unknown): void => {
      res
        .writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
        .end(JSON.stringify(value));
    };
    if (path === '/__bench/stack' && req.method === 'POST') {
      await newStack((await readJson(req)) as StackRequest);
      json({ ok: true });
      return;
    }
    if (path === '/__bench/memory') {
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      json({ rssBytes: usage.rss, heapUsedBytes: usage.heapUsed });
      return;
    }
    if (path === '/__bench/loop') {
      const maxDelayMs = loop.max / 1e6;
      loop.reset();
      json({ maxDelayMs });
      return;
    }
    if (path === build.IPC_CALL_PATH && req.method === 'POST') {
      const { ipcMain } = needStack();
      return answerWith((request) => ipcMain.serveCall(request), req, res);
    }
    if (path.startsWith(build.IPC_RESULT_PATH)) {
      const { ipcMain } = needStack();
      return answerWith((request) => ipcMain.serveResult(request), req, res);
    }
    const bridge = current?.ipcMain;
    if (path.startsWith('/__voice-review-') && bridge?.serve)
      return answerWith((request) => bridge.serve!(request), req, res);
    if (path === '/bench/warmup.wav') {
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': WARMUP_WAV.length });
      res.end(WARMUP_WAV);
      return;
    }
    const file = normalize(join(options.rendererDir, path === '/' ? 'index.html' : path));
    if (file.startsWith(options.rendererDir) && existsSync(file) && extname(file) !== '') {
      res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' });
      res.end(await readFile(file));
      return;
    }
    return answerWith((request) => needStack().stack.recording(request), req, res);
  }

  const server = createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The app server has no port.');
  origin = `http://127.0.0.1:${address.port}`;

  const stop = (): void => {
    server.closeAllConnections();
    server.close();
    const closing = current;
    void (async () => {
      if (closing) {
        await closing.stack.close().catch(() => undefined);
        rmSync(closing.dir, { recursive: true, force: true });
      }
      process.exit(0);
    })();
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.stdout.write(`READY ${JSON.stringify({ origin, pid: process.pid })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
