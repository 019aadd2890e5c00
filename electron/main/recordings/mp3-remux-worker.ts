/**
 * MP3 remux worker thread: rewraps one recording's MP3 in MP4 ({@link remuxMp3ToMp4}) beside
 * main's event loop. The remux of a 40-minute call is about a second of CPU in one piece (its
 * awaits never yield to the event loop), which would hold IPC and the recording protocol (the
 * audio being played) in main.
 *
 * One worker per recording, started by {@link createWorkerRemuxer}
 * (mp3-remux-worker-client.ts) with the two paths as its `workerData`
 * ({@link RemuxWorkerData}); it posts one {@link RemuxWorkerResponse} and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { remuxMp3ToMp4 } from './mp3-remux';
import type { RemuxWorkerData, RemuxWorkerResponse } from './mp3-remux-worker-client';

if (!parentPort) throw new Error('MP3 remux worker: must run as a worker thread');
const port = parentPort;
const { mp3Path, mp4Path } = workerData as RemuxWorkerData;

remuxMp3ToMp4(mp3Path, mp4Path).then(
  (remux) => port.postMessage({ ok: true, remux } satisfies RemuxWorkerResponse),
  (err: unknown) =>
    port.postMessage({
      ok: false,
      message: err instanceof Error ? err.message : String(err),
    } satisfies RemuxWorkerResponse),
);
