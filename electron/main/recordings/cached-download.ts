/**
 * One recording's download into a temporary file of the recording cache (recording-cache.ts):
 * one upstream GET through the API client's recording fetcher, the bytes written as they arrive,
 * and any number of readers of any byte range that wait for bytes still on their way. A download
 * runs to its end even when no one is reading (the waveform and later seeks need the whole file);
 * it stops only when the cache discards it (evicted, cleared, closed).
 *
 * The next bytes are read from upstream while the last ones are still being written (writes queue
 * in order, at most {@link MAX_UNWRITTEN_BYTES} behind), and a reader at the front of the download
 * (the player's first bytes, the peaks decoder) gets bytes not yet on disk from memory: neither
 * waits for the disk, whose writes can take tens of milliseconds when the machine is busy.
 */
import { chmod, open, rm, stat, type FileHandle } from 'node:fs/promises';
import { problemOf, RecordingError, recordingUnreachable } from '../api/recording-errors';
import type { RecordingLocation } from './recording-location';

/** What the upstream said about the whole recording (the GET's final answer). */
export interface RecordingHead {
  /** The final hop's headers (ETag, Last-Modified, Content-Length, ...). */
  headers: Headers;
  /** The content type to hand to the player (the fetcher's `playableContentType`). */
  contentType: string;
}

/** Bytes read from the file per chunk handed to a reader. */
const READ_CHUNK_BYTES = 256 * 1024;
/** A reader never waits for bytes this close to what has arrived (see {@link CachedDownload.withinReach}). */
const MIN_REACH_BYTES = 512 * 1024;
/** Most bytes held in memory while their writes are queued; the upstream is read again once under it. */
const MAX_UNWRITTEN_BYTES = 8 * 1024 * 1024;

/** One download; see the file's comment. Made by the recording cache only. */
export class CachedDownload {
  /** The upstream's answer; rejects with the fetcher's RecordingError (or the abort) when the GET fails. */
  readonly head: Promise<RecordingHead>;
  /**
   * Settles when the download ends: resolves once the whole file is here, rejects with its
   * problem when it fails or is discarded first.
   */
  readonly completed: Promise<void>;
  /** Files made from this recording ({@link derive}), deleted with it. */
  private readonly derived = new Set<string>();
  /** Bytes of the files made from this recording, counted toward the cache's size cap. */
  private derivedBytes = 0;
  /** Bytes arrived from upstream. */
  private bytes = 0;
  /** Bytes on disk (the first `written` of the file). */
  private written = 0;
  /** The bytes arrived but not yet on disk, in order, each from its offset in the file. */
  private unwritten: Array<{ start: number; data: Uint8Array }> = [];
  /** The queued writes, in order; settles once the last one queued is on disk. */
  private writing: Promise<void> = Promise.resolve();
  /** Why a write failed, if one did (the download then fails with it). */
  private writeError: Error | null = null;
  /** The upstream body being read, while it is. */
  private upstream: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private total: number | null = null;
  private finished = false;
  private failure: Error | null = null;
  private discarded = false;
  private file: FileHandle | null = null;
  private readonly abort = new AbortController();
  private wakers: Array<() => void> = [];
  private readonly startedAt = performance.now();
  private readonly pumping: Promise<void>;

  /**
   * Starts the download of `location.recordingUrl` into `path` (created with mode 0600); `onGrow`
   * is told after each chunk written (the cache checks its size cap).
   */
  constructor(
    private readonly location: RecordingLocation & { recordingUrl: string },
    private readonly path: string,
    private readonly onGrow: () => void,
  ) {
    let settle: { resolve: (head: RecordingHead) => void; reject: (err: unknown) => void } | null = null;
    this.head = new Promise<RecordingHead>((resolve, reject) => (settle = { resolve, reject }));
    this.head.catch(() => undefined);
    this.pumping = this.run(settle as unknown as NonNullable<typeof settle>);
    this.completed = this.pumping.then(() => {
      if (!this.finished) throw this.failure ?? removed();
    });
    this.completed.catch(() => undefined);
  }

