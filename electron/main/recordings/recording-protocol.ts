/**
 * The recording protocol: the renderer plays `vr-recording://local/recording/<sid>` and main
 * fetches the interaction's `recording_url` (spec 2) on its behalf through the API client's
 * recording fetcher (api/recording-fetcher.ts: redirects, destination rules, the key only to the
 * workspace's origin), so the API key never reaches the renderer. The bytes come from the run's
 * recording cache (recording-cache.ts: one download per recording, shared with the peaks service).
 * Written as a plain
 * `(Request) => Promise<Response>` so Electron's `protocol.handle` and the end-to-end harness's
 * loopback HTTP server run the very same code.
 *
 * A recording's seekable variant (an MP3 rewrapped in MP4 once downloaded, seekable-variants.ts)
 * is served at its URL with `?variant=mp4`, from the same cache entry.
 *
 * Every failure is reported as the recording's problem (the location's `report`), which the
 * recording's session pushes to the page in words; a successful answer clears it.
 */
import { ApiError } from '$shared/errors';
import { RECORDING_PATH_PREFIX, recordingSrcOf, SEEKABLE_VARIANT_QUERY } from '$shared/recording-src';
import { isSid } from '$shared/sid';
import { problemOf, RecordingError } from '../api/recording-errors';
import type { CachedDownload, RecordingHead } from './cached-download';
import type { RecordingCache } from './recording-cache';
import { playableLocation, type PlayableLocation, type RecordingLocation } from './recording-location';
import { seekableFileSource, type SeekableVariants } from './seekable-variants';

/** Scheme registered as privileged (standard, secure, stream, fetch) by main. */
export const RECORDING_SCHEME = 'vr-recording';

/** A recording's path, the encoded SID as its last segment. */
const RECORDING_PATH = new RegExp(`^${RECORDING_PATH_PREFIX}([^/]+)$`);

/** Path of a recording under any origin that serves this handler. */
export function recordingPath(sid: string): string {
  return recordingSrcOf(RECORDING_PATH_PREFIX, sid);
}

/** Options of {@link createRecordingHandler}. */
export interface RecordingHandlerOptions {
  /** Looks up an interaction's recording; null when the SID is unknown. May throw an ApiError. */
  locate(sid: string): Promise<RecordingLocation | null>;
  /** The run's recording cache, shared with the peaks service and the exports. */
  recordings: RecordingCache;
  /**
   * The recordings' seekable variants (MP3 rewrapped in MP4): asked for each recording served,
   * and served for a URL with `?variant=mp4` once ready. Without it, that URL answers as the
   * recording's own.
   */
  variants?: SeekableVariants;
}

const FORWARDED_RESPONSE_HEADERS = ['content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'];

/**
 * Creates the handler. Responses: the recording (200, or 206 for a `Range`) with the content type
 * the fetcher chose (recording-fetcher.ts `playableContentType`) and `X-Content-Type-Options:
 * nosniff`, served from the run's recording cache (one upstream GET per recording; bytes still on
 * their way are waited for), except a Range starting far ahead of the running download, which is
 * forwarded upstream (recording-cache's `withinReach`); 416 for a range past the end; 400 for a
 * malformed path, 404 for an unknown SID (also when the interaction's lookup answers not found)
 * or an unplayable URL (body says why), 502 when the lookup fails otherwise, 405 for methods
 * other than GET/HEAD; for an upstream failure the upstream's 4xx status (404, 403, ...), 504 for
 * a timeout, 502 otherwise, with the problem's words as the body (never the upstream's body).
 * Never buffers the recording in memory. With `?variant=mp4`: the recording's seekable variant
 * once it is ready (200 or 206 likewise, `audio/mp4`, no ETag), else the recording as above.
 */
