/**
 * Peaks worker thread: peaks are computed off the renderer, in a worker main owns. Decoding a
 * long recording is seconds of CPU; here it runs beside main's event loop instead of on it, so
 * IPC and the recording protocol (which streams the audio being played) never wait for it.
 *
 * Protocol with {@link createWorkerDecoder} (worker-decoder.ts), one worker per recording:
 * in: `{ type: 'chunk', data: Uint8Array }`… then `{ type: 'end' }`;
 * out: `{ type: 'ack' }` once per chunk consumed (flow control), then
 * `{ type: 'progress', peaks: ComputedPeaks }` with the peaks so far a few times a second, then
 * `{ type: 'done', peaks: ComputedPeaks }` or `{ type: 'error', error: ApiErrorData }`.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { ApiError } from '../../shared/errors';
import { decodeToPeaks, UNDECODABLE_MESSAGE } from './decode';
import type { WorkerRequest, WorkerResponse } from './worker-decoder';

/** The port to main. @throws Error when this file is run other than as a worker thread. */
function portToMain(): MessagePort {
  if (!parentPort) throw new Error('peaks worker: must run as a worker thread');
  return parentPort;
}

const port = portToMain();

const queue: Uint8Array[] = [];
let ended = false;
let wake: (() => void) | null = null;

port.on('message', (message: WorkerRequest) => {
  if (message.type === 'chunk') queue.push(message.data);
  else ended = true;
  wake?.();
  wake = null;
});

async function* chunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const next = queue.shift();
    if (next) {
      post({ type: 'ack' });
      yield next;
      continue;
    }
    if (ended) return;
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

function post(message: WorkerResponse): void {
  port.postMessage(message);
}

decodeToPeaks(chunks(), { onProgress: (peaks) => post({ type: 'progress', peaks }) }).then(
  (peaks) => post({ type: 'done', peaks }),
  (err: unknown) =>
    post({
      type: 'error',
      error: err instanceof ApiError ? err.toData() : { kind: 'invalid_response', message: UNDECODABLE_MESSAGE },
    }),
);
