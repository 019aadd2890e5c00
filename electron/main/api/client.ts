/**
 * HTTP client for the v1 interface (spec 2, 4, 5, 7). Runs in main only: it is the one place
 * that holds the API key while a request is made. Every failure is an {@link ApiError}.
 *
 * "spec N" here and across electron/ is section N of docs/voice-agent-api.md, the interface the app
 * implements ("spec 4 endpoint 2" is row 2 of that section's endpoint table).
 */
import type { z } from 'zod';
import type { Phone, PhoneUpdate, SipTrunk, SipTrunkCreate, Webhook } from '$shared/domain';
import { ApiError } from '$shared/errors';
import { REQUEST_TIMEOUT_SECONDS } from '$shared/validation';
import {
  envelopeSchema,
  interactionEnvelope,
  phoneEnvelope,
  phonesEnvelope,
  sipTrunkEnvelope,
  sipTrunksEnvelope,
  statusOnlyEnvelope,
  webhookEnvelope,
  webhooksEnvelope,
  type ParsedInteraction,
} from './schemas';
import {
  apiStatusError,
  bodyTooLargeError,
  extractServerMessage,
  isRetryableTransportError,
  MAX_BODY_BYTES,
  transportError,
} from './http-errors';
import {
  parseRetryAfterMs,
  resolveRetryOptions,
  retryDelayMs,
  RETRYABLE_STATUSES,
  sleep,
  type RetryOptions,
} from './retry';
import type { Resolver } from './destination';
import type { MainNetwork } from '../network/main-network';
import {
  createRecordingFetcher,
  createRecordingTransport,
  type RecordingFetcher,
  type RecordingTransport,
} from './recording-fetcher';

/** How to reach one workspace. */
export interface ClientOptions {
  /** Base URL ending in `/v1` (already normalized, see shared/base-url.ts). */
  baseUrl: string;
  apiKey: string;
  /**
   * Timeout of one attempt in milliseconds (default: the request timeout preference's default, {@link REQUEST_TIMEOUT_SECONDS}). A retried read
   * gets a fresh timeout for each attempt.
   */
  timeoutMs?: number;
  /**
   * Retries of reads (GET) after a network error (not TLS), HTTP 429, 502, 503 or 504; see
   * retry.ts for the defaults (3 attempts, 300 ms base backoff, 5000 ms cap). Writes are never retried.
   */
  retry?: RetryOptions;
  /** Waits `ms` milliseconds between two attempts of a read (default: a timer); tests pass a fake clock. */
  wait?: (ms: number) => Promise<void>;
  /** Injected fetch (tests); wins over `network`. Not used for recordings. */
  fetch?: typeof fetch;
  /**
   * Main's network (network/main-network.ts): the desk's proxy, sign-in and trust for the API's
   * requests and the recordings alike. Without it (and without `fetch`), Node's fetch direct.
   */
  network?: Pick<MainNetwork, 'send' | 'recordingTransport' | 'baseClass'> | undefined;
  /**
   * Resolves host names for recording downloads (default `dns.lookup`); tests map test names to
   * refused addresses with it. Recording connections are refused by address class at this lookup.
   */
  recordingResolver?: Resolver;
  /** Replaces the whole recording transport (tests that script answers); default: undici over the guarded agent. */
  recordingTransport?: RecordingTransport;
}

/** One method per endpoint of spec 4. Each rejects with an {@link ApiError}. */
export interface ApiClient {
  readonly baseUrl: string;
  /** Endpoint 1. */
  getInteraction(sid: string): Promise<ParsedInteraction>;
  /** Endpoint 2. */
  listPhones(): Promise<Phone[]>;
  /** Endpoint 3; `number` is E.164 and is URL-encoded in the path (`+` -> `%2B`). */
  getPhone(number: string): Promise<Phone>;
  /** Endpoint 4; only fields present in `update` are sent. */
  updatePhone(number: string, update: PhoneUpdate): Promise<Phone>;
  /** Endpoint 5. */
  createSipTrunk(input: SipTrunkCreate): Promise<SipTrunk>;
  /** Endpoint 6. */
  listSipTrunks(): Promise<SipTrunk[]>;
  /** Endpoint 7. */
  getSipTrunk(sid: string): Promise<SipTrunk>;
  /** Endpoint 8. */
  listWebhooks(): Promise<Webhook[]>;
  /** Endpoint 9. */
  getWebhook(sid: string): Promise<Webhook>;
  /** Endpoint 10. */
  deleteWebhook(sid: string): Promise<void>;
  /**
   * The fetcher of a recording URL (spec 2 `recording_url`, already checked to be http/https): the
   * key only to this workspace's origin, redirects and destinations under the rules of
   * recording-fetcher.ts, this client's timeout for headers and stalls.
   */
  recording(recordingUrl: string): RecordingFetcher;
}