  /** Bytes downloaded so far. */
  received(): number {
    return this.bytes;
  }

  /** Bytes this recording holds on disk: those downloaded and the files made from it ({@link derive}). */
  stored(): number {
    return this.bytes + this.derivedBytes;
  }

  /** False once the cache discarded this download (evicted, cleared, closed): its files are gone. */
  inCache(): boolean {
    return !this.discarded;
  }

  /**
   * Makes a file from the finished recording (its MP4 rewrap) next to the download's own file,
   * its name the download's with `suffix` appended; the file is made private (0600), counts
   * toward the cache's size cap and is deleted with the download. `make(source, target, signal)` reads the recording at
   * `source` and writes `target`; `signal` is aborted when the download is discarded, and the
   * target is then deleted once `make` settles.
   * @returns what `make` returned, the target's path and its size in bytes
   * @throws Error when the download is not complete; what `make` threw (the target deleted); the
   *   "recording was closed" RecordingError when the download was discarded meanwhile
   */
  async derive<T>(
    suffix: string,
    make: (source: string, target: string, signal: AbortSignal) => Promise<T>,
  ): Promise<{ value: T; path: string; bytes: number }> {
    if (!this.finished) throw new Error('A file is made from a recording only once it is downloaded.');
    if (this.discarded) throw removed();
    const target = `${this.path}${suffix}`;
    this.derived.add(target);
    try {
      const value = await make(this.path, target, this.abort.signal);
      // Private as the download's own file (the folder, 0700, already keeps others out).
      await chmod(target, 0o600);
      const { size } = await stat(target);
      // Discarded while `make` ran (a method call: the field's narrowing does not see the await).
      if (!this.inCache()) throw removed();
      this.derivedBytes += size;
      this.onGrow();
      return { value, path: target, bytes: size };
    } catch (err) {
      this.derived.delete(target);
      await rm(target, { force: true });
      throw this.inCache() ? err : removed();
    }
  }

  /** The file's size: from the upstream's Content-Length (or Content-Range), exact once finished; null if not said. */
  size(): number | null {
    return this.total;
  }

  /** True once the whole file is here. */
  complete(): boolean {
    return this.finished;
  }

  /** True when the download failed (a retry starts a new one). */
  failed(): boolean {
    return this.failure !== null;
  }

  /**
   * Whether a reader starting at byte `start` should wait for this download: true when it is
   * finished or is expected to reach `start` within about a second at its current speed (at least
   * {@link MIN_REACH_BYTES} ahead of what has arrived). Further ahead, the recording protocol asks
   * the upstream for that range itself, so a seek far into a long call on a slow link plays at once.
   */
  withinReach(start: number): boolean {
    if (this.finished) return true;
    // The speed is trusted after half a second; before that, only the fixed margin counts.
    const seconds = (performance.now() - this.startedAt) / 1000;
    const perSecond = seconds >= 0.5 ? this.bytes / seconds : 0;
    return start <= this.bytes + Math.max(MIN_REACH_BYTES, perSecond);
  }