export function createRecordingHandler(options: RecordingHandlerOptions): (request: Request) => Promise<Response> {
  const { recordings } = options;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Only GET and HEAD are supported.');
    const match = RECORDING_PATH.exec(new URL(request.url).pathname);
    const sid = match?.[1] ? safeDecode(match[1]) : null;
    if (!sid || !isSid('interaction', sid)) return text(400, 'Not a recording address.');

    let location: RecordingLocation | null;
    try {
      location = await options.locate(sid);
    } catch (err) {
      // An unknown SID is a 404 like any missing resource; any other failed lookup is the gateway's.
      const status = err instanceof ApiError && err.kind === 'not_found' ? 404 : 502;
      return text(status, err instanceof Error ? err.message : 'The interaction could not be loaded.');
    }
    if (!location) return text(404, 'Unknown interaction.');
    const playable = playableLocation(location);
    if (playable instanceof RecordingError) return text(404, playable.message);
    try {
      const download = recordings.open(playable);
      options.variants?.prepare(sid, download);
      const head = await download.head;
      const variant = wantsVariant(request) ? options.variants?.ready(download) : null;
      const answer = variant
        ? fromCache(seekableFileSource(variant), { contentType: variant.contentType, headers: new Headers() }, request)
        : fromCache(download, head, request);
      return answer ?? (await forward(playable, request));
    } catch (err) {
      if (!(err instanceof RecordingError) && request.signal.aborted) return text(499, 'The request was cancelled.');
      const found = problemOf(err);
      location.report(found);
      return err instanceof RecordingError ? text(failureStatus(err), err.message) : text(502, found.message);
    }
  };
}

/** True when `request` asks for the recording's seekable variant (`?variant=mp4`). */
function wantsVariant(request: Request): boolean {
  return new URL(request.url).search === `?${SEEKABLE_VARIANT_QUERY}`;
}

/**
 * The answer from the cache, or null when the request's range starts far ahead of the running
 * download, or is a bounded range while the size is not known yet (the upstream sent no length):
 * those go upstream. Without a usable range the whole file is sent (200).
 */
function fromCache(
  download: Pick<CachedDownload, 'size' | 'withinReach' | 'stream'>,
  head: RecordingHead,
  request: Request,
): Response | null {
  const out = mediaHeaders(head.contentType);
  for (const name of ['etag', 'last-modified']) {
    const value = head.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  out.set('Accept-Ranges', 'bytes');
  const size = download.size();
  const range = parseRange(request.headers.get('range'), size);
  const body = (start: number, end: number | null): ReadableStream<Uint8Array> | null =>
    request.method === 'HEAD' ? null : download.stream(start, end);
  if (range === null || (size === null && range.start === 0 && range.end === null)) {
    if (size !== null) out.set('Content-Length', String(size));
    return new Response(body(0, null), { status: 200, headers: out });
  }
  // The upstream did not say the size (no Content-Length) and the download is still running.
  if (size === null) return null;
  if (range.start >= size) {
    out.set('Content-Range', `bytes */${String(size)}`);
    return new Response(null, { status: 416, headers: out });
  }
  if (!download.withinReach(range.start)) return null;
  const end = Math.min(range.end ?? size - 1, size - 1);
  out.set('Content-Range', `bytes ${String(range.start)}-${String(end)}/${String(size)}`);
  out.set('Content-Length', String(end - range.start + 1));
  return new Response(body(range.start, end), { status: 206, headers: out });
}

/**
 * A single byte range of a `Range` header (`bytes=a-b`, `bytes=a-`, or `bytes=-n` when the size
 * is known), or null when there is none or it is not one of those (the whole file is sent).
 */
function parseRange(header: string | null, size: number | null): { start: number; end: number | null } | null {
  const match = /^\s*bytes=(\d*)-(\d*)\s*$/.exec(header ?? '');
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '') {
    if (to === '' || size === null) return null;
    return { start: Math.max(0, size - Number(to)), end: null };
  }
  const start = Number(from);
  const end = to === '' ? null : Number(to);
  return end !== null && end < start ? null : { start, end };
}

/** The request forwarded upstream as it is (its Range), streamed through: a seek far ahead of the download. */
async function forward(location: PlayableLocation, request: Request): Promise<Response> {
  const answer = await location.fetcher(location.recordingUrl).fetch(request.method === 'HEAD' ? 'HEAD' : 'GET', {
    range: request.headers.get('range'),
    signal: request.signal,
  });
  const out = mediaHeaders(answer.contentType);
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, headers: out });
}

function mediaHeaders(contentType: string): Headers {
  return new Headers({ 'Cache-Control': 'no-store', 'Content-Type': contentType, 'X-Content-Type-Options': 'nosniff' });
}

/** The status the player gets for a failed recording: the upstream's 4xx, 504 for a timeout, else 502. */
function failureStatus(err: RecordingError): number {
  if (err.status !== undefined && err.status >= 400 && err.status < 500) return err.status;
  return err.problem === 'timed_out' ? 504 : 502;
}

function text(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
