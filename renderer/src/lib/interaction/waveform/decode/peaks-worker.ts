/**
 * The page's peaks worker: decodes recordings to peaks with Chromium's decoders
 * (page-decode.ts) off the page's main thread, so drawing and playback never wait for it. Runs
 * as a module worker (`new Worker(new URL('./peaks-worker.ts', import.meta.url), { type:
 * 'module' })`), built by Vite into a file of the app's own origin, which the CSP's
 * `script-src 'self'` allows (worker-src falls back to it). Protocol: worker-protocol.ts.
 */
import { ApiError } from '$shared/errors';
import { UNDECODABLE_MESSAGE } from '$shared/peaks-decoding';
import { decodeStreamToPeaks } from './page-decode';
import { watchStream } from './stream-watch';
import type { PageWorkerRequest, PageWorkerResponse } from './worker-protocol';

/** The recordings being decoded, by id, with a way to stop reading each. */
const running = new Map<number, { cancel(): void }>();

function post(message: PageWorkerResponse): void {
  self.postMessage(message);
}

async function decode(id: number, stream: ReadableStream<Uint8Array>): Promise<void> {
  const watched = watchStream(stream);
  running.set(id, watched);
  // After a cancel the page has forgotten `id`; what the decode still says is not sent.
  const live = (): boolean => running.has(id);
  try {
    const peaks = await decodeStreamToPeaks(watched.stream, {
      onProgress: (partial) => {
        if (live()) post({ type: 'progress', id, peaks: partial });
      },
    });
    if (live()) post({ type: 'done', id, peaks });
  } catch (err) {
    if (!live()) return;
    if (watched.failure) post({ type: 'stream-failed', id });
    else {
      const error =
        err instanceof ApiError ? err.toData() : { kind: 'invalid_response' as const, message: UNDECODABLE_MESSAGE };
      post({ type: 'error', id, error });
    }
  } finally {
    running.delete(id);
  }
}

self.addEventListener('message', (event: MessageEvent<PageWorkerRequest>) => {
  const message = event.data;
  if (message.type === 'decode') void decode(message.id, message.stream);
  else {
    running.get(message.id)?.cancel();
    running.delete(message.id);
  }
});
