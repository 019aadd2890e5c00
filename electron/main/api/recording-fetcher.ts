/**
 * The one recording fetcher of main: how the recording protocol (the player) and the peaks
 * service (the waveform) fetch an interaction's `recording_url` (spec 2). Built by the API client
 * (client.ts `recording(url)`), so the API key never leaves electron/main/api/.
 *
 * - Redirects are followed by hand, at most {@link MAX_REDIRECTS} hops: 301, 302, 307 and 308 keep
 *   the method, 303 turns a GET into a GET (a HEAD stays a HEAD). A loop, a sixth hop, or a
 *   redirect without a usable `Location` is a `redirect_refused` problem.
 * - `Authorization: Bearer` is sent only while the hops stay on the base URL's origin, and never
 *   again once a hop left it (even if a later hop comes back): a signed storage URL never sees it.
 * - Every hop is checked against the destination rules (destination.ts): on the URL before the
 *   request, and on the resolved address inside the connection's DNS lookup.
 * - The request timeout covers waiting for each hop's headers and every stall while the body is
 *   read (time the reader waits for a chunk), not a whole long download.
 * - A final answer outside 200-299, a body over {@link MAX_RECORDING_BYTES}, or a text/data
 *   content type is refused with its worded problem (recording-errors.ts); bodies of refused
 *   answers are never read.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import { baseAddressClass, guardedLookup, systemResolver, type AddressClass } from '../network/address-class';
import { limitTransfer, RECORDING_TRANSFER_LIMITS, TransferLimitError } from '../network/transfer-limits';
import { hopProblem, type Resolver } from './destination';
import {
  MAX_RECORDING_BYTES,
  MAX_REDIRECTS,
  notAudio,
  RecordingError,
  recordingStatusError,
  recordingTimedOut,
  recordingUnreachable,
  redirectRefused,
  tooLarge,
  unsafeDestination,
} from './recording-errors';

/** What one request of a recording may add. */
export interface RecordingFetchOptions {
  /** A `Range` header value to forward (`bytes=0-`). */
  range?: string | null;
  /** Aborts the request and its body (the player went away). */
  signal?: AbortSignal;
}

/** A recording answer that passed every rule: status 200 or 206. */
export interface RecordingAnswer {
  status: number;
  /** The final hop's response headers. */
  headers: Headers;
  /** The content type to hand on: the upstream's when audio/video/octet-stream, else octet-stream. */
  contentType: string;
  /** The whole file's size in bytes, from Content-Range (a 206) or Content-Length; null when not said. */
  size: number | null;
  /** The body (null for HEAD): each read waits at most the timeout; errors are {@link RecordingError}s. */
  body: ReadableStream<Uint8Array> | null;
}

/** Fetches one recording URL. */
export interface RecordingFetcher {
  /**
   * One request, redirects followed under the rules above.
   * @throws RecordingError with its problem kind; an abort by `options.signal` rethrows the abort
   */
  fetch(method: 'GET' | 'HEAD', options?: RecordingFetchOptions): Promise<RecordingAnswer>;
}

/** One HTTP exchange without following redirects (undici's fetch over the guarded agent by default). */
export type RecordingTransport = (
  url: string,
  init: { method: string; headers: Record<string, string>; signal: AbortSignal; redirect: 'manual' },
) => Promise<Response>;

