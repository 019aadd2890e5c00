/** Builds the app once per test run when `out/renderer` is missing or older than the sources. */
import { execSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OUT_DIR, ROOT, RENDERER_DIR } from './harness';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Runs `electron-vite build` unless the built renderer is newer than renderer/ and electron/shared. */
export function ensureBuilt(): void {
  const index = join(RENDERER_DIR, 'index.html');
  const sources = Math.max(newestMtime(join(ROOT, 'renderer')), newestMtime(join(ROOT, 'electron/shared')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execSync(`npx electron-vite build --outDir ${JSON.stringify(OUT_DIR)}`, { cwd: ROOT, stdio: 'inherit' });
}
