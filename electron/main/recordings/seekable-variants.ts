/**
 * Seekable variants of the run's recordings: once an MP3 recording's download is complete in the
 * recording cache, its frames are rewrapped in MP4 (mp3-remux.ts) in the background, into a file
 * next to the download's (the cache counts it toward its size cap and deletes it with the
 * recording), and the recording protocol serves it at the recording's URL with
 * `?variant=mp4` ($shared/recording-src `seekableRecordingSrcOf`). Listeners are told when a
 * recording's variant is ready, so the page can swap its media element's source, keeping its
 * time: from then on a seek lands on the sound at the clock's time.
 *
 * Why every MP3 (sniffed from its first bytes, never from its URL or Content-Type), and not only
 * VBR ones: Chromium seeks in a VBR MP3 by its Xing table (seconds off in a long call) or, without
 * one, by the first frame's bit rate (the duration is wrong and the last minutes cannot be
 * reached); and in every MP3 with a LAME tag it plays the encoder's delay that main's waveform
 * drops. In MP4 each frame has its exact time, and a CBR MP3 seeks as exactly as before.
 *
 * A recording that is not an MP3, whose download failed, or whose remux failed has no variant:
 * it plays as it is, and a failed remux is logged (the recording's SID and the remux's words,
 * never its URL).
 */
import { open } from 'node:fs/promises';
import { detectFormat } from '../peaks/detect-format';
import type { CachedDownload } from './cached-download';
import { remuxMp3ToMp4, type Mp3Remuxer } from './mp3-remux';

/** A ready variant, as told to listeners ({@link SeekableVariants.onReady}). */
export interface SeekableVariantReady {
  /** The interaction whose recording it is. */
  sid: string;
  /** The URL the page plays it from (the recording's URL with `?variant=mp4`). */
  src: string;
  /** Length of the recording's sound in the variant, seconds. */
  durationSeconds: number;
}

/** A ready variant's file, for the recording protocol. */
export interface SeekableFile {
  /** Its path in the run's recordings folder. */
  path: string;
  /** Its size, bytes. */
  size: number;
  /** Always `audio/mp4` (MP3 frames in MP4). */
  contentType: string;
}

/** See {@link createSeekableVariants}. */
export interface SeekableVariants {
  /**
   * Asks for the seekable variant of `download` (interaction `sid`'s recording): once the
   * download is complete and sniffed as an MP3, it is remuxed in the background, once per
   * download, and listeners are told for every SID that asked. Called by the recording protocol
   * for every request; cheap when already asked.
   */
  prepare(sid: string, download: CachedDownload): void;
  /** The variant of `download` when it is ready, else null (still downloading or remuxing, none, or the download left the cache). */
  ready(download: CachedDownload): SeekableFile | null;
  /**
   * Resolves once `download`'s variant is ready (listeners told), or is known not to come (not an
   * MP3, the download or the remux failed): then {@link ready} answers for good. Resolves at once
   * for a download never {@link prepare}d. Never rejects.
   */
  settled(download: CachedDownload): Promise<void>;
  /** The URL of interaction `sid`'s ready variant, or null (none yet): for a page that subscribes late. */
  readySrc(sid: string): string | null;
  /**
   * Calls `listener` each time a recording's variant becomes ready (once per SID and download;
   * again after the recording was evicted and downloaded anew). A listener that throws does not
   * stop the others. Returns the function that removes the listener.
   */
  onReady(listener: (ready: SeekableVariantReady) => void): () => void;
}

/** Options of {@link createSeekableVariants}. */
export interface SeekableVariantsOptions {
  /** The URL the page plays interaction `sid`'s variant from (`seekableRecordingSrcOf` with main's recording origin). */
  srcOf(sid: string): string;
  /**
   * Rewraps an MP3 in MP4: main passes the worker thread's (createWorkerRemuxer), so its second
   * of CPU for a long call never holds the event loop. Default: {@link remuxMp3ToMp4} in this thread.
   */
  remux?: Mp3Remuxer;
  /** Main's (redacting) log: a remux done (info) or failed (warn). */
  log: { info(...args: unknown[]): void; warn(...args: unknown[]): void };
}

/** Bytes read from a variant's file per chunk handed to the player. */
const READ_CHUNK_BYTES = 256 * 1024;

/** Bytes sniffed to tell an MP3 (an ID3 tag or a frame header at the start). */
const SNIFF_BYTES = 16;

/** One download's variant. */
interface Variant {
  download: CachedDownload;
  /** The SIDs told when it is ready. */
  sids: Set<string>;
  file: SeekableFile | null;
  durationSeconds: number;
  /** Settles when the variant is ready or known not to come. */
  settled: Promise<void>;
}

