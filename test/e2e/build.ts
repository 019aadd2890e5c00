/**
 * Builds the app once per test run when any output the end-to-end tests load (the renderer, the
 * preload, main's bundle and its workers) is missing or older than the sources it is built
 * from, or than the build configuration.
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MP3_REMUX_WORKER, OUT_DIR, PEAKS_WORKER, PRELOAD, RENDERER_DIR, ROOT } from './harness';

/** Newest modification time (ms) of the files under `path`, or of `path` itself; 0 when missing. */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Oldest modification time (ms) of the files under `path`; 0 when it is missing or empty. */
function oldestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const times = readdirSync(path).map((entry) => oldestMtime(join(path, entry)));
  return times.length === 0 ? 0 : Math.min(...times);
}

/** Everything the build reads: the renderer, main, the preload, the shared contract, the config. */
const SOURCES = ['renderer', 'electron', 'electron.vite.config.ts', 'package.json', 'tsconfig.web.json'];
/** Everything the tests load from the build. */
const OUTPUTS = [
  join(RENDERER_DIR, 'index.html'),
  join(OUT_DIR, 'main', 'index.js'),
  PRELOAD,
  PEAKS_WORKER,
  MP3_REMUX_WORKER,
];

/** True when every output exists and the oldest is at least as new as the newest source. */
function isBuildFresh(): boolean {
  if (!OUTPUTS.every((output) => existsSync(output))) return false;
  const built = Math.min(...[RENDERER_DIR, join(OUT_DIR, 'main'), join(OUT_DIR, 'preload')].map(oldestMtime));
  const sources = Math.max(...SOURCES.map((source) => newestMtime(join(ROOT, source))));
  return built >= sources;
}

/** Runs `electron-vite build` into OUT_DIR unless {@link isBuildFresh}. */
export function ensureBuilt(): void {
  if (isBuildFresh()) return;
  execSync(`npx electron-vite build --outDir ${JSON.stringify(OUT_DIR)}`, {
    cwd: ROOT,
    stdio: ['ignore', process.stderr, process.stderr],
  });
}
