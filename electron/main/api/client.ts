/**
 * HTTP client for the v1 interface (spec 2, 4, 5, 7). Runs in main only: it is the one place
 * that holds the API key while a request is made. Every failure is an {@link ApiError}.
 */
import type { z } from 'zod';
import type { Phone, PhoneUpdate, SipTrunk, SipTrunkCreate, Webhook } from '../../shared/domain';
import { ApiError, type ApiErrorKind } from '../../shared/errors';
import { REQUEST_TIMEOUT_SECONDS } from '../../shared/validation';
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
  parseRetryAfterMs,
  resolveRetryOptions,
  retryDelayMs,
  RETRYABLE_STATUSES,
  sleep,
  type RetryOptions,
} from './retry';

/** Largest response body read, in bytes; a bigger body is an `invalid_response`. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

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
  /** Injected fetch (tests); defaults to the global one. */
  fetch?: typeof fetch;
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
}

/** Creates a client for one workspace. Does no I/O until a method is called. */
export function createApiClient(options: ClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_SECONDS.default * 1000;
  const host = safeHost(baseUrl);
  const retry = resolveRetryOptions(options.retry);

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
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    schema: S,
    what: string,
    body?: unknown,
  ): Promise<z.output<S>> {
    const attempts = method === 'GET' ? retry.attempts : 1;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      const outcome = await attemptOnce(method, path, body, last);
      if (outcome.kind === 'answer')
        return interpret(outcome.response, outcome.text, schema, what, host, options.apiKey);
      if (outcome.kind === 'failed') throw outcome.error;
      await sleep(retryDelayMs(attempt, retry, outcome.retryAfterMs));
    }
  }

  /**
   * One HTTP exchange with its own timeout. Returns the answer to interpret, a final failure, or
   * (when `last` is false) a request to try again, with the server's `Retry-After` in ms if given.
   */
  async function attemptOnce(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    body: unknown,
    last: boolean,
  ): Promise<
    | { kind: 'answer'; response: Response; text: string }
    | { kind: 'failed'; error: ApiError }
    | { kind: 'again'; retryAfterMs?: number }
  > {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.apiKey}`,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      if (!last && RETRYABLE_STATUSES.has(response.status)) {
        // The body of an answer that is retried is never shown; stop reading it.
        await response.body?.cancel().catch(() => undefined);
        const retryAfterMs = parseRetryAfterMs(response.headers.get('Retry-After'));
        return retryAfterMs === undefined ? { kind: 'again' } : { kind: 'again', retryAfterMs };
      }
      return { kind: 'answer', response, text: await readBody(response) };
    } catch (err) {
      if (!last && isRetryableTransportError(err)) return { kind: 'again' };
      return { kind: 'failed', error: transportError(err, host, timeoutMs) };
    }
  }

  return {
    baseUrl,
    getInteraction: async (sid) =>
      request('GET', `/interactions/${segment(sid)}`, interactionEnvelope, `Interaction ${sid}`),
    listPhones: () => request('GET', '/phones', phonesEnvelope, 'The phone list'),
    getPhone: async (number) => request('GET', `/phones/${segment(number)}`, phoneEnvelope, `Phone ${number}`),
    updatePhone: async (number, update) =>
      request('PUT', `/phones/${segment(number)}`, phoneEnvelope, `Phone ${number}`, phoneUpdateBody(update)),
    createSipTrunk: (input) =>
      request('POST', '/sip-trunks', sipTrunkEnvelope, 'The new SIP trunk', sipTrunkBody(input)),
    listSipTrunks: () => request('GET', '/sip-trunks', sipTrunksEnvelope, 'The SIP trunk list'),
    getSipTrunk: async (sid) => request('GET', `/sip-trunks/${segment(sid)}`, sipTrunkEnvelope, `SIP trunk ${sid}`),
    listWebhooks: () => request('GET', '/webhooks', webhooksEnvelope, 'The webhook list'),
    getWebhook: async (sid) => request('GET', `/webhooks/${segment(sid)}`, webhookEnvelope, `Webhook ${sid}`),
    deleteWebhook: async (sid) => request('DELETE', `/webhooks/${segment(sid)}`, statusOnlyEnvelope, `Webhook ${sid}`),
  };
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

/** Reads a body as text, refusing more than {@link MAX_BODY_BYTES}. */
async function readBody(response: Response): Promise<string> {
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
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

class BodyTooLarge extends Error {}

function interpret<S extends z.ZodType>(
  response: Response,
  text: string,
  schema: S,
  what: string,
  host: string,
  apiKey: string,
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
  const serverMessage = withoutKey(extractServerMessage(parsed ? json : text), apiKey);
  const status = response.status;

  if (!response.ok) {
    const kind = kindOfStatus(status);
    throw new ApiError({ kind, status, message: messageFor(kind, what, host, status), ...withServer(serverMessage) });
  }
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
      ...withServer(serverMessage),
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

function withServer(serverMessage: string | undefined): { serverMessage?: string } {
  return serverMessage ? { serverMessage } : {};
}

function withoutKey(message: string | undefined, apiKey: string): string | undefined {
  return message && apiKey ? message.split(apiKey).join('[API key]') : message;
}

function lowerFirst(s: string): string {
  return s.startsWith('The ') ? `the ${s.slice(4)}` : s;
}

/** Spec 7: error statuses are not shown; these are the usual HTTP meanings. */
function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 400 || status === 409 || status === 422) return 'bad_input';
  return 'server';
}

function messageFor(kind: ApiErrorKind, what: string, host: string, status: number): string {
  switch (kind) {
    case 'unauthorized':
      return `${host} rejected the API key (HTTP ${status}). Check the key on the API Keys page of the account settings and enter it again.`;
    case 'not_found':
      return `${what} was not found in this workspace. Check it for typos and that you are in the right workspace.`;
    case 'bad_input':
      return `${host} refused the request (HTTP ${status}). Check the values entered.`;
    default:
      return status === 429
        ? `${host} is rate limiting requests (HTTP 429). Wait a moment, then try again.`
        : `${host} had a problem answering (HTTP ${status}). Try again in a moment.`;
  }
}

/**
 * Finds the server's own message in an error body of any shape (spec 7: the shape is not
 * shown): `message`, `error` (string or object), `detail`, `error_description`, `title`, or the
 * first entry of `errors`; a short plain-text body counts too. Capped at 300 characters.
 */
export function extractServerMessage(body: unknown, depth = 0): string | undefined {
  const cap = (s: string) => {
    const t = s.replace(/\s+/g, ' ').trim();
    return t === '' ? undefined : t.length > 300 ? `${t.slice(0, 299)}…` : t;
  };
  if (typeof body === 'string') {
    return depth === 0 && /^\s*</.test(body) ? undefined : body.length <= 2000 ? cap(body) : undefined;
  }
  if (depth > 3 || typeof body !== 'object' || body === null) return undefined;
  if (Array.isArray(body)) return body.length > 0 ? extractServerMessage(body[0], depth + 1) : undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail', 'error_description', 'title', 'errors', 'msg']) {
    if (key in record) {
      const found = extractServerMessage(record[key], depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** Network failures worth another read: not ours, not a timeout, not a body too large, not TLS. */
function isRetryableTransportError(err: unknown): boolean {
  if (err instanceof ApiError || err instanceof BodyTooLarge) return false;
  const name = err instanceof Error ? err.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return false;
  return !isTlsError(err);
}

/**
 * Error codes of the TLS layer as Node reports them on a failed fetch's `cause` (and, for some
 * failures, on the cause's own `cause`): certificate checks (CERT_HAS_EXPIRED,
 * DEPTH_ZERO_SELF_SIGNED_CERT, SELF_SIGNED_CERT_IN_CHAIN, UNABLE_TO_VERIFY_LEAF_SIGNATURE,
 * UNABLE_TO_GET_ISSUER_CERT_LOCALLY, ERR_TLS_CERT_ALTNAME_INVALID, HOSTNAME_MISMATCH), OpenSSL
 * handshake errors (ERR_SSL_*, e.g. ERR_SSL_WRONG_VERSION_NUMBER when the port speaks plain
 * HTTP; ERR_OSSL_*) and EPROTO (protocol error during the handshake).
 */
const TLS_CODE = /CERT|SSL|TLS|^EPROTO$|^UNABLE_TO_VERIFY_LEAF_SIGNATURE$|^HOSTNAME_MISMATCH$|^ERR_OSSL_/i;

/** The `code` and `message` of an error's causes, nearest first (at most 3 levels). */
function causesOf(err: unknown): { code: string; message: string }[] {
  const found: { code: string; message: string }[] = [];
  let current: unknown = err instanceof Error ? err.cause : undefined;
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth++) {
    const c = current as { code?: unknown; message?: unknown; cause?: unknown };
    found.push({
      code: typeof c.code === 'string' ? c.code : '',
      message: typeof c.message === 'string' ? c.message : '',
    });
    current = c.cause;
  }
  return found;
}

/** True when the fetch failure comes from the TLS layer (untrusted certificate, failed handshake). */
function isTlsError(err: unknown): boolean {
  return causesOf(err).some(({ code, message }) => TLS_CODE.test(code) || /certificate|ssl|tls/i.test(message));
}

function transportError(err: unknown, host: string, timeoutMs: number): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof BodyTooLarge) {
    return new ApiError({
      kind: 'invalid_response',
      message: `${host} sent an answer larger than ${MAX_BODY_BYTES / 1024 / 1024} MB; Voice Review stopped reading it. Report this to the service provider.`,
    });
  }
  const name = err instanceof Error ? err.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ApiError({
      kind: 'timeout',
      message: `${host} did not answer within ${Math.round(timeoutMs / 1000)} s. Check your connection and try again.`,
    });
  }
  const code = causesOf(err).find((c) => c.code !== '')?.code ?? '';
  if (isTlsError(err)) {
    return new ApiError({
      kind: 'network',
      detail: 'tls',
      message: `The secure connection to ${host} failed (TLS error${code ? ` ${code}` : ''}). Check the base URL; the server's certificate is not trusted.`,
    });
  }
  const why =
    code === 'ECONNREFUSED'
      ? 'the connection was refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name could not be found'
        : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
          ? 'the connection was cut'
          : 'the network request failed';
  return new ApiError({
    kind: 'network',
    message: `Could not reach ${host}: ${why}. Check the base URL and your network connection, then retry.`,
  });
}

function safeHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'The server';
  }
}
