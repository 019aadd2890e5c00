/**
 * The builds a benchmark measures: this tree (working copy, uncommitted changes included), and
 * with `--against <git ref>` that commit, checked out into a folder of its own
 * (`<tmp>/voice-review-bench-trees/<commit>`, written by `git archive`, so the repository gains no
 * worktree entry) with a symlink to this tree's node_modules. Each is built by electron-vite into
 * its own `out-bench` folder; a checked-out commit is built once and reused.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join, resolve } from 'node:path';

/** Repository root of the tree running the benchmark. */
export const ROOT = resolve(__dirname, '../..');

/** One build to measure. */
export interface Build {
  /** `new` (this tree) or `old` (the `--against` ref). */
  id: 'new' | 'old';
  /** How the report names it: "this tree", "<ref> (<short commit>)", or the short commit. */
  label: string;
  /** The commit checked out (`old`), or null for this tree's working copy. */
  commit: string | null;
  /** Its source tree. */
  tree: string;
  rendererDir: string;
  preload: string;
  peaksWorker: string;
}

function builtFiles(tree: string): Pick<Build, 'rendererDir' | 'preload' | 'peaksWorker'> {
  const out = join(tree, 'out-bench');
  const mainDir = join(out, 'main');
  const worker = existsSync(join(mainDir, 'peaks-worker.js'))
    ? join(mainDir, 'peaks-worker.js')
    : join(mainDir, readdirSync(mainDir).find((f) => /worker.*\.js$/.test(f)) ?? 'peaks-worker.js');
  return { rendererDir: join(out, 'renderer'), preload: join(out, 'preload', 'index.js'), peaksWorker: worker };
}

function electronViteBuild(tree: string): void {
  execFileSync('npx', ['electron-vite', 'build', '--outDir', join(tree, 'out-bench')], {
    cwd: tree,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** This tree, built into out-bench unless `build` is false. */
export function thisTree(build: boolean, log: (line: string) => void): Build {
  if (build) {
    log(`Building this tree into ${join(ROOT, 'out-bench')} ...`);
    electronViteBuild(ROOT);
  }
  return { id: 'new', label: 'this tree', commit: null, tree: ROOT, ...builtFiles(ROOT) };
}

/** Extracts `commit` into `dir` with git archive | tar. */
async function checkOut(commit: string, dir: string): Promise<void> {
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const archive = spawn('git', ['archive', '--format=tar', commit], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tar = spawn('tar', ['-x', '-C', partial], { stdio: ['pipe', 'ignore', 'inherit'] });
  archive.stdout.pipe(tar.stdin);
  const exited = (child: ReturnType<typeof spawn>) =>
    new Promise<number | null>((ok) => (child.exitCode !== null ? ok(child.exitCode) : child.once('exit', ok)));
  const [a, t] = await Promise.all([exited(archive), exited(tar)]);
  if (a !== 0 || t !== 0) throw new Error(`Could not check out ${commit} (git archive ${a}, tar ${t})`);
  symlinkSync(join(ROOT, 'node_modules'), join(partial, 'node_modules'), 'dir');
  renameSync(partial, dir);
}

/**
 * The build of `ref` (anything `git rev-parse` takes: HEAD, main, a commit), checked out and
 * built on first use.
 * @throws Error when `ref` names no commit, or the checkout or the build fails
 */
export async function againstRef(ref: string, log: (line: string) => void): Promise<Build> {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`--against ${ref}: not a commit in this repository`);
  }
  const dir = join(os.tmpdir(), 'voice-review-bench-trees', commit);
  if (!existsSync(dir)) {
    log(`Checking out ${ref} (${commit.slice(0, 7)}) into ${dir} ...`);
    await checkOut(commit, dir);
  }
  const stamp = join(dir, 'out-bench', '.built');
  if (!existsSync(stamp)) {
    log(`Building ${ref} (${commit.slice(0, 7)}) into ${join(dir, 'out-bench')} ...`);
    electronViteBuild(dir);
    writeFileSync(stamp, `${new Date().toISOString()}\n`);
  }
  const label = commit.startsWith(ref) ? commit.slice(0, 7) : `${ref} (${commit.slice(0, 7)})`;
  return { id: 'old', label, commit, tree: dir, ...builtFiles(dir) };
}

/** This tree's HEAD commit. */
export function headCommit(): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
}
