/**
 * Disk cache of peaks: one entry per recording, keyed so a changed recording is never served
 * stale, with a size cap and least-recently-used eviction.
 *
 * One JSON file per recording, `<sha256>.json`, where the hash covers the recording URL and the
 * server's validators for it (ETag, Last-Modified, Content-Length): a recording that changes gets
 * new validators, hence a new key, and its old entry ages out. The files hold peaks only (no URL,
 * which may carry a signed token, and never the API key).
 *
 * Least-recently-used eviction: a read touches the file's mtime; after each write the oldest files
 * are deleted until the folder is under the cap. Writes go to a temporary file renamed into place,
 * so a crash never leaves a half-written entry under a real key. A file that does not parse is
 * deleted (and the caller recomputes). No method throws: a cache that cannot read or write is
 * just a cache that misses.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { ComputedPeaks } from '$shared/peaks-reducer';

/** Default size cap of the cache folder, in bytes (64 MiB: about 250 40-minute stereo calls). */
const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** Bumped when the peaks algorithm or the file layout changes, so old entries are not reused. */
const CACHE_FORMAT = 1;

/** Temporary files older than this are leftovers of a crash and are removed during eviction. */
const STALE_TEMP_MS = 10 * 60 * 1000;

/** What the server says about a recording's version (any may be null when not sent). */
export interface RecordingValidators {
  etag: string | null;
  lastModified: string | null;
  /** Size of the whole recording in bytes, as a decimal string. */
  contentLength: string | null;
}

/**
 * The cache key of a recording, or null when the server sent none of ETag, Last-Modified or
 * Content-Length: then nothing tells a changed recording from the one cached, so it is not cached.
 */
export function cacheKey(recordingUrl: string, v: RecordingValidators): string | null {
  if (v.etag === null && v.lastModified === null && v.contentLength === null) return null;
  return createHash('sha256')
    .update(JSON.stringify([CACHE_FORMAT, recordingUrl, v.etag, v.lastModified, v.contentLength]))
    .digest('hex');
}

const amplitudes = z.array(z.number().min(-1).max(1));

const cacheFileSchema = z
  .object({
    format: z.literal(CACHE_FORMAT),
    durationSeconds: z.number().nonnegative(),
    sampleRate: z.number().positive(),
    length: z.number().int().nonnegative(),
    channels: z.array(z.object({ min: amplitudes, max: amplitudes })).min(1),
  })
  .refine((file) => file.channels.every((c) => c.min.length === file.length && c.max.length === file.length), {
    message: 'channel lengths differ from length',
  });

/**
 * Writes queued per cache folder, shared by every cache on that folder in this process: writes
 * land one after another, and a read waits for the writes queued before it, so a waveform just
 * computed (its write not awaited by the service) is found by the next view.
 */
const pendingWrites = new Map<string, Promise<void>>();

/** The disk cache of one folder. */
export interface PeaksCache {
  /** The cached peaks for `key`, or null (missing, unreadable, or corrupt: a corrupt file is deleted). Touches the entry. */
  read(key: string): Promise<ComputedPeaks | null>;
  /** Stores `peaks` under `key` atomically, then evicts least-recently-used entries over the cap. */
  write(key: string, peaks: ComputedPeaks): Promise<void>;
  /** Resolves once every write queued so far is on disk (or given up). */
  settled(): Promise<void>;
}

/**
 * Opens (lazily creates) the cache in `dir` with a cap of `maxBytes` (default
 * {@link DEFAULT_CACHE_MAX_BYTES}). Writes and evictions run one at a time.
 */
export function createPeaksCache(dir: string, maxBytes = DEFAULT_CACHE_MAX_BYTES): PeaksCache {
  const queueOf = (): Promise<void> => pendingWrites.get(dir) ?? Promise.resolve();
  const fileOf = (key: string): string => path.join(dir, `${key}.json`);

  async function evict(): Promise<void> {
    const names = await fs.readdir(dir);
    const now = Date.now();
    const entries: { file: string; size: number; mtimeMs: number }[] = [];
    for (const name of names) {
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile()) continue;
      if (name.endsWith('.tmp')) {
        if (now - stat.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
        continue;
      }
      if (name.endsWith('.json')) entries.push({ file, size: stat.size, mtimeMs: stat.mtimeMs });
    }
    let total = entries.reduce((sum, e) => sum + e.size, 0);
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const entry of entries) {
      if (total <= maxBytes) break;
      await fs.rm(entry.file, { force: true });
      total -= entry.size;
    }
  }

  return {
    async read(key) {
      // A write still queued (the service does not wait for it) lands first.
      await queueOf();
      const file = fileOf(key);
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch {
        return null;
      }
      let parsed: z.infer<typeof cacheFileSchema>;
      try {
        parsed = cacheFileSchema.parse(JSON.parse(text));
      } catch {
        await fs.rm(file, { force: true }).catch(() => undefined);
        return null;
      }
      const now = new Date();
      await fs.utimes(file, now, now).catch(() => undefined);
      return {
        durationSeconds: parsed.durationSeconds,
        sampleRate: parsed.sampleRate,
        length: parsed.length,
        channels: parsed.channels,
      };
    },

    write(key, peaks) {
      const task = async (): Promise<void> => {
        const file = fileOf(key);
        const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
        try {
          await fs.mkdir(dir, { recursive: true });
          await fs.writeFile(temp, JSON.stringify({ format: CACHE_FORMAT, ...peaks }));
          await fs.rename(temp, file);
          await evict();
        } catch {
          await fs.rm(temp, { force: true }).catch(() => undefined);
        }
      };
      const run = queueOf().then(task);
      pendingWrites.set(dir, run);
      void run.then(() => {
        if (pendingWrites.get(dir) === run) pendingWrites.delete(dir);
      });
      return run;
    },

    settled: queueOf,
  };
}
