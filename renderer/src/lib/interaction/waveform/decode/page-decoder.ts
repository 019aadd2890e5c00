/**
 * The page's side of its peaks worker (peaks-worker.ts): hands a recording's bytes to the worker
 * as a transferred stream and resolves with the peaks, reporting the peaks decoded so far on the
 * way. One worker serves recording after recording (made on the first decode, kept warm).
 */
import { ApiError } from '$shared/errors';
import { UNDECODABLE_MESSAGE } from '$shared/peaks-decoding';
import type { ComputedPeaks } from '$shared/peaks-reducer';
import { watchStream } from './stream-watch';
import type { PageWorkerRequest, PageWorkerResponse } from './worker-protocol';

/** Options of {@link PageDecoder.decode}. */
export interface PageDecodeRequest {
  /** The peaks decoded so far (`durationSeconds` = seconds covered), a few times a second. */
  onProgress?: (peaks: ComputedPeaks) => void;
  /** Stops the decode: the promise rejects with an `AbortError` DOMException and the worker stops reading. */
  signal?: AbortSignal;
}

/** Decodes recordings to peaks in a Web Worker with Chromium's own decoders. */
export interface PageDecoder {
  /**
   * Reads `bytes` (the recording, in order) to the end in the worker and resolves with its peaks
   * and exact decoded duration.
   * @throws ApiError kind 'invalid_response' (the words main's decoder uses) when the audio
   *   cannot be decoded or is past the caps; the stream's own error when `bytes` fails; an
   *   `AbortError` when `signal` aborts.
   */
  decode(bytes: ReadableStream<Uint8Array>, request?: PageDecodeRequest): Promise<ComputedPeaks>;
  /** Ends the worker; decodes under way reject. */
  close(): void;
}

/** Why `signal` aborted, as an Error (an `AbortError` DOMException unless the caller gave its own). */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('The decode was aborted.', 'AbortError');
}

/** The error a failed stream gave, as an Error (a stream may be errored with anything). */
function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  return new ApiError({ kind: 'network', message: 'The recording could not be read to the end.' });
}

/** The worker as Vite builds it: a module of the app's own origin. */
function startPeaksWorker(): Worker {
  return new Worker(new URL('./peaks-worker.ts', import.meta.url), { type: 'module', name: 'peaks' });
}

/** A decode under way, as the page sees it. */
interface Pending {
  resolve(peaks: ComputedPeaks): void;
  reject(error: Error): void;
  onProgress?: (peaks: ComputedPeaks) => void;
  streamFailure(): Error;
}

/** A {@link PageDecoder}; `startWorker` is the seam tests and the benchmark may replace. */
export function createPageDecoder(startWorker: () => Worker = startPeaksWorker): PageDecoder {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const fail = (error: Error): void => {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
    worker?.terminate();
    worker = null;
  };

  const onMessage = (event: MessageEvent<PageWorkerResponse>): void => {
    const message = event.data;
    const entry = pending.get(message.id);
    if (!entry) return;
    if (message.type === 'progress') {
      entry.onProgress?.(message.peaks);
      return;
    }
    pending.delete(message.id);
    if (message.type === 'done') entry.resolve(message.peaks);
    else if (message.type === 'error') entry.reject(new ApiError(message.error));
    else entry.reject(entry.streamFailure());
  };

  const workerFor = (): Worker => {
    if (worker) return worker;
    const started = startWorker();
    started.addEventListener('message', onMessage);
    // The worker's script failed to load or threw: nothing it was given will be answered.
    started.addEventListener('error', () =>
      fail(new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE })),
    );
    worker = started;
    return started;
  };

  return {
    decode(bytes, request = {}) {
      const { signal } = request;
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      const id = nextId++;
      const watched = watchStream(bytes);
      const target = workerFor();
      return new Promise<ComputedPeaks>((resolve, reject) => {
        const onAbort = (): void => {
          if (!pending.delete(id)) return;
          watched.cancel();
          target.postMessage({ type: 'cancel', id } satisfies PageWorkerRequest);
          reject(abortReason(signal));
        };
        const settle = (): void => signal?.removeEventListener('abort', onAbort);
        pending.set(id, {
          resolve: (peaks) => {
            settle();
            resolve(peaks);
          },
          reject: (error) => {
            settle();
            reject(error);
          },
          ...(request.onProgress ? { onProgress: request.onProgress } : {}),
          streamFailure: () => asError(watched.failure?.error),
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        const message: PageWorkerRequest = { type: 'decode', id, stream: watched.stream };
        target.postMessage(message, [watched.stream]);
      });
    },
    close() {
      fail(new ApiError({ kind: 'invalid_response', message: 'The waveform decoder was closed.' }));
    },
  };
}
