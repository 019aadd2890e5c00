/**
 * How many real services serve recordings, played by the demo: the recording URL on the API's
 * origin answers 302 to a short-lived "signed" URL on another origin (object storage), which needs
 * no key. The storage is a second server on 127.0.0.1 (another port, so another origin).
 *
 * Two extra interactions are answered by the demo (but not offered in its list, so the seeded
 * choices stay as they are): {@link DEMO_REDIRECTED_SID}, a copy of the first finished call whose
 * recording redirects to the storage, and {@link DEMO_GONE_SID}, a copy whose recording link is
 * dead (404).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError } from './http';
import { serveRecording } from './recordings';
import type { DemoSeed } from './seed';

/** A call whose recording URL redirects (302) to signed storage on another origin. */
export const DEMO_REDIRECTED_SID = 'interaction_5e1d0c0a-7e57-4d1e-9a11-00000000a302';
/** A call whose recording link no longer exists (404). */
export const DEMO_GONE_SID = 'interaction_5e1d0c0a-7e57-4d1e-9a11-00000000a404';

/** The storage server: `GET|HEAD /signed/{file}?expires=…` serves a recording without a key. */
export interface SignedStorage {
  origin: string;
  close(): Promise<void>;
}

/** Starts the storage on 127.0.0.1 over `recordingsDir`. */
export async function startSignedStorage(recordingsDir: string): Promise<SignedStorage> {
  const server = http.createServer((req, res) => {
    const file = /^\/signed\/([^/?]+)\?expires=\d+$/.exec(req.url ?? '')?.[1];
    const served = file
      ? serveRecording(req, res, recordingsDir, file)
      : Promise.reject(new HttpError(404, 'No such object'));
    served.catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(error instanceof HttpError ? error.statusCode : 500, { 'Content-Type': 'text/plain' })
          .end('NoSuchKey');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Adds the two extra interactions to `seed` (copies of its first call with a recording): one whose
 * `recording_url` is `signed-recordings/{file}` (answered by {@link redirectToStorage}), one whose
 * file does not exist.
 */
export function addStorageCalls(seed: DemoSeed): void {
  const model = seed.interactions.find((i) => typeof i.recording_url === 'string');
  if (!model || typeof model.recording_url !== 'string') return;
  const file = model.recording_url.split('/').pop() ?? '';
  seed.interactions.push(
    { ...structuredClone(model), sid: DEMO_REDIRECTED_SID, recording_url: `signed-recordings/${file}` },
    { ...structuredClone(model), sid: DEMO_GONE_SID, recording_url: `recordings/deleted-${file}` },
  );
}

/** Answers `GET /v1/signed-recordings/{file}` (key already checked): 302 to the storage, valid for 10 minutes. */
export function redirectToStorage(res: http.ServerResponse, storageOrigin: string, file: string): void {
  const expires = Math.floor(Date.now() / 1000) + 600;
  res.writeHead(302, { Location: `${storageOrigin}/signed/${encodeURIComponent(file)}?expires=${expires}` }).end();
}
