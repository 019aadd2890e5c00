/**
 * Ends a download that trickles. A stall timeout alone lets a server keep a recording download
 * open for ever by sending one byte just before each timeout; this guard also ends a body whose
 * average rate over a window stays under a floor, and one that takes longer than a deadline.
 *
 * Only time spent waiting for the server counts: while the reader does not ask for more (a
 * paused player with a full buffer), no clock runs, so a slow reader is never blamed on the server.
 */

/** The limits of one body. All durations in milliseconds. */
export interface TransferLimits {
  /** Longest wait for one chunk. */
  stallMs: number;
  /** Lowest average rate in bytes per second over `windowMs` of waiting; 0 turns the check off. */
  minBytesPerSecond: number;
  /** Waiting time the average is taken over; the check starts once this much has passed. */
  windowMs: number;
  /** Longest total waiting time for the whole body; absent for none. */
  deadlineMs?: number;
}

/**
 * Defaults for recordings: under 1 KiB/s over 30 s is too slow (a telephone-quality recording
 * is 1-8 KB per second of audio, so the player would starve), and 15 minutes of waiting is the
 * most one recording may take (1 GiB at 1.2 MB/s). The stall timeout is the caller's.
 */
export const RECORDING_TRANSFER_LIMITS: Omit<TransferLimits, 'stallMs'> = {
  minBytesPerSecond: 1024,
  windowMs: 30_000,
  deadlineMs: 15 * 60_000,
};

/** Which limit ended the body. */
export type TransferLimitKind = 'stalled' | 'too_slow' | 'deadline';

/** The error a limited body fails with. `message` says what the server did, in words. */
export class TransferLimitError extends Error {
  constructor(
    readonly kind: TransferLimitKind,
    message: string,
  ) {
    super(message);
    this.name = 'TransferLimitError';
  }
}

/** The clock the guard reads (`performance.now` by default; tests pass the fake clock's). */
export interface TransferClock {
  /** Milliseconds, monotonic. */
  now(): number;
}

const systemClock: TransferClock = { now: () => performance.now() };

/** Waiting time so far and bytes received by then. */
interface Sample {
  waitedMs: number;
  bytes: number;
}

/**
 * `body`, read on demand under `limits`: a read that waits longer than `stallMs` fails with a
 * `stalled` {@link TransferLimitError}; once `windowMs` of waiting has passed, a chunk that leaves
 * the average of the last window under `minBytesPerSecond` fails with `too_slow`; waiting longer
 * than `deadlineMs` in all fails with `deadline`. On failure the source is cancelled. Cancelling the
 * returned stream cancels the source.
 * @param name what is downloaded, for the message ("The recording server")
 */
export function limitTransfer(
  body: ReadableStream<Uint8Array>,
  limits: TransferLimits,
  name = 'The server',
  clock: TransferClock = systemClock,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const samples: Sample[] = [{ waitedMs: 0, bytes: 0 }];
  let waitedMs = 0;
  let bytes = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const started = clock.now();
      const budget = limits.deadlineMs === undefined ? Infinity : limits.deadlineMs - waitedMs;
      const wait = Math.min(limits.stallMs, budget);
      const outcome: { failure: TransferLimitError | null } = { failure: null };
      const timer = setTimeout(() => {
        outcome.failure =
          wait === limits.stallMs
            ? new TransferLimitError(
                'stalled',
                `${name} sent nothing for ${seconds(limits.stallMs)}; Voice Review stopped waiting.`,
              )
            : deadlineError(name, limits.deadlineMs ?? 0);
        void reader.cancel(outcome.failure).catch(() => undefined);
      }, wait);
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        clearTimeout(timer);
        controller.error(outcome.failure ?? err);
        return;
      } finally {
        clearTimeout(timer);
      }
      if (outcome.failure) {
        controller.error(outcome.failure);
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      waitedMs += clock.now() - started;
      bytes += chunk.value.byteLength;
      const slow = tooSlow(samples, waitedMs, bytes, limits, name);
      if (slow) {
        await reader.cancel(slow).catch(() => undefined);
        controller.error(slow);
        return;
      }
      controller.enqueue(chunk.value);
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}

/**
 * Records a sample and returns the `too_slow` error when the bytes of the last window (at least
 * `windowMs` of waiting) average under the floor; drops samples older than the window needs.
 */
function tooSlow(
  samples: Sample[],
  waitedMs: number,
  bytes: number,
  limits: TransferLimits,
  name: string,
): TransferLimitError | null {
  samples.push({ waitedMs, bytes });
  if (limits.minBytesPerSecond <= 0 || waitedMs < limits.windowMs) return null;
  // The newest sample at least a window back: the average is taken over [that sample, now].
  let start = 0;
  for (let i = 0; i < samples.length; i++) {
    if ((samples[i]?.waitedMs ?? 0) <= waitedMs - limits.windowMs) start = i;
  }
  samples.splice(0, start);
  const from = samples[0] ?? { waitedMs: 0, bytes: 0 };
  const spanMs = waitedMs - from.waitedMs;
  const rate = ((bytes - from.bytes) * 1000) / spanMs;
  if (rate >= limits.minBytesPerSecond) return null;
  return new TransferLimitError(
    'too_slow',
    `${name} sent ${bytes - from.bytes} bytes in ${seconds(spanMs)} (less than ${kilobytes(limits.minBytesPerSecond)}/s); ` +
      'Voice Review stopped the download. Try again later; if it keeps happening, the network or the server is too slow.',
  );
}

function deadlineError(name: string, deadlineMs: number): TransferLimitError {
  return new TransferLimitError(
    'deadline',
    `${name} took longer than ${seconds(deadlineMs)} to send the whole file; Voice Review stopped the download.`,
  );
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 120 ? `${Math.round(s / 60)} minutes` : `${s} s`;
}

function kilobytes(bytesPerSecond: number): string {
  return bytesPerSecond >= 1024 ? `${Math.round(bytesPerSecond / 1024)} KB` : `${bytesPerSecond} bytes`;
}
