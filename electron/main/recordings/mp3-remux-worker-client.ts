/**
 * Runs {@link remuxMp3ToMp4} in a worker thread (mp3-remux-worker.ts, built to
 * `out/main/mp3-remux-worker.js`), one worker per recording, so a long call's remux (about a
 * second of CPU in one piece) never holds main's event loop, and the memory it takes (a few
 * times the recording's size) is given back when the worker ends.
 */
import { rm } from 'node:fs/promises';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { Mp3Remux, Mp3Remuxer } from './mp3-remux';

/** What the worker is started with (its `workerData`). */
export interface RemuxWorkerData {
  mp3Path: string;
  mp4Path: string;
}

/** The worker's one message: the remux, or why it failed (the error's message). */
export type RemuxWorkerResponse = { ok: true; remux: Mp3Remux } | { ok: false; message: string };

/**
 * Heap limits of a remux worker, in MiB. The remux holds the MP3 (off the heap) and one packet
 * object per frame (about 94 000 for a 40-minute call at 22.05 kHz), well under 512 MiB for any
 * call within the recording cache's size cap; a worker past it is stopped by V8 instead of
 * swelling main's process, and the recording then plays as it is.
 */
export const REMUX_WORKER_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 512,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
};

/**
 * An {@link Mp3Remuxer} running each remux in a worker thread started from `scriptPath` (the
 * built worker). The worker never keeps the process alive; an aborted `signal` stops it and
 * deletes its partial output.
 * @throws Error with the remux's own message when it fails; Error when the worker stops without
 *   an answer (out of memory, crash) or `signal` is aborted
 */
export function createWorkerRemuxer(scriptPath: string, resourceLimits = REMUX_WORKER_LIMITS): Mp3Remuxer {
  return (mp3Path, mp4Path, signal) =>
    new Promise<Mp3Remux>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new Error('The MP3 remux was stopped.'));
        return;
      }
      const worker = new Worker(scriptPath, {
        workerData: { mp3Path, mp4Path } satisfies RemuxWorkerData,
        resourceLimits,
      });
      worker.unref();
      let settled = false;
      const settle = (act: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        act();
      };
      const onAbort = () =>
        settle(() => {
          // The worker's own cleanup does not run when it is stopped: its partial file is removed here.
          void worker
            .terminate()
            .then(() => rm(`${mp4Path}.part`, { force: true }))
            .finally(() => reject(new Error('The MP3 remux was stopped.')));
        });
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (message: RemuxWorkerResponse) =>
        settle(() => (message.ok ? resolve(message.remux) : reject(new Error(message.message)))),
      );
      worker.once('error', (err) =>
        settle(() => {
          const outOfMemory = (err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
          void rm(`${mp4Path}.part`, { force: true }).finally(() =>
            reject(new Error(outOfMemory ? 'The MP3 remux needed more memory than allowed.' : err.message)),
          );
        }),
      );
      worker.once('exit', () =>
        settle(() => {
          void rm(`${mp4Path}.part`, { force: true }).finally(() =>
            reject(new Error('The MP3 remux worker stopped without an answer.')),
          );
        }),
      );
    });
}
