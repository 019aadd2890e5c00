/**
 * Fetching a recording for peaks, with the recording protocol's rules (recording-protocol.ts):
 * only http/https URLs, the API key only to the workspace's own origin, no redirect followed while
 * the key is attached. Errors come from the one HTTP error module (api/http-errors.ts).
 */
import { ApiError } from '../../shared/errors';
import { kindOfStatus, recordingStatusError, recordingTransportError } from '../api/http-errors';
import { isSameOrigin, type RecordingLocation } from '../recording-protocol';
import type { RecordingValidators } from './cache';
import { UNDECODABLE_MESSAGE } from './decode';
import type { ComputedPeaks } from './reduce';
import type { PeaksDecoder } from './worker-decoder';

/** One HTTP exchange with the recording server, with the protocol's key and redirect rules. */
interface Fetcher {
  /** Resolves with the response once headers arrive; `stall` keeps the timeout alive while the body is read. */
  request(method: 'GET' | 'HEAD', headers?: Record<string, string>): Promise<{ response: Response; stall: StallTimer }>;
  keyAttached: boolean;
}

/** Aborts the request when no progress is reported for `timeoutMs`. */
interface StallTimer {
  /** Restarts the countdown (a chunk arrived). */
  progress(): void;
  /** Stops the countdown for good. */
  done(): void;
  /** True when the abort came from this timer. */
  readonly timedOut: boolean;
  readonly signal: AbortSignal;
}

function stallTimer(timeoutMs: number): StallTimer {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
  };
  arm();
  return {
    progress: arm,
    done: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
    get timedOut() {
      return timedOut;
    },
    signal: controller.signal,
  };
}

/**
 * The fetcher for a playable recording: the API key (`Authorization: Bearer`) only to the
 * workspace's own origin, no redirect followed while it is attached, and a stall timeout of
 * `timeoutMs` (ms) that also covers the body.
 */
export function createFetcher(
  location: RecordingLocation & { recordingUrl: string },
  doFetch: typeof fetch,
  timeoutMs: number,
): Fetcher {
  const keyAttached = isSameOrigin(location.recordingUrl, location.baseUrl);
  return {
    keyAttached,
    async request(method, extraHeaders = {}) {
      const headers: Record<string, string> = { ...extraHeaders };
      if (keyAttached) headers.Authorization = `Bearer ${location.apiKey}`;
      const stall = stallTimer(timeoutMs);
      let response: Response;
      try {
        response = await doFetch(location.recordingUrl, {
          method,
          headers,
          signal: stall.signal,
          // A redirect to another origin must not carry the key: follow none while it is attached.
          redirect: keyAttached ? 'manual' : 'follow',
        });
      } catch {
        stall.done();
        throw recordingTransportError(stall.timedOut);
      }
      return { response, stall };
    },
  };
}

/**
 * The validators from a HEAD, or from a 1-byte Range GET when HEAD is refused (any non-2xx:
 * some servers answer 405, and URLs signed for GET answer 403 to HEAD); all null when neither
 * tells. A HEAD that cannot reach the server, or times out, fails the call with that error:
 * the download would fail the same way.
 */
export async function validatorsOf(fetcher: Fetcher): Promise<RecordingValidators> {
  const none: RecordingValidators = { etag: null, lastModified: null, contentLength: null };
  const head = await fetcher.request('HEAD');
  head.stall.done();
  if (head.response.ok) return validatorsFrom(head.response);
  await head.response.body?.cancel().catch(() => undefined);
  // HEAD refused (405/501, or a URL signed for GET only): ask for one byte instead.
  const probe = await fetcher.request('GET', { Range: 'bytes=0-0' });
  probe.stall.done();
  await probe.response.body?.cancel().catch(() => undefined);
  if (probe.response.status === 206) {
    const total = /\/(\d+)\s*$/.exec(probe.response.headers.get('content-range') ?? '')?.[1] ?? null;
    return { ...validatorsFrom(probe.response), contentLength: total };
  }
  if (probe.response.ok) return validatorsFrom(probe.response);
  if (predictsFailedDownload(probe.response.status))
    throw recordingStatusError(probe.response.status, fetcher.keyAttached);
  // Any other refusal (400, 416 to the range, 429, ...) says nothing about the recording: no cache key.
  return none;
}

/** Downloads the recording as a stream and decodes it to peaks; also returns the GET's validators. */
export async function download(
  fetcher: Fetcher,
  decode: PeaksDecoder,
): Promise<{ peaks: ComputedPeaks; validators: RecordingValidators }> {
  const { response, stall } = await fetcher.request('GET');
  try {
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw recordingStatusError(response.status, fetcher.keyAttached);
    }
    const body = response.body;
    if (!body) throw new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE });
    const peaks = await decode(readBody(body, stall));
    return { peaks, validators: validatorsFrom(response) };
  } finally {
    stall.done();
  }
}

/** The body as chunks; each chunk restarts the stall timer. Read errors become 'timeout' or 'network'. */
async function* readBody(body: ReadableStream<Uint8Array>, stall: StallTimer): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch {
        throw recordingTransportError(stall.timedOut);
      }
      if (result.done) return;
      stall.progress();
      yield result.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function validatorsFrom(response: Response): RecordingValidators {
  return {
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
    contentLength: response.headers.get('content-length'),
  };
}

/** False when a validator present in both differs (the recording changed between HEAD and GET). */
export function sameVersion(a: RecordingValidators, b: RecordingValidators): boolean {
  return (['etag', 'lastModified', 'contentLength'] as const).every(
    (k) => a[k] === null || b[k] === null || a[k] === b[k],
  );
}

/** True for a status the download would get too: a redirect, a refused key, no file, a server failure. */
function predictsFailedDownload(status: number): boolean {
  const kind = kindOfStatus(status);
  return (status >= 300 && status < 400) || kind === 'unauthorized' || kind === 'not_found' || status >= 500;
}
