/**
 * Messages between the page and its peaks worker (peaks-worker.ts), per recording `id`:
 * page → worker: `decode` with the recording's bytes as a transferred ReadableStream, or `cancel`;
 * worker → page: `progress` with the peaks so far a few times a second, then `done` with the
 * final peaks, or `error` with a typed error, or `stream-failed` when the stream itself failed
 * (the page knows why: it watched the stream before handing it over).
 */
import type { ApiErrorData } from '$shared/errors';
import type { ComputedPeaks } from '$shared/peaks-reducer';

/** What the page sends its peaks worker. */
export type PageWorkerRequest =
  { type: 'decode'; id: number; stream: ReadableStream<Uint8Array> } | { type: 'cancel'; id: number };

/** What the peaks worker answers. */
export type PageWorkerResponse =
  | { type: 'progress'; id: number; peaks: ComputedPeaks }
  | { type: 'done'; id: number; peaks: ComputedPeaks }
  | { type: 'error'; id: number; error: ApiErrorData }
  | { type: 'stream-failed'; id: number };
