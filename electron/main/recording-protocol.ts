/**
 * The recording protocol: the renderer plays `vr-recording://local/recording/<sid>` and main
 * fetches the interaction's `recording_url` (spec 2) on its behalf, so the API key never reaches
 * the renderer. Written as a plain `(Request) => Promise<Response>` so Electron's
 * `protocol.handle` and the end-to-end harness's loopback HTTP server run the very same code.
 */
import { isSid } from '../shared/sid';
import { recordingStatusError, recordingTransportError } from './api/http-errors';

/** Scheme registered as privileged (standard, secure, stream, fetch) by main. */
export const RECORDING_SCHEME = 'vr-recording';

/** Path of a recording under any origin that serves this handler. */
export function recordingPath(sid: string): string {
  return `/recording/${encodeURIComponent(sid)}`;
}

/** What the handler needs to know about an interaction's recording. */
export interface RecordingLocation {
  /** `recording_url` as the server sent it, or null when the interaction has none. */
  recordingUrl: string | null;
  /** The workspace's base URL; the key is sent only to its origin. */
  baseUrl: string;
  apiKey: string;
}

/** Options of {@link createRecordingHandler}. */
export interface RecordingHandlerOptions {
  /** Looks up an interaction's recording; null when the SID is unknown. May throw an ApiError. */
  locate(sid: string): Promise<RecordingLocation | null>;
  fetch?: typeof fetch;
  /** Time allowed for the upstream to start answering, in milliseconds (default 15 000). */
  timeoutMs?: number;
  /** Called when a GET of interaction `sid`'s recording starts streaming (e.g. a PlaybackGate's `opened`). */
  onStreaming?: (sid: string) => void;
}

/**
 * Why a recording URL cannot be played, or null when it can: only absolute `http:`/`https:`
 * URLs are fetched (no `file:`, `data:` or custom schemes from a server's data).
 */
export function recordingUrlProblem(recordingUrl: string | null): string | null {
  if (recordingUrl === null || recordingUrl.trim() === '') return 'This interaction has no recording.';
  let url: URL;
  try {
    url = new URL(recordingUrl);
  } catch {
    return 'The recording address sent by the service is not a valid URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `The recording address uses "${url.protocol}", which Voice Review does not open (only http and https).`;
  }
  return null;
}

/** True when the key may be attached: the recording is on the API base URL's origin. */
export function isSameOrigin(recordingUrl: string, baseUrl: string): boolean {
  try {
    return new URL(recordingUrl).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}

const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'etag',
  'last-modified',
];

/**
 * Creates the handler. Responses: the upstream's status and body streamed through (200 or
 * 206 for a forwarded `Range`), 400 for a malformed path, 404 for an unknown SID or a recording
 * that cannot be played (body says why), 405 for methods other than GET/HEAD, 502/504 when the
 * upstream fails. Never buffers the recording.
 */
export function createRecordingHandler(options: RecordingHandlerOptions): (request: Request) => Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Only GET and HEAD are supported.');
    const match = /^\/recording\/([^/]+)$/.exec(new URL(request.url).pathname);
    const sid = match?.[1] ? safeDecode(match[1]) : null;
    if (!sid || !isSid('interaction', sid)) return text(400, 'Not a recording address.');

    let location: RecordingLocation | null;
    try {
      location = await options.locate(sid);
    } catch (err) {
      return text(502, err instanceof Error ? err.message : 'The interaction could not be loaded.');
    }
    if (!location) return text(404, 'Unknown interaction.');
    const problem = recordingUrlProblem(location.recordingUrl);
    if (problem || location.recordingUrl === null) return text(404, problem ?? 'No recording.');

    const headers: Record<string, string> = {};
    const range = request.headers.get('range');
    if (range) headers.Range = range;
    if (isSameOrigin(location.recordingUrl, location.baseUrl)) headers.Authorization = `Bearer ${location.apiKey}`;

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let upstream: Response;
    try {
      upstream = await doFetch(location.recordingUrl, {
        method: request.method,
        headers,
        signal: controller.signal,
        // A redirect to another origin must not carry the key: follow none.
        redirect: headers.Authorization ? 'manual' : 'follow',
      });
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'AbortError';
      return text(timedOut ? 504 : 502, recordingTransportError(timedOut).message);
    } finally {
      clearTimeout(timer);
    }
    if (!upstream.ok) {
      // An error body may echo the request, Authorization header included: never pass it on.
      await upstream.body?.cancel();
      const error = recordingStatusError(upstream.status, headers.Authorization !== undefined);
      // A redirect is not followed, so to the player it is a bad gateway, not a redirect it could follow.
      return text(upstream.status >= 300 && upstream.status < 400 ? 502 : upstream.status, error.message);
    }
    const out = new Headers({ 'Cache-Control': 'no-store' });
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) out.set(name, value);
    }
    if (request.method === 'GET') options.onStreaming?.(sid);
    return new Response(request.method === 'HEAD' ? null : upstream.body, {
      status: upstream.status,
      headers: out,
    });
  };
}

function text(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