/** Creates a client for one workspace. Does no I/O until a method is called. */
export function createApiClient(options: ClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const network = options.fetch ? undefined : options.network;
  const link: Link = {
    baseUrl,
    apiKey: options.apiKey,
    send: network ? network.send : overFetch(options.fetch ?? fetch),
    timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_SECONDS.default * 1000,
    host: safeHost(baseUrl),
    retry: resolveRetryOptions(options.retry),
    wait: options.wait ?? sleep,
  };
  let transport: RecordingTransport | null = options.recordingTransport ?? null;
  const recording = (url: string): RecordingFetcher => {
    transport ??= network
      ? network.recordingTransport(baseUrl, options.recordingResolver)
      : createRecordingTransport(baseUrl, link.timeoutMs, options.recordingResolver);
    return createRecordingFetcher({
      url,
      baseUrl,
      apiKey: link.apiKey,
      timeoutMs: link.timeoutMs,
      transport,
      ...(network ? { baseClass: () => network.baseClass(baseUrl) } : {}),
    });
  };
  const get = <S extends z.ZodType>(path: string, schema: S, what: string) => request(link, 'GET', path, schema, what);
  return {
    baseUrl,
    getInteraction: async (sid) => get(`/interactions/${segment(sid)}`, interactionEnvelope, `Call ${sid}`),
    listPhones: () => get('/phones', phonesEnvelope, 'The phone list'),
    getPhone: async (number) => get(`/phones/${segment(number)}`, phoneEnvelope, `Phone ${number}`),
    updatePhone: async (number, update) =>
      request(link, 'PUT', `/phones/${segment(number)}`, phoneEnvelope, `Phone ${number}`, phoneUpdateBody(update)),
    createSipTrunk: (input) =>
      request(link, 'POST', '/sip-trunks', sipTrunkEnvelope, 'The new SIP trunk', sipTrunkBody(input)),
    listSipTrunks: () => get('/sip-trunks', sipTrunksEnvelope, 'The SIP trunk list'),
    getSipTrunk: async (sid) => get(`/sip-trunks/${segment(sid)}`, sipTrunkEnvelope, `SIP trunk ${sid}`),
    listWebhooks: () => get('/webhooks', webhooksEnvelope, 'The webhook list'),
    getWebhook: async (sid) => get(`/webhooks/${segment(sid)}`, webhookEnvelope, `Webhook ${sid}`),
    deleteWebhook: async (sid) =>
      request(link, 'DELETE', `/webhooks/${segment(sid)}`, statusOnlyEnvelope, `Webhook ${sid}`),
    recording,
  };
}

/** How one client reaches its workspace. */
interface Link {
  /** Base URL without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  /** One exchange; `timeoutMs` is the attempt's timeout. */
  send: Send;
  /** Timeout of one attempt, in milliseconds. */
  timeoutMs: number;
  /** Host of the base URL, as shown in messages. */
  host: string;
  retry: Required<RetryOptions>;
  /** Waits between two attempts, in milliseconds. */
  wait: (ms: number) => Promise<void>;
}

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** One HTTP exchange of the client (main-network.ts `NetworkSend`). */
type Send = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | undefined; redirect?: 'error' },
  timeoutMs: number,
) => Promise<Response>;

/** A {@link Send} over a fetch function, with the timeout as its abort signal. */
function overFetch(doFetch: typeof fetch): Send {
  return (url, init, timeoutMs) => doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}

/**
 * One path segment. `.` and `..` are dot-segments that URL parsing resolves away (sending
 * DELETE /webhooks/.. to /v1/), and `%2E` is one too, so they are refused like ''.
 */
function segment(value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new ApiError({ kind: 'bad_input', message: `Not a valid identifier: "${value}". Check what was entered.` });
  }
  return encodeURIComponent(value);
}

/**
 * One call, with retries for reads. Only GET is repeated (spec 4 does not say whether writes
 * are idempotent). A timeout is not repeated: the user has already waited a full `timeoutMs`,
 * and a second wait of the same length would look like a hang.
 */
async function request<S extends z.ZodType>(
  link: Link,
  method: Method,
  path: string,
  schema: S,
  what: string,
  body?: unknown,
): Promise<z.output<S>> {
  const attempts = method === 'GET' ? link.retry.attempts : 1;
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= attempts;
    const outcome = await attemptOnce(link, method, path, body, last);
    if (outcome.kind === 'answer') return interpret(outcome.response, outcome.text, schema, what, link);
    if (outcome.kind === 'failed') throw outcome.error;
    await link.wait(retryDelayMs(attempt, link.retry, outcome.retryAfterMs));
  }
}

/**
 * One HTTP exchange with its own timeout. Returns the answer to interpret, a final failure, or
 * (when `last` is false) a request to try again, with the server's `Retry-After` in ms if given.
 */
