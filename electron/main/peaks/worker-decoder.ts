/**
 * Runs {@link decodeToPeaks} in a worker thread (worker.ts, built to `out/main/peaks-worker.js`)
 * so decoding never blocks main's event loop. Main keeps the download (and the API key); the
 * worker only sees audio bytes.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { ApiErrorData } from '$shared/errors';
import { ApiError } from '$shared/errors';
import type { ComputedPeaks } from '$shared/peaks-reducer';

/**
 * A decoder: recording bytes in order → peaks and exact duration (see decodeToPeaks), with
 * `onProgress` given the peaks of the audio decoded so far a few times a second meanwhile.
 */
export type PeaksDecoder = (
  chunks: AsyncIterable<Uint8Array>,
  onProgress?: (peaks: ComputedPeaks) => void,
) => Promise<ComputedPeaks>;

/** Messages main sends to the worker. */
export type WorkerRequest = { type: 'chunk'; data: Uint8Array } | { type: 'end' };
/** Messages the worker sends back. */
export type WorkerResponse =
  | { type: 'ack' }
  | { type: 'progress'; peaks: ComputedPeaks }
  | { type: 'done'; peaks: ComputedPeaks }
  | { type: 'error'; error: ApiErrorData };

/** Options of {@link createWorkerDecoder}. */
export interface WorkerDecoderOptions {
  /**
   * Bytes sent but not yet taken up by the worker before main stops reading (default
   * {@link MAX_BYTES_IN_FLIGHT}); at least one chunk is always in flight.
   */
  maxBytesInFlight?: number;
  /** V8 heap limits of each worker (default {@link PEAKS_WORKER_LIMITS}). */
  resourceLimits?: ResourceLimits;
  /** Start a worker at once and keep one waiting between recordings (default true). */
  keepWarm?: boolean;
}

/** A {@link PeaksDecoder} backed by worker threads, which main stops with `close()` at quit. */
export interface WorkerPeaksDecoder extends PeaksDecoder {
  /** Stops the waiting worker; recordings still decoding finish and their workers stop then. */
  close(): Promise<void>;
}

/**
 * Heap limits of a peaks worker, in MiB. Decoding holds one slice of PCM and the fine buckets
 * (8 MiB per channel at most), so 256 MiB of old generation is ample for any recording within
 * the caps; a worker past it is stopped by V8 instead of swelling main's process.
 */
export const PEAKS_WORKER_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
};

/** Message of the error when the worker is stopped for using more memory than allowed. */
export const WORKER_OUT_OF_MEMORY_MESSAGE =
  'The waveform is not drawn for this recording because decoding it needed more memory than allowed; it may still play.';

/**
 * Default bytes in flight to a worker: 4 MiB, about 17 minutes of a call at 32 kbit/s and a
 * second of decoding: enough that the worker keeps decoding while main's event loop is held by
 * other work (building a call's view holds it for up to a few hundred milliseconds), small enough
 * that the recording is never held whole.
 */
const MAX_BYTES_IN_FLIGHT = 4 * 1024 * 1024;

/** Message of the error when the worker stops without an answer (crash or unexpected exit). */
export const WORKER_STOPPED_MESSAGE =
  'The waveform is not drawn for this recording because its decoder stopped unexpectedly; it may still play.';

/**
 * A {@link PeaksDecoder} running in worker threads started from `scriptPath` (the built worker).
 * One worker is started at once and kept waiting (unreferenced, so it never keeps the process
 * alive), so a call's peaks start decoding without a thread start or a WebAssembly compile; a
 * second recording decoded at the same time gets a worker of its own. A worker that decoded a
 * recording is kept as the waiting one; a worker whose recording failed is stopped, so no state
 * of a broken stream carries over. Chunks are transferred (not copied) with at most
 * `maxBytesInFlight` waiting, so the recording is never held whole.
 * @throws the error of `chunks` itself (a failed download) unchanged; ApiError kind
 *   'invalid_response' when the audio cannot be decoded, is over a decoding cap, or the worker
 *   dies ({@link WORKER_OUT_OF_MEMORY_MESSAGE} when it outgrew its heap limits).
 */
