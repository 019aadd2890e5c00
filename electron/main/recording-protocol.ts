/**
 * The recording protocol: the renderer plays `vr-recording://local/recording/<sid>` and main
 * fetches the interaction's `recording_url` (spec 2) on its behalf through the API client's
 * recording fetcher (api/recording-fetcher.ts: redirects, destination rules, the key only to the
 * workspace's origin), so the API key never reaches the renderer. Written as a plain
 * `(Request) => Promise<Response>` so Electron's `protocol.handle` and the end-to-end harness's
 * loopback HTTP server run the very same code.
 *
 * Every failure is remembered as the recording's problem (the location's `report`), so the player
 * can ask main for the words (`getRecordingProblem`) when its media element fails; a successful
 * answer clears it.
 */
import type { RecordingProblem } from '../shared/contract';
import { isSid } from '../shared/sid';
import type { ApiClient } from './api/client';
import type { RecordingFetcher } from './api/recording-fetcher';
import { problemOf, RecordingError } from './api/recording-errors';

/** Scheme registered as privileged (standard, secure, stream, fetch) by main. */
export const RECORDING_SCHEME = 'vr-recording';

/** Path of a recording under any origin that serves this handler. */
export function recordingPath(sid: string): string {
  return `/recording/${encodeURIComponent(sid)}`;
}

/** What the handler (and the peaks service) needs to know about an interaction's recording. */
export interface RecordingLocation {
  /** The workspace the interaction was looked up in. */
  workspaceId: string;
  /** `recording_url` as the server sent it, or null when the interaction has none. */
  recordingUrl: string | null;
  /** The fetcher of a recording URL, from the workspace's API client (which holds the key). */
  fetcher: (recordingUrl: string) => RecordingFetcher;
  /** Remembers the recording's last problem for (workspace, SID); null when an attempt worked. */
  report: (problem: RecordingProblem | null) => void;
}

/**
 * The location of `recordingUrl` in workspace `workspaceId`, fetched through `client` (its key,
 * timeout and rules); problems go to `report` (default: nowhere).
 */
export function recordingLocation(
  client: Pick<ApiClient, 'recording'>,
  recordingUrl: string | null,
  workspaceId: string,
  report: (problem: RecordingProblem | null) => void = () => undefined,
): RecordingLocation {
  return { workspaceId, recordingUrl, fetcher: (url) => client.recording(url), report };
}

/** Options of {@link createRecordingHandler}. */
export interface RecordingHandlerOptions {
  /** Looks up an interaction's recording; null when the SID is unknown. May throw an ApiError. */
  locate(sid: string): Promise<RecordingLocation | null>;
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

const FORWARDED_RESPONSE_HEADERS = ['content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'];

/**
 * Creates the handler. Responses: the recording streamed through (200, or 206 for a forwarded
 * `Range`) with the content type the fetcher chose (recording-fetcher.ts `playableContentType`) and `X-Content-Type-Options:
 * nosniff`; 400 for a malformed path, 404 for an unknown SID or an unplayable URL (body says why),
 * 405 for methods other than GET/HEAD; for an upstream failure the upstream's 4xx status (404,
 * 403, ...), 504 for a timeout, 502 otherwise, with the problem's words as the body (never the
 * upstream's body). Never buffers the recording.
 */
export function createRecordingHandler(options: RecordingHandlerOptions): (request: Request) => Promise<Response> {
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
    if (problem || location.recordingUrl === null) {
      location.report({ kind: 'no_recording', message: problem ?? 'This interaction has no recording.' });
      return text(404, problem ?? 'No recording.');
    }
    const report = location.report;
    try {
      const answer = await location.fetcher(location.recordingUrl).fetch(request.method, {
        range: request.headers.get('range'),
        signal: request.signal,
        onBodyError: (err) => {
          report(problemOf(err));
        },
      });
      report(null);
      const out = new Headers({
        'Cache-Control': 'no-store',
        'Content-Type': answer.contentType,
        'X-Content-Type-Options': 'nosniff',
      });
      for (const name of FORWARDED_RESPONSE_HEADERS) {
        const value = answer.headers.get(name);
        if (value !== null) out.set(name, value);
      }
      if (request.method === 'GET') options.onStreaming?.(sid);
      return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, headers: out });
    } catch (err) {
      if (!(err instanceof RecordingError)) {
        if (request.signal.aborted) return text(499, 'The request was cancelled.');
        report(problemOf(err));
        return text(502, problemOf(err).message);
      }
      report(problemOf(err));
      return text(failureStatus(err), err.message);
    }
  };
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
