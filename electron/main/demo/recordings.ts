/** Recordings of the demo service: `GET|HEAD /v1/recordings/{file}`, Ogg/Opus, byte ranges. */
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { HttpError, parseRange } from './http';

/** A recording file name: no path separators, no leading dot. */
const RECORDING_FILE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/**
 * Answers with the recording `fileName` from `recordingsDir`: 200, or 206 for a `Range` request,
 * with weak validators (ETag from size and modification time, Last-Modified).
 * @throws HttpError 404 for an unknown or malformed file name, 416 for an unsatisfiable range
 */
export async function serveRecording(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  recordingsDir: string,
  fileName: string,
): Promise<void> {
  if (!RECORDING_FILE.test(fileName)) throw new HttpError(404, `No recording named ${fileName}`);
  const file = path.join(recordingsDir, fileName);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile()) throw new HttpError(404, `No recording named ${fileName}`);

  const size = stat.size;
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    throw new HttpError(416, `Range ${req.headers.range ?? ''} is outside the ${size}-byte recording`, {
      headers: { 'Content-Range': `bytes */${size}` },
    });
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  const headers: Record<string, string | number> = {
    'Content-Type': 'audio/ogg',
    'Accept-Ranges': 'bytes',
    'Content-Length': size === 0 ? 0 : end - start + 1,
    'Cache-Control': 'no-store',
    // Validators from the file's stat (size + modification time), so clients such as the peaks
    // cache can tell a changed recording from the one they have. Weak: not byte-compared.
    ETag: `W/"${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
    'Last-Modified': stat.mtime.toUTCString(),
  };
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  await new Promise<void>((resolve) => {
    const stream = fs.createReadStream(file, { start, end });
    stream.on('error', (error) => {
      res.destroy(error);
      resolve();
    });
    res.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}
