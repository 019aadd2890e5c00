/**
 * The driver's side of one build's main (scripts/bench/app-server.ts in a child process): starts
 * it, asks it for a fresh stack, reads its memory and event-loop delay, and prepares a browser
 * context whose pages get that build's preload (through that build's own
 * test/fixtures/preload-bridge.ts, "http" transport, so every IPC call is posted to the child).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import type { AppServerOptions, StackRequest } from './app-server';
import type { Build } from './builds';

/** CPU time a process has used so far (all its threads), in clock ticks; NaN when it is gone. */
export function cpuTicks(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return Number.NaN;
  }
}

/**
 * Waits until the processes `pids` are idle: less than 2 clock ticks (20 ms) of CPU between two
 * readings `quietMs` apart, or `maxMs` passed. A fresh stack warms its peaks worker up (seconds of
 * decoding), and a view can leave work behind (cache writes): neither must land in the next
 * subject's measurement.
 */
export async function waitIdle(pids: number[], quietMs = 300, maxMs = 20_000): Promise<void> {
  const total = () => pids.reduce((sum, pid) => sum + (cpuTicks(pid) || 0), 0);
  const deadline = Date.now() + maxMs;
  let before = total();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, quietMs));
    const after = total();
    if (after - before < 2) return;
    before = after;
  }
}

/** A running build's main. */
export interface AppProcess {
  build: Build;
  /** The app's origin, `http://127.0.0.1:<port>` (the page is `<origin>/index.html`). */
  origin: string;
  /** PID of the child (main's process, for its RSS). */
  pid: number;
  /** Name of the page function the preload's IPC goes through (preload-bridge's IPC_BINDING), or null. */
  ipcBinding: string | null;
  /** A new stack (empty caches) connected to `workspace`. */
  freshStack(workspace: StackRequest): Promise<void>;
  /** Main's RSS and JS heap after a garbage collection, bytes. */
  memory(): Promise<{ rssBytes: number; heapUsedBytes: number }>;
  /** Longest event-loop delay of main since the previous call, ms. */
  loopDelay(): Promise<number>;
  /** Loads the build's preload into every page of `context` (call before the page opens the app). */
  installPreload(context: BrowserContext): Promise<void>;
  close(): Promise<void>;
}

interface PreloadBridge {
  installPreload: (
    context: BrowserContext,
    preloadPath: string,
    ipcMain: () => never,
    transport: 'http',
  ) => Promise<void>;
  IPC_BINDING?: string;
}

/**
 * Starts `build`'s main. Its TypeScript is run by tsx from the build's tree (cwd), with that
 * tree's tsconfig.node.json when there is one (path aliases).
 * @throws Error when the child exits before it is ready
 */
export async function startAppProcess(build: Build): Promise<AppProcess> {
  const dir = mkdtempSync(join(os.tmpdir(), 'voice-review-bench-app-'));
  const optionsFile = join(dir, 'options.json');
  const options: AppServerOptions = {
    tree: build.tree,
    rendererDir: build.rendererDir,
    peaksWorker: build.peaksWorker,
  };
  writeFileSync(optionsFile, JSON.stringify(options));
  const tsconfig = join(build.tree, 'tsconfig.node.json');
  const child: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(__dirname, 'app-server.ts'), optionsFile],
    {
      cwd: build.tree,
      env: { ...process.env, ...(existsSync(tsconfig) ? { TSX_TSCONFIG_PATH: tsconfig } : {}) },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const ready = await new Promise<{ origin: string; pid: number }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY '))
        resolve(JSON.parse(line.slice('READY '.length)) as { origin: string; pid: number });
    });
    child.once('exit', (code) => reject(new Error(`${build.label}: the app server exited with code ${String(code)}`)));
  });
  const bridge = (await import(
    pathToFileURL(join(build.tree, 'test/fixtures/preload-bridge.ts')).href
  )) as PreloadBridge;
  const control = async <T>(path: string, body?: unknown): Promise<T> => {
    const answer = await fetch(`${ready.origin}/__bench/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${build.label}: ${path}: ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  return {
    build,
    origin: ready.origin,
    pid: ready.pid,
    ipcBinding: typeof bridge.IPC_BINDING === 'string' ? bridge.IPC_BINDING : null,
    freshStack: async (workspace) => {
      await control('stack', workspace);
    },
    memory: () => control('memory'),
    loopDelay: async () => (await control<{ maxDelayMs: number }>('loop')).maxDelayMs,
    installPreload: (context) =>
      bridge.installPreload(
        context,
        build.preload,
        () => {
          throw new Error('The benchmark posts IPC over HTTP; the binding transport is not used.');
        },
        'http',
      ),
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
