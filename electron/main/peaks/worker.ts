/**
 * Peaks worker thread: peaks are computed off the renderer, in a worker main owns. Decoding a
 * long recording is seconds of CPU; here it runs beside main's event loop instead of on it, so
 * IPC and the recording protocol (which streams the audio being played) never wait for it.
 *
 * A worker decodes one recording after another (main keeps one warm between recordings, see
 * worker-decoder.ts), and warms the common decoders up as soon as it starts, so a short call's
 * waveform does not wait for a thread start and a WebAssembly compile.
 *
 * Protocol with {@link createWorkerDecoder} (worker-decoder.ts), per recording:
 * in: `{ type: 'chunk', data: Uint8Array }`… then `{ type: 'end' }`;
 * out: `{ type: 'ack' }` once per chunk consumed (flow control), then
 * `{ type: 'progress', peaks: ComputedPeaks }` with the peaks so far a few times a second, then
 * `{ type: 'done', peaks: ComputedPeaks }` or `{ type: 'error', error: ApiErrorData }`. After
 * `done` the worker waits for the next recording's chunks; after `error` main stops it.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { ApiError } from '$shared/errors';
import { decodeToPeaks, UNDECODABLE_MESSAGE } from './decode';
import { warmUpPeaksDecoding } from './warm-up';
import type { WorkerRequest, WorkerResponse } from './worker-decoder';

/** The port to main. @throws Error when this file is run other than as a worker thread. */
function portToMain(): MessagePort {
  if (!parentPort) throw new Error('peaks worker: must run as a worker thread');
  return parentPort;
}

const port = portToMain();

/** Chunks of the current recording not yet decoded, and whether its last chunk was sent. */
let queue: Uint8Array[] = [];
let ended = false;
let wake: (() => void) | null = null;

port.on('message', (message: WorkerRequest) => {
  if (message.type === 'chunk') queue.push(message.data);
  else ended = true;
  wake?.();
  wake = null;
});

/** The current recording's bytes, as main sends them. */
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

/** Decodes recordings one after another, for as long as main keeps this worker. */
async function serve(): Promise<never> {
  for (;;) {
    try {
      const peaks = await decodeToPeaks(chunks(), {
        onProgress: (partial) => post({ type: 'progress', peaks: partial }),
      });
      post({ type: 'done', peaks });
    } catch (err) {
      post({
        type: 'error',
        error: err instanceof ApiError ? err.toData() : { kind: 'invalid_response', message: UNDECODABLE_MESSAGE },
      });
    }
    queue = [];
    ended = false;
  }
}

// Recordings sent during the warm-up wait in the queue until it is done.
void warmUpPeaksDecoding().then(serve);
