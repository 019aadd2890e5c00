/**
 * The recording as the peaks decoder reads it: the bytes of the run's recording cache
 * (recording-cache.ts), the same download the player streams, read as they arrive; and the
 * validators of that download, for the peaks disk cache's key.
 */
import type { RecordingValidators } from './cache';

/** The body as chunks; a read error (a RecordingError: stall, cut, too large) is thrown as is. */
export async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const result = await reader.read();
      if (result.done) return;
      yield result.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** ETag, Last-Modified and Content-Length of a recording's answer (null where absent). */
export function validatorsFrom(headers: Headers): RecordingValidators {
  return {
    etag: headers.get('etag'),
    lastModified: headers.get('last-modified'),
    contentLength: headers.get('content-length'),
  };
}