/** How {@link createRecordingFetcher} reaches the recording. */
export interface RecordingFetcherConfig {
  url: string;
  /** The workspace's base URL: its origin gets the key, its host's class sets the destination rules. */
  baseUrl: string;
  apiKey: string;
  /** Wait for headers and longest stall of the body, in milliseconds. */
  timeoutMs: number;
  transport: RecordingTransport;
  /**
   * The class of the workspace's server for the destination rules (its literal host, else the
   * API connection's peer address); default: the literal host's, else unknown.
   */
  baseClass?: () => AddressClass | null;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A direct transport for a workspace (no proxy, Node's roots; tests and tools without main's
 * network): undici's fetch through an Agent whose connections resolve names with
 * {@link guardedLookup}, every address checked (`resolve` is the seam tests replace with a
 * stand-in). The app uses network/main-network.ts's transport instead.
 */
export function createRecordingTransport(baseUrl: string, timeoutMs: number, resolve?: Resolver): RecordingTransport {
  const lookup = guardedLookup(() => baseAddressClass({ baseUrl }), resolve ?? systemResolver);
  const agent = new Agent({ connect: { lookup, timeout: timeoutMs } });
  return async (url, init) => (await undiciFetch(url, { ...init, dispatcher: agent })) as unknown as Response;
}

/** Creates the fetcher of one recording URL. Does no I/O until `fetch` is called. */
export function createRecordingFetcher(config: RecordingFetcherConfig): RecordingFetcher {
  return {
    async fetch(method, options = {}) {
      const { response, keyAttached, timer } = await follow(config, method, options);
      try {
        return accept(response, keyAttached, method, timer, config.timeoutMs);
      } catch (err) {
        timer.done();
        await response.body?.cancel().catch(() => undefined);
        throw err;
      }
    },
  };
}

/** Follows the redirects of one request; resolves with the first answer that is not a redirect. */
async function follow(
  config: RecordingFetcherConfig,
  firstMethod: 'GET' | 'HEAD',
  options: RecordingFetchOptions,
): Promise<{ response: Response; keyAttached: boolean; timer: StallTimer }> {
  const base = new URL(config.baseUrl);
  const first = parseUrl(config.url);
  if (!first) throw unsafeDestination('the recording address is not a valid URL');
  let url = first;
  let previous: URL | null = null;
  let method = firstMethod;
  let keyAttached = true;
  const seen = new Set<string>();
  const timer = stallTimer(config.timeoutMs, options.signal);
  for (let hop = 0; ; hop++) {
    const problem = hopProblem(url, previous, base, config.baseClass ? config.baseClass() : undefined);
    if (problem) throw unsafeDestination(problem);
    keyAttached &&= url.origin === base.origin;
    seen.add(url.href);
    const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
    if (options.range) headers.Range = options.range;
    if (keyAttached) headers.Authorization = `Bearer ${config.apiKey}`;
    let response: Response;
    timer.arm();
    try {
      response = await config.transport(url.href, { method, headers, signal: timer.signal, redirect: 'manual' });
    } catch (err) {
      timer.done();
      throw transportFailure(err, timer, config.timeoutMs, options.signal);
    }
    if (!REDIRECT_STATUSES.has(response.status)) return { response, keyAttached, timer };
    timer.done();
    await response.body?.cancel().catch(() => undefined);
    const next = nextHop(response, url, hop, seen);
    if (response.status === 303) method = method === 'HEAD' ? 'HEAD' : 'GET';
    previous = url;
    url = next;
  }
}

/** Where redirect `response` (hop number `hop`, from `from`) leads. @throws RecordingError `redirect_refused` */
function nextHop(response: Response, from: URL, hop: number, seen: Set<string>): URL {
  const status = response.status;
  if (hop + 1 > MAX_REDIRECTS) throw redirectRefused(`it redirected more than ${MAX_REDIRECTS} times`, status);
  const location = response.headers.get('location');
  if (!location) throw redirectRefused(`it answered HTTP ${status} without saying where (no Location)`, status);
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw redirectRefused('the address it named is not a valid URL', status);
  }
  if (seen.has(next.href)) throw redirectRefused('it redirected in a loop', status);
  return next;
}

/** Checks the final answer and wraps its body. @throws RecordingError */
function accept(
  response: Response,
  keyAttached: boolean,
  method: 'GET' | 'HEAD',
  timer: StallTimer,
  timeoutMs: number,
): RecordingAnswer {
  timer.done();
  if (!response.ok) throw recordingStatusError(response.status, keyAttached);
  const size = declaredSize(response);
  if (size !== null && size > MAX_RECORDING_BYTES) throw tooLarge(size);
  const upstreamType = response.headers.get('content-type');
  const contentType = playableContentType(upstreamType);
  if (contentType === null) throw notAudio(upstreamType ?? '');
  const body = method === 'HEAD' || !response.body ? null : guardedBody(response.body, timer, timeoutMs);
  if (method === 'HEAD') void response.body?.cancel().catch(() => undefined);
  return { status: response.status, headers: response.headers, contentType, size, body };
}

