/**
 * Runs {@link decodeToPeaks} in a worker thread (worker.ts, built to `out/main/peaks-worker.js`)
 * so decoding never blocks main's event loop. Main keeps the download (and the API key); the
 * worker only sees audio bytes.
 */
import { Worker } from 'node:worker_threads';
import type { ApiErrorData } from '../../shared/errors';
import { ApiError } from '../../shared/errors';
import { UNDECODABLE_MESSAGE } from './decode';
import type { ComputedPeaks } from './reduce';

/** A decoder: recording bytes in order → peaks and exact duration (see decodeToPeaks). */
export type PeaksDecoder = (chunks: AsyncIterable<Uint8Array>) => Promise<ComputedPeaks>;

/** Messages main sends to the worker. */
export type WorkerRequest = { type: 'chunk'; data: Uint8Array } | { type: 'end' };
/** Messages the worker sends back. */
export type WorkerResponse =
  { type: 'ack' } | { type: 'done'; peaks: ComputedPeaks } | { type: 'error'; error: ApiErrorData };

/** Options of {@link createWorkerDecoder}. */
export interface WorkerDecoderOptions {
  /** Chunks sent but not yet consumed by the worker before main stops reading (default 8). */
  maxChunksInFlight?: number;
}

/**
 * A {@link PeaksDecoder} that starts one worker thread per recording from `scriptPath` (the built
 * worker). Chunks are transferred (not copied) with at most `maxChunksInFlight` waiting, so the
 * recording is never held whole.
 * @throws the error of `chunks` itself (a failed download) unchanged; ApiError kind
 *   'invalid_response' when the audio cannot be decoded or the worker dies.
 */
export function createWorkerDecoder(scriptPath: string, options: WorkerDecoderOptions = {}): PeaksDecoder {
  const maxInFlight = options.maxChunksInFlight ?? 8;
  return async (chunks) => {
    const worker = new Worker(scriptPath);
    const flow = createFlowControl(maxInFlight);
    const result = new Promise<ComputedPeaks>((resolve, reject) => {
      worker.on('message', (message: WorkerResponse) => {
        if (message.type === 'ack') flow.acknowledged();
        else if (message.type === 'done') resolve(message.peaks);
        else reject(new ApiError(message.error));
      });
      worker.on('error', () => reject(new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE })));
      worker.on('exit', () => reject(new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE })));
    });
    // The worker may fail early (unknown format): stop sending then.
    result.catch(() => flow.stop());
    try {
      for await (const chunk of chunks) {
        if (flow.stopped()) break;
        // Copy into a buffer of its own so transferring it cannot detach memory the stream still uses.
        const data = chunk.slice();
        worker.postMessage({ type: 'chunk', data } satisfies WorkerRequest, [data.buffer]);
        await flow.sent();
      }
      if (!flow.stopped()) worker.postMessage({ type: 'end' } satisfies WorkerRequest);
      return await result;
    } finally {
      await worker.terminate();
    }
  };
}

/**
 * Flow control of one decoding run: counts chunks the worker has not acknowledged yet, and holds
 * the sender while `maxInFlight` are waiting, until an acknowledgement or until the run stops.
 */
function createFlowControl(maxInFlight: number) {
  let inFlight = 0;
  let stopped = false;
  let wakeSender: (() => void) | null = null;
  const wake = () => {
    wakeSender?.();
    wakeSender = null;
  };
  return {
    /** Counts a chunk sent; resolves once there is room for the next one (or the run stopped). */
    async sent(): Promise<void> {
      inFlight += 1;
      while (inFlight >= maxInFlight && !stopped) await new Promise<void>((resolve) => (wakeSender = resolve));
    },
    /** The worker consumed a chunk. */
    acknowledged(): void {
      inFlight -= 1;
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
