/**
 * Watching a recording's bytes as they pass to a decoder: why the download failed, if it did (to
 * tell a failed download apart from audio a decoder cannot read), and its first bytes (where an
 * MP3 declares its encoder delay).
 */

/** A watched stream; see {@link watchStream}. */
export interface WatchedStream {
  stream: ReadableStream<Uint8Array>;
  /** Null while the source has not failed. */
  failure: { error: unknown } | null;
  /** The first bytes read so far (up to the length asked for, see {@link WatchOptions.headBytes}). */
  head(): Uint8Array;
  /** Stops reading the source (the watched stream then ends), also while the watched stream is being read. */
  cancel(): void;
}

/** Options of {@link watchStream}. */
export interface WatchOptions {
  /**
   * How many leading bytes to keep, given the first 10 (an MP3's ID3 tag can hold pictures, so
   * its length decides); default none.
   */
  headBytes?: (first10: Uint8Array) => number;
}

/**
 * `source` read chunk by chunk as the returned stream is read (no reading ahead), with the
 * source's error kept in `failure` when it errors. Cancelling the returned stream cancels the source.
 */
export function watchStream(source: ReadableStream<Uint8Array>, options: WatchOptions = {}): WatchedStream {
  const reader = source.getReader();
  let head = new Uint8Array(0);
  let wanted = options.headBytes ? Infinity : 0;
  const keep = (chunk: Uint8Array): void => {
    if (head.length >= wanted) return;
    const joined = new Uint8Array(head.length + Math.min(chunk.length, wanted - head.length));
    joined.set(head);
    joined.set(chunk.subarray(0, joined.length - head.length), head.length);
    head = joined;
    if (options.headBytes && wanted === Infinity && head.length >= 10) wanted = options.headBytes(head.subarray(0, 10));
    if (head.length > wanted) head = head.slice(0, wanted);
  };
  const watched: WatchedStream = {
    failure: null,
    head: () => head,
    stream: new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else {
            keep(value);
            controller.enqueue(value);
          }
        } catch (error) {
          watched.failure = { error };
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    }),
    cancel: () => void reader.cancel().catch(() => undefined),
  };
  return watched;
}