/** The whole file's size from Content-Range (a 206) or Content-Length, or null when not said. */
function declaredSize(response: Response): number | null {
  const range = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1];
  const length = range ?? response.headers.get('content-length');
  const n = length ? Number(length) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/**
 * The content type handed to the player: `audio/*`, `video/*`, `application/ogg` and
 * `application/octet-stream` pass as sent (parameters dropped); no type becomes octet-stream; a
 * text, HTML, JSON or XML type is refused (null): that is an error or login page, not a recording;
 * any other type is handed on as `application/octet-stream` (the decoders look at the bytes).
 */
function playableContentType(raw: string | null): string | null {
  const type = (raw ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === '') return 'application/octet-stream';
  if (/^(audio|video)\/[\w.+-]+$/.test(type) || type === 'application/ogg' || type === 'application/octet-stream') {
    return type;
  }
  if (type.startsWith('text/') || /json|xml|html|javascript/.test(type)) return null;
  return 'application/octet-stream';
}

/** The RecordingError for a failed exchange: timeout, refused destination, or unreachable; an abort passes through. */
function transportFailure(err: unknown, timer: StallTimer, timeoutMs: number, signal?: AbortSignal): unknown {
  if (err instanceof RecordingError) return err;
  if (signal?.aborted && !timer.timedOut) return err;
  if (timer.timedOut) return recordingTimedOut(timeoutMs);
  let cause: unknown = err;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    const { code, rule } = cause as { code?: unknown; rule?: unknown };
    // A refused address (the guarded lookup's, or a proxied host's check).
    if (code === 'VR_UNSAFE_DESTINATION' && typeof rule === 'string') return unsafeDestination(rule);
    // The proxy's or the TLS layer's problem, already in words (network/main-network.ts).
    if (code === 'VR_WORDED_NETWORK') return new RecordingError('unreachable', cause.message);
    cause = cause.cause;
  }
  return recordingUnreachable();
}

/**
 * The body, read on demand: each read waits at most `timeoutMs` for the next chunk (a stall is a
 * `timed_out` error), a body that trickles (under 1 KB/s over 30 s of waiting, or more than
 * 15 minutes of waiting in all: transfer-limits.ts) is a `timed_out` error too, and more than
 * {@link MAX_RECORDING_BYTES} is a `too_large` error.
 */
function guardedBody(
  body: ReadableStream<Uint8Array>,
  timer: StallTimer,
  timeoutMs: number,
): ReadableStream<Uint8Array> {
  // The stall is the timer's (it also aborts the exchange); the rate and the deadline are the limiter's.
  const limited = limitTransfer(body, { ...RECORDING_TRANSFER_LIMITS, stallMs: 2_147_483_647 }, 'The recording server');
  const reader = limited.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      timer.arm();
      try {
        const { done, value } = await reader.read();
        timer.done();
        if (done) {
          controller.close();
          return;
        }
        total += value.byteLength;
        if (total > MAX_RECORDING_BYTES) throw tooLarge(null);
        controller.enqueue(value);
      } catch (err) {
        timer.done();
        const error =
          err instanceof RecordingError
            ? err
            : err instanceof TransferLimitError
              ? new RecordingError('timed_out', err.message)
              : timer.timedOut
                ? recordingTimedOut(timeoutMs)
                : recordingUnreachable();
        await reader.cancel().catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel(reason) {
      timer.done();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}

/** Aborts the exchange when an armed countdown of `timeoutMs` runs out; also follows `outer`. */
interface StallTimer {
  /** (Re)starts the countdown: a wait for headers or for a chunk begins. */
  arm(): void;
  /** Stops the countdown (the wait ended). */
  done(): void;
  readonly timedOut: boolean;
  readonly signal: AbortSignal;
}

function stallTimer(timeoutMs: number, outer?: AbortSignal): StallTimer {
  const controller = new AbortController();
  if (outer) {
    if (outer.aborted) controller.abort(outer.reason);
    else outer.addEventListener('abort', () => controller.abort(outer.reason), { once: true });
  }
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const done = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    arm: () => {
      done();
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
    },
    done,
    get timedOut() {
      return timedOut;
    },
    signal: controller.signal,
  };
}

function parseUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}
