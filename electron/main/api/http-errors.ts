/**
 * HTTP error interpretation: the one place that turns an HTTP status (and, for the API, the
 * server's error body) or a failed fetch into an {@link ApiError} with a kind a view can react to
 * and a sentence a person can act on, for the API client (client.ts). Recording downloads have
 * their own worded problems (recording-errors.ts).
 *
 * Spec 7 shows neither error statuses nor an error body shape, so statuses get their usual HTTP
 * meanings and the server's own message is looked for under the common field names.
 */
import { ApiError, type ApiErrorKind } from '$shared/errors';

/** Largest response body read, in bytes; a bigger body is an `invalid_response`. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * The kind an HTTP error status stands for (spec 7 does not show statuses; these are the usual
 * meanings): 401/403 `unauthorized`, 404/410 `not_found`, 400/409/422 `bad_input`, anything else
 * (redirects, 429, 5xx) `server`.
 */
function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 400 || status === 409 || status === 422) return 'bad_input';
  return 'server';
}

/** What the API client knows about a request that got an error status. */
interface ApiStatusContext {
  /** What was asked for, as a sentence start: "Interaction CA…", "The phone list". */
  what: string;
  /** Host of the workspace's base URL, as shown in messages. */
  host: string;
  /** The server's own message from the error body (key already masked), if it had one. */
  serverMessage?: string | undefined;
}

/**
 * The ApiError for an API answer with a non-2xx status (spec 4 endpoints): the kind from
 * {@link kindOfStatus}, the status, the server's message kept apart in `serverMessage`.
 */
export function apiStatusError(status: number, context: ApiStatusContext): ApiError {
  const kind = kindOfStatus(status);
  const { what, host, serverMessage } = context;
  return new ApiError({
    kind,
    status,
    message: apiStatusMessage(kind, status, what, host),
    ...(serverMessage ? { serverMessage } : {}),
  });
}

function apiStatusMessage(kind: ApiErrorKind, status: number, what: string, host: string): string {
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
 * Every occurrence of `apiKey` is masked BEFORE the message is shortened: a key cut in half by the
 * cap would no longer match, and half a key must not be shown or logged either.
 */
export function extractServerMessage(body: unknown, apiKey = '', depth = 0): string | undefined {
  if (typeof body === 'string') {
    if (depth === 0 && /^\s*</.test(body)) return undefined;
    return body.length <= 2000 ? capMessage(withoutKey(body, apiKey) ?? '') : undefined;
  }
  if (depth > 3 || typeof body !== 'object' || body === null) return undefined;
  if (Array.isArray(body)) return body.length > 0 ? extractServerMessage(body[0], apiKey, depth + 1) : undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail', 'error_description', 'title', 'errors', 'msg']) {
    if (key in record) {
      const found = extractServerMessage(record[key], apiKey, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function capMessage(s: string): string | undefined {
  const t = s.replace(/\s+/g, ' ').trim();
  return t === '' ? undefined : t.length > 300 ? `${t.slice(0, 299)}…` : t;
}

/** `message` with every occurrence of `apiKey` replaced: a server may echo the key it refused. */
function withoutKey(message: string | undefined, apiKey: string): string | undefined {
  return message && apiKey ? message.split(apiKey).join('[API key]') : message;
}

/** True when a failed fetch is worth another read: not ours, not a timeout, not TLS. */
export function isRetryableTransportError(err: unknown): boolean {
  if (err instanceof ApiError) return false;
  if (isTimeout(err)) return false;
  return !isTlsError(err);
}

function isTimeout(err: unknown): boolean {
  const name = err instanceof Error ? err.name : '';
  return name === 'TimeoutError' || name === 'AbortError';
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

/**
 * The ApiError for an API request that got no usable answer: an ApiError passes through; a
 * timeout is `timeout`; a TLS failure is `network` with `detail: 'tls'`; anything else is
 * `network` with the reason (refused, unknown host, cut) when Node gave its code.
 */
export function transportError(err: unknown, host: string, timeoutMs: number): ApiError {
  if (err instanceof ApiError) return err;
  if (isTimeout(err)) {
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
  return new ApiError({
    kind: 'network',
    message: `Could not reach ${host}: ${networkReason(code)}. Check the base URL and your network connection, then retry.`,
  });
}

function networkReason(code: string): string {
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name could not be found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was cut';
  return 'the network request failed';
}

/** The `invalid_response` error for a body larger than {@link MAX_BODY_BYTES}. */
export function bodyTooLargeError(host: string): ApiError {
  return new ApiError({
    kind: 'invalid_response',
    message: `${host} sent an answer larger than ${MAX_BODY_BYTES / 1024 / 1024} MB; Voice Review stopped reading it. Report this to the service provider.`,
  });
}
