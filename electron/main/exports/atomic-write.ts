/**
 * Writing a file the user chose, atomically: the bytes go to a temporary file in the same folder
 * (so the final rename stays on one file system), which is renamed over the target only once all
 * of it is written and flushed. A failed or cancelled write removes the temporary file, so the
 * target is either untouched or complete, never partial.
 */
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Options of {@link writeAtomically}. */
export interface AtomicWriteOptions {
  /** Aborting it stops the write; the temporary file is removed and the call rejects with the abort reason. */
  signal?: AbortSignal;
  /** Told the bytes written so far after each chunk. */
  onBytes?: (written: number) => void;
  /** File mode of the new file (default 0600: call data is personal). */
  mode?: number;
}

/** The temporary file next to `target`: hidden, named after it, with a random part. */
export function temporaryPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomUUID().slice(0, 8)}.part`);
}

/**
 * Writes `source` (text as UTF-8, or a stream of bytes) to `target` atomically.
 * @returns the number of bytes written
 * @throws Error from the file system (permissions, disk full), from the stream, or the signal's
 *   reason when aborted; the target is then unchanged and no temporary file is left.
 */
export async function writeAtomically(
  target: string,
  source: string | ReadableStream<Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<number> {
  const temporary = temporaryPathFor(target);
  const file = await open(temporary, 'wx', options.mode ?? 0o600);
  const stream = typeof source === 'string' ? textStream(source) : source;
  const reader = stream.getReader();
  // A stalled source must not hold a cancel back: cancelling the reader ends the pending read.
  const stop = () => void reader.cancel(options.signal?.reason).catch(() => undefined);
  options.signal?.addEventListener('abort', stop, { once: true });
  let written = 0;
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const { done, value } = await reader.read();
      options.signal?.throwIfAborted();
      if (done) break;
      await file.write(value, 0, value.byteLength);
      written += value.byteLength;
      options.onBytes?.(written);
    }
    await file.sync();
    await file.close();
    await rename(temporary, target);
    return written;
  } catch (err) {
    stop();
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw err;
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
}

/** `text` as UTF-8 in one chunk. */
function textStream(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}
