/**
 * Fetching a recording for peaks, through the API client's recording fetcher
 * (api/recording-fetcher.ts): the same redirect, destination, key, timeout and size rules as the
 * player's recording protocol, and the same worded problems (api/recording-errors.ts).
 */
import { ApiError } from '../../shared/errors';
import type { RecordingFetcher } from '../api/recording-fetcher';
import { RecordingError } from '../api/recording-errors';
import type { RecordingValidators } from './cache';
import { UNDECODABLE_MESSAGE } from './decode';
import type { ComputedPeaks } from './reduce';
import type { PeaksDecoder } from './worker-decoder';

/**
 * The validators from a HEAD, or from a 1-byte Range GET when HEAD is refused with an HTTP status
 * (some servers answer 405, and URLs signed for GET answer 403 to HEAD); all null when neither
 * tells. Any other failure of the HEAD (unreachable, timed out, an unsafe destination, a refused
 * redirect) fails the call with that error: the download would fail the same way.
 */
export async function validatorsOf(fetcher: RecordingFetcher): Promise<RecordingValidators> {
  const none: RecordingValidators = { etag: null, lastModified: null, contentLength: null };
  try {
    return validatorsFrom((await fetcher.fetch('HEAD')).headers);
  } catch (err) {
    if (!(err instanceof RecordingError) || err.status === undefined || err.problem === 'redirect_refused') throw err;
  }
  try {
    const probe = await fetcher.fetch('GET', { range: 'bytes=0-0' });
    await probe.body?.cancel().catch(() => undefined);
    if (probe.status !== 206) return validatorsFrom(probe.headers);
    const total = /\/(\d+)\s*$/.exec(probe.headers.get('content-range') ?? '')?.[1] ?? null;
    return { ...validatorsFrom(probe.headers), contentLength: total };
  } catch (err) {
    // A refused key, a gone file or a failing server: the download would get the same.
    if (err instanceof RecordingError && (err.problem !== 'server_error' || (err.status ?? 500) >= 500)) throw err;
    // Any other refusal (400, 416 to the range, 429, ...) says nothing about the recording: no cache key.
    return none;
  }
}

/** Downloads the recording as a stream and decodes it to peaks; also returns the GET's validators. */
export async function download(
  fetcher: RecordingFetcher,
  decode: PeaksDecoder,
  onBodyError?: (err: RecordingError) => void,
): Promise<{ peaks: ComputedPeaks; validators: RecordingValidators }> {
  const answer = await fetcher.fetch('GET', onBodyError ? { onBodyError } : {});
  const body = answer.body;
  if (!body) throw new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE });
  const peaks = await decode(chunksOf(body));
  return { peaks, validators: validatorsFrom(answer.headers) };
}

/** The body as chunks; a read error (a RecordingError: stall, cut, too large) is thrown as is. */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
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

function validatorsFrom(headers: Headers): RecordingValidators {
  return {
    etag: headers.get('etag'),
    lastModified: headers.get('last-modified'),
    contentLength: headers.get('content-length'),
  };
}

/** False when a validator present in both differs (the recording changed between HEAD and GET). */
export function sameVersion(a: RecordingValidators, b: RecordingValidators): boolean {
  return (['etag', 'lastModified', 'contentLength'] as const).every(
    (k) => a[k] === null || b[k] === null || a[k] === b[k],
  );
}