async function attemptOnce(
  link: Link,
  method: Method,
  path: string,
  body: unknown,
  last: boolean,
): Promise<
  | { kind: 'answer'; response: Response; text: string }
  | { kind: 'failed'; error: ApiError }
  | { kind: 'again'; retryAfterMs?: number }
> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${link.apiKey}`,
    Accept: 'application/json',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    const response = await link.send(
      `${link.baseUrl}${path}`,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'error' },
      link.timeoutMs,
    );
    if (!last && RETRYABLE_STATUSES.has(response.status)) {
      // The body of an answer that is retried is never shown; stop reading it.
      await response.body?.cancel().catch(() => undefined);
      const retryAfterMs = parseRetryAfterMs(response.headers.get('Retry-After'));
      return retryAfterMs === undefined ? { kind: 'again' } : { kind: 'again', retryAfterMs };
    }
    return { kind: 'answer', response, text: await readBody(response, link.host) };
  } catch (err) {
    if (!last && isRetryableTransportError(err)) return { kind: 'again' };
    return { kind: 'failed', error: transportError(err, link.host, link.timeoutMs) };
  }
}

/** Spec 4 endpoint 4 body. Spec "Gaps": what an omitted field means is not shown, so untouched fields are never sent. */
function phoneUpdateBody(update: PhoneUpdate): Record<string, string> {
  const body: Record<string, string> = {};
  if (update.name !== undefined) body.name = update.name;
  if (update.inboundAgentId !== undefined) body.inbound_agent_id = update.inboundAgentId;
  if (update.outboundAgentId !== undefined) body.outbound_agent_id = update.outboundAgentId;
  return body;
}

/** Spec 4 endpoint 5 body; credentials only when given. */
function sipTrunkBody(input: SipTrunkCreate): Record<string, string> {
  const body: Record<string, string> = { name: input.name, termination_uri: input.terminationUri };
  if (input.sipUsername !== undefined) body.sip_username = input.sipUsername;
  if (input.sipPassword !== undefined) body.sip_password = input.sipPassword;
  return body;
}

/** Reads a body as text. @throws ApiError `invalid_response` past {@link MAX_BODY_BYTES}. */
async function readBody(response: Response, host: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw bodyTooLargeError(host);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function interpret<S extends z.ZodType>(
  response: Response,
  text: string,
  schema: S,
  what: string,
  { host, apiKey }: Link,
): z.output<S> {
  let json: unknown;
  let parsed = false;
  try {
    json = JSON.parse(text);
    parsed = true;
  } catch {
    json = undefined;
  }
  // A server may echo the key it refused; the message is shown and logged, so the key is masked.
  const serverMessage = extractServerMessage(parsed ? json : text, apiKey);
  const status = response.status;

  if (!response.ok) throw apiStatusError(status, { what, host, serverMessage });
  if (!parsed) {
    const looksHtml = /^\s*</.test(text);
    throw new ApiError({
      kind: 'invalid_response',
      status,
      message:
        text.trim() === ''
          ? `${host} sent an empty answer. Check that the base URL is the service's /v1 address.`
          : looksHtml
            ? `${host} answered with a web page instead of data. Check that the base URL is the service's /v1 address.`
            : `${host} sent data that could not be read (not valid JSON). Try again; if it persists, report it to the service.`,
    });
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    throw new ApiError({
      kind: 'invalid_response',
      status,
      message: `${host} answered without the expected "status" field. Check that the base URL is the service's /v1 address.`,
    });
  }
  if (envelope.data.status !== 'success') {
    throw new ApiError({
      kind: 'server',
      status,
      message: `${host} reported an error for ${lowerFirst(what)}${serverMessage ? `: ${serverMessage}` : '.'}`,
      ...(serverMessage ? { serverMessage } : {}),
    });
  }
  // A transform that throws (e.g. a stack overflow on a hostile payload) is a bad answer, not a crash.
  const result = orUndefined(() => schema.safeParse(json));
  if (!result) {
    throw new ApiError({
      kind: 'invalid_response',
      status,
      message: `${host} sent ${lowerFirst(what)} in a shape Voice Review could not process. Report this to the service provider.`,
    });
  }
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? issue.path.join('.') : '';
    throw new ApiError({
      kind: 'invalid_response',
      status,
      message: `${host} sent ${lowerFirst(what)} in a shape Voice Review does not understand${where ? ` (field "${where}")` : ''}. Report this to the service provider.`,
    });
  }
  return result.data;
}

/** The value of `f()`, or undefined when it throws. */
function orUndefined<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** "The phone list" -> "the phone list", for use inside a sentence. */
function lowerFirst(s: string): string {
  return s.startsWith('The ') ? `the ${s.slice(4)}` : s;
}

function safeHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'The server';
  }
}