  /**
   * Bytes `start` to `endInclusive` (null: to the end) as a stream: read from the file, waiting
   * for bytes still on their way. Errors with the download's problem when it fails before the
   * bytes asked for arrived.
   */
  stream(start: number, endInclusive: number | null = null): ReadableStream<Uint8Array> {
    let position = start;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const last = endInclusive ?? Number.POSITIVE_INFINITY;
          if (position > last) {
            controller.close();
            return;
          }
          await this.waitFor(position + 1);
          if (this.bytes <= position) {
            if (this.failure || this.discarded) throw this.failure ?? removed();
            controller.close();
            return;
          }
          const file = this.file;
          if (!file || this.discarded) throw removed();
          const front = this.fromMemory(position, last);
          if (front) {
            position += front.byteLength;
            controller.enqueue(front);
            return;
          }
          const length = Math.min(READ_CHUNK_BYTES, this.written - position, last - position + 1);
          const chunk = new Uint8Array(length);
          const { bytesRead } = await file.read(chunk, 0, length, position);
          position += bytesRead;
          controller.enqueue(bytesRead === length ? chunk : chunk.subarray(0, bytesRead));
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** Stops the download, closes and deletes the file. Readers waiting for more bytes end with an error. */
  async discard(): Promise<void> {
    this.discarded = true;
    this.abort.abort();
    this.wake();
    await this.pumping;
    await this.writing.catch(() => undefined);
    await this.file?.close().catch(() => undefined);
    this.file = null;
    await rm(this.path, { force: true });
    await Promise.all([...this.derived].map((path) => rm(path, { force: true })));
    this.derivedBytes = 0;
  }

  /**
   * A copy of the bytes from `position` (at most to `last` and {@link READ_CHUNK_BYTES}) when they
   * have arrived but are not on disk yet; null when they are on disk (or not here).
   */
  private fromMemory(position: number, last: number): Uint8Array | null {
    if (position < this.written) return null;
    const first = this.unwritten.findIndex((p) => position < p.start + p.data.byteLength);
    if (first < 0) return null;
    const length = Math.min(this.bytes - position, last - position + 1, READ_CHUNK_BYTES);
    // A copy (a reader may hand its chunk on: the peaks decoder transfers it to its worker), made
    // of as many of the pieces as it spans.
    const out = new Uint8Array(length);
    let filled = 0;
    for (let k = first; k < this.unwritten.length && filled < length; k++) {
      const piece = this.unwritten[k];
      if (!piece) break;
      const from = position + filled - piece.start;
      const take = piece.data.subarray(from, from + (length - filled));
      out.set(take, filled);
      filled += take.byteLength;
    }
    return out;
  }

  /** Queues `chunk` (the next bytes from upstream) for writing and makes it readable at once. */
  private accept(file: FileHandle, chunk: Uint8Array): void {
    const start = this.bytes;
    this.unwritten.push({ start, data: chunk });
    this.bytes += chunk.byteLength;
    const next = this.writing.then(async () => {
      await file.write(chunk, 0, chunk.byteLength, start);
      this.written = start + chunk.byteLength;
      this.unwritten.shift();
    });
    // A failed write stops reading the upstream and becomes the download's problem.
    next.catch((err: unknown) => {
      this.writeError ??= err instanceof Error ? err : new Error(String(err));
      void this.upstream?.cancel().catch(() => undefined);
      this.abort.abort();
    });
    this.writing = next;
  }

  /** Resolves once `count` bytes are here, the download ended, or it was discarded. */
  private async waitFor(count: number): Promise<void> {
    while (this.bytes < count && !this.finished && this.failure === null && !this.discarded) {
      await new Promise<void>((resolve) => this.wakers.push(resolve));
    }
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  private async run(settle: { resolve: (head: RecordingHead) => void; reject: (err: unknown) => void }): Promise<void> {
    try {
      const file = await open(this.path, 'w+', 0o600);
      this.file = file;
      const answer = await this.location
        .fetcher(this.location.recordingUrl)
        .fetch('GET', { signal: this.abort.signal });
      this.total = answer.size;
      settle.resolve({ headers: answer.headers, contentType: answer.contentType });
      this.location.report(null);
      const reader = answer.body?.getReader();
      this.upstream = reader ?? null;
      for (;;) {
        const result = await reader?.read();
        if (!result || result.done) break;
        this.accept(file, result.value);
        this.wake();
        this.onGrow();
        if (this.bytes - this.written > MAX_UNWRITTEN_BYTES) await this.writing;
      }
      await this.writing;
      this.total = this.bytes;
      this.finished = true;
    } catch (caught) {
      const err = this.writeError ?? caught;
      this.failure = this.discarded ? removed() : err instanceof Error ? err : recordingUnreachable();
      if (!this.discarded) this.location.report(problemOf(err));
      settle.reject(this.failure);
    } finally {
      this.wake();
    }
  }
}

/** The error of a reader whose recording left the cache (evicted, workspace switched, quit). */
function removed(): RecordingError {
  return new RecordingError(
    'unreachable',
    'The recording was closed (another call or workspace was opened). Play it again.',
  );
}
