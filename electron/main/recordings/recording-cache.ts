/**
 * The recordings of this run, read through: for each recording viewed (workspace id + recording
 * URL, so one view of a call) main makes ONE upstream GET of the whole file through the API
 * client's recording fetcher and writes the bytes to a temporary file as they arrive. The player's
 * Range requests (recording-protocol.ts) and the peaks decoder (peaks/service.ts) both read that
 * file, waiting for bytes that are on their way; after the download, seeking anywhere costs no
 * upstream request.
 *
 * Call audio is personal data, so nothing here outlives the run: the files live in a private folder
 * (mode 0700, files 0600, named by a counter, never by a key, SID or URL) made with `mkdtemp`
 * under the app's temporary folder: its name cannot be guessed, so another local user cannot make
 * it first (a fixed name in a shared `/tmp` could be taken over and block playback); a few recent recordings are kept under a size cap and deleted when evicted, when
 * the workspace is switched or removed ({@link RecordingCache.clear}) and at quit
 * ({@link RecordingCache.close}, with a synchronous removal at process exit as the last resort). A
 * folder left by a crashed run (its process id no longer running) is removed when the cache starts.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachedDownload } from './cached-download';
import type { PlayableLocation } from './recording-location';

/** Key of one recording in this run's caches: its workspace and its URL (one view of a call). */
export function recordingKey(location: PlayableLocation): string {
  return `${location.workspaceId}\n${location.recordingUrl}`;
}

/** Options of {@link createRecordingCache}. */
export interface RecordingCacheOptions {
  /**
   * Folder under which the run's private folder is made (made 0700 when missing, never changed
   * when it exists). Default: the system's temporary folder (`os.tmpdir()`, which Electron's
   * `app.getPath('temp')` also returns).
   */
  root?: string;
  /** Most recordings kept (default 4); the most recently opened one is always kept. */
  maxViews?: number;
  /**
   * Most bytes kept over all recordings, files made from them included (an MP3's MP4 rewrap,
   * about its size; default 512 MiB); the most recent one may exceed it alone.
   */
  maxBytes?: number;
}

/** See {@link createRecordingCache}. */
export interface RecordingCache {
  /**
   * The download of `location`'s recording: the running or finished one, or a new one started now
   * (a failed one is started again, so Retry retries). Never rejects by itself; the download's
   * `head` and streams carry its problems.
   */
  open(location: PlayableLocation): CachedDownload;
  /** Stops every download and deletes every file (the workspace was switched or removed). */
  clear(): Promise<void>;
  /** {@link clear}, then removes the run's folder; the cache still works afterwards (a new folder). */
  close(): Promise<void>;
  /** The run's private folder, or null before the first download. */
  folder(): string | null;
}

const DEFAULT_MAX_VIEWS = 4;
const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

/** Creates the cache. No folder is made until the first recording is opened. */
export function createRecordingCache(options: RecordingCacheOptions = {}): RecordingCache {
  const root = options.root ?? tmpdir();
  const maxViews = options.maxViews ?? DEFAULT_MAX_VIEWS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  /** Downloads by key, least recently opened first. */
  const entries = new Map<string, CachedDownload>();
  let dir: string | null = null;
  let counter = 0;

  function runFolder(): string {
    if (dir) return dir;
    dir = makeRunFolder(root);
    removeAtExit(dir);
    return dir;
  }

  function evict(): void {
    const sizes = (): number => [...entries.values()].reduce((sum, e) => sum + e.stored(), 0);
    while (entries.size > 1 && (entries.size > maxViews || sizes() > maxBytes)) {
      const [oldestKey, oldest] = entries.entries().next().value as [string, CachedDownload];
      entries.delete(oldestKey);
      void oldest.discard();
    }
  }

  async function clear(): Promise<void> {
    const all = [...entries.values()];
    entries.clear();
    await Promise.all(all.map((e) => e.discard()));
  }

  return {
    open(location) {
      const key = recordingKey(location);
      // Another workspace's recordings are not kept once this one is in use.
      for (const [k, e] of entries) {
        if (!k.startsWith(`${location.workspaceId}\n`)) {
          entries.delete(k);
          void e.discard();
        }
      }
      let entry = entries.get(key);
      if (entry?.failed()) {
        entries.delete(key);
        void entry.discard();
        entry = undefined;
      }
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
        return entry;
      }
      const file = join(runFolder(), `${String(++counter)}.rec`);
      entry = new CachedDownload(location, file, evict);
      entries.set(key, entry);
      evict();
      return entry;
    },
    clear,
    async close() {
      await clear();
      const folder = dir;
      dir = null;
      if (folder) {
        FOLDERS_AT_EXIT.delete(folder);
        rmSync(folder, { recursive: true, force: true });
      }
    },
    folder: () => dir,
  };
}

/** Run folders still to remove when the process exits (one exit listener for all caches). */
const FOLDERS_AT_EXIT = new Set<string>();
let exitListening = false;

function removeAtExit(folder: string): void {
  if (!exitListening) {
    exitListening = true;
    process.once('exit', () => {
      for (const f of FOLDERS_AT_EXIT) rmSync(f, { recursive: true, force: true });
    });
  }
  FOLDERS_AT_EXIT.add(folder);
}

/** Start of a run folder's name; the process id follows, then `mkdtemp`'s random part. */
const RUN_PREFIX = 'voice-review-recordings-';
const RUN_NAME = new RegExp(`^${RUN_PREFIX}(\\d+)-[A-Za-z0-9]{6}$`);

/**
 * Makes this run's folder `<root>/voice-review-recordings-<pid>-XXXXXX` with `mkdtemp` (mode
 * 0700, a random name nobody can create first), after removing this user's folders of runs whose
 * process is gone. A missing root is made 0700; an existing one (the shared `/tmp`) is left as it
 * is, and anything under it that is not this user's own real folder is left alone.
 * @throws Error when the run folder did not come out private (mode 0700, this user's)
 */
function makeRunFolder(root: string): string {
  if (!existsSync(root)) mkdirSync(root, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  for (const name of readdirSync(root)) {
    const pid = RUN_NAME.exec(name)?.[1];
    if (pid === undefined || isRunning(Number(pid))) continue;
    const info = lstatSync(join(root, name), { throwIfNoEntry: false });
    if (info?.isDirectory() && (uid === undefined || info.uid === uid))
      rmSync(join(root, name), { recursive: true, force: true });
  }
  const folder = mkdtempSync(join(root, `${RUN_PREFIX}${String(process.pid)}-`));
  chmodSync(folder, 0o700);
  const info = lstatSync(folder);
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) {
    throw new Error(`The recordings folder ${folder} is not a private folder of this user.`);
  }
  return folder;
}

/** True when process `pid` exists (signal 0 only checks). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