export function createWorkerDecoder(scriptPath: string, options: WorkerDecoderOptions = {}): WorkerPeaksDecoder {
  const maxInFlight = options.maxBytesInFlight ?? MAX_BYTES_IN_FLIGHT;
  const keepWarm = options.keepWarm ?? true;
  /** The worker kept waiting for the next recording, if any. */
  const pool: { waiting: Worker | null; closed: boolean } = { waiting: null, closed: false };
  const spawn = (): Worker => {
    const worker = new Worker(scriptPath, { resourceLimits: options.resourceLimits ?? PEAKS_WORKER_LIMITS });
    // A waiting worker that fails or exits is dropped (an 'error' without a listener would throw in main).
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      if (pool.waiting === worker) pool.waiting = null;
    });
    worker.unref();
    return worker;
  };
  if (keepWarm) pool.waiting = spawn();
  /** Keeps `worker` as the waiting one, or stops it when another already waits or the decoder is closed. */
  const keep = async (worker: Worker): Promise<void> => {
    if (pool.waiting === null && !pool.closed) pool.waiting = worker;
    else await worker.terminate();
  };

  const decode = async (chunks: AsyncIterable<Uint8Array>, onProgress?: (peaks: ComputedPeaks) => void) => {
    const worker = pool.waiting ?? spawn();
    pool.waiting = null;
    worker.ref();
    let reusable = false;
    try {
      const peaks = await decodeIn(worker, chunks, maxInFlight, onProgress);
      reusable = keepWarm;
      return peaks;
    } finally {
      worker.unref();
      await (reusable ? keep(worker) : worker.terminate());
    }
  };
  return Object.assign(decode, {
    close: async () => {
      pool.closed = true;
      const worker = pool.waiting;
      pool.waiting = null;
      await worker?.terminate();
    },
  });
}

/** Sends `chunks` to `worker` (one recording) and resolves with its peaks; see {@link createWorkerDecoder}. */
async function decodeIn(
  worker: Worker,
  chunks: AsyncIterable<Uint8Array>,
  maxInFlight: number,
  onProgress?: (peaks: ComputedPeaks) => void,
): Promise<ComputedPeaks> {
  const flow = createFlowControl(maxInFlight);
  let onMessage: (message: WorkerResponse) => void = () => undefined;
  let onError: (err: unknown) => void = () => undefined;
  let onExit: () => void = () => undefined;
  const result = new Promise<ComputedPeaks>((resolve, reject) => {
    onMessage = (message) => {
      if (message.type === 'ack') flow.acknowledged();
      else if (message.type === 'progress') onProgress?.(message.peaks);
      else if (message.type === 'done') resolve(message.peaks);
      else reject(new ApiError(message.error));
    };
    onError = (err) => reject(workerDied(err));
    onExit = () => reject(new ApiError({ kind: 'invalid_response', message: WORKER_STOPPED_MESSAGE }));
  });
  worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  // The worker may fail early (unknown format): stop sending then.
  result.catch(() => flow.stop());
  try {
    for await (const chunk of chunks) {
      if (flow.stopped()) break;
      // Copy into a buffer of its own so transferring it cannot detach memory the stream still uses.
      const data = chunk.slice();
      worker.postMessage({ type: 'chunk', data } satisfies WorkerRequest, [data.buffer]);
      await flow.sent(data.byteLength);
    }
    if (!flow.stopped()) worker.postMessage({ type: 'end' } satisfies WorkerRequest);
    return await result;
  } finally {
    worker.off('message', onMessage).off('error', onError).off('exit', onExit);
  }
}

/** The worded error for a worker that emitted `error` (out of memory, or an uncaught exception). */
function workerDied(err: unknown): ApiError {
  const outOfMemory = (err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
  return new ApiError({
    kind: 'invalid_response',
    message: outOfMemory ? WORKER_OUT_OF_MEMORY_MESSAGE : WORKER_STOPPED_MESSAGE,
  });
}

/**
 * Flow control of one decoding run: counts the bytes of the chunks the worker has not
 * acknowledged yet (it acknowledges each chunk, in order, as it takes it up), and holds the sender
 * while `maxBytesInFlight` or more are waiting, until an acknowledgement or until the run stops.
 */
function createFlowControl(maxBytesInFlight: number) {
  /** Sizes of the chunks not acknowledged yet, oldest first. */
  const sizes: number[] = [];
  let inFlight = 0;
  let stopped = false;
  let wakeSender: (() => void) | null = null;
  const wake = () => {
    wakeSender?.();
    wakeSender = null;
  };
  return {
    /** Counts a chunk of `bytes` sent; resolves once there is room for the next one (or the run stopped). */
    async sent(bytes: number): Promise<void> {
      sizes.push(bytes);
      inFlight += bytes;
      while (inFlight >= maxBytesInFlight && !stopped) await new Promise<void>((resolve) => (wakeSender = resolve));
    },
    /** The worker took up the oldest chunk. */
    acknowledged(): void {
      inFlight -= sizes.shift() ?? 0;
      wake();
    },
    /** The run failed: nothing more is sent, and a waiting sender goes on. */
    stop(): void {
      stopped = true;
      wake();
    },
    stopped: (): boolean => stopped,
  };
}