/** Creates the service; it holds nothing of its own on disk (the files live in the recording cache). */
export function createSeekableVariants(options: SeekableVariantsOptions): SeekableVariants {
  const remux = options.remux ?? ((mp3, mp4) => remuxMp3ToMp4(mp3, mp4));
  const { log } = options;
  const byDownload = new WeakMap<CachedDownload, Variant>();
  /** The last variant each SID asked for; dropped when its download leaves the cache. */
  const bySid = new Map<string, Variant>();
  const listeners = new Set<(ready: SeekableVariantReady) => void>();

  const tell = (variant: Variant, sid: string): void => {
    const src = options.srcOf(sid);
    for (const listener of [...listeners]) {
      try {
        listener({ sid, src, durationSeconds: variant.durationSeconds });
      } catch (err) {
        log.warn('A listener of seekable recordings failed:', err);
      }
    }
  };

  const make = async (variant: Variant): Promise<void> => {
    const { download } = variant;
    try {
      await download.completed;
    } catch {
      return; // A failed or discarded download has no variant; its problem is the player's.
    }
    if (!(await isMp3(download))) return;
    const started = performance.now();
    try {
      const { value, path, bytes } = await download.derive('.m4a', (mp3, mp4, signal) => remux(mp3, mp4, signal));
      variant.file = { path, size: bytes, contentType: 'audio/mp4' };
      variant.durationSeconds = value.durationSeconds;
      log.info(
        `Rewrapped the MP3 recording of ${[...variant.sids].join(', ')} in MP4 for exact seeking: ` +
          `${String(value.frames)} frames, ${String(Math.round(performance.now() - started))} ms.`,
      );
    } catch (err) {
      if (!download.inCache()) return;
      const words = err instanceof Error ? err.message : String(err);
      log.warn(
        `The MP3 recording of ${[...variant.sids].join(', ')} could not be rewrapped for exact seeking; it plays as it is. ${words}`,
      );
      return;
    }
    for (const sid of variant.sids) tell(variant, sid);
  };

  return {
    prepare(sid, download) {
      let variant = byDownload.get(download);
      if (!variant) {
        const made: Variant = { download, sids: new Set(), file: null, durationSeconds: 0, settled: Promise.resolve() };
        made.settled = make(made).catch((err: unknown) => log.warn('A seekable recording could not be made:', err));
        byDownload.set(download, made);
        variant = made;
      }
      if (variant.sids.has(sid)) return;
      for (const [other, v] of bySid) if (!v.download.inCache()) bySid.delete(other);
      variant.sids.add(sid);
      bySid.set(sid, variant);
      if (variant.file) tell(variant, sid);
    },
    ready(download) {
      const variant = byDownload.get(download);
      return variant?.file && download.inCache() ? variant.file : null;
    },
    settled: async (download) => byDownload.get(download)?.settled,
    readySrc(sid) {
      const variant = bySid.get(sid);
      if (variant && !variant.download.inCache()) bySid.delete(sid);
      return variant?.file && variant.download.inCache() ? options.srcOf(sid) : null;
    },
    onReady(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** True when the finished download's first bytes are an MP3's (an ID3 tag or an MPEG audio frame). */
async function isMp3(download: CachedDownload): Promise<boolean> {
  const reader = download.stream(0, SNIFF_BYTES - 1).getReader();
  const head = new Uint8Array(SNIFF_BYTES);
  let filled = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      head.set(value.subarray(0, SNIFF_BYTES - filled), filled);
      filled += Math.min(value.byteLength, SNIFF_BYTES - filled);
    }
  } catch {
    return false;
  } finally {
    reader.releaseLock();
  }
  const guess = detectFormat(head.subarray(0, filled), true);
  return guess.kind === 'format' && guess.format === 'mp3';
}

/**
 * A ready variant's file as the recording protocol reads a download: its size, always within
 * reach, and any byte range (`start` to `endInclusive`, null: to the end) as a stream read from
 * the file in chunks. The stream errors when the file is gone (the recording left the cache
 * before the first read).
 */
export function seekableFileSource(file: SeekableFile): Pick<CachedDownload, 'size' | 'withinReach' | 'stream'> {
  return {
    size: () => file.size,
    withinReach: () => true,
    stream(start, endInclusive = null) {
      const last = Math.min(endInclusive ?? file.size - 1, file.size - 1);
      let position = start;
      const handle = open(file.path, 'r');
      handle.catch(() => undefined);
      const close = async () => (await handle.catch(() => null))?.close().catch(() => undefined);
      const readAt = async (chunk: Uint8Array, at: number): Promise<number> => {
        try {
          return (await (await handle).read(chunk, 0, chunk.byteLength, at)).bytesRead;
        } catch (err) {
          await close();
          throw err;
        }
      };
      return new ReadableStream<Uint8Array>(
        {
          pull: async (controller) => {
            const length = Math.min(READ_CHUNK_BYTES, last - position + 1);
            const chunk = new Uint8Array(Math.max(0, length));
            const bytesRead = length > 0 ? await readAt(chunk, position) : 0;
            if (bytesRead === 0) {
              await close();
              controller.close();
              return;
            }
            position += bytesRead;
            controller.enqueue(bytesRead === length ? chunk : chunk.subarray(0, bytesRead));
          },
          cancel: close,
        },
        { highWaterMark: 0 },
      );
    },
  };
}
