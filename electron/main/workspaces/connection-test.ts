/**
 * The connection test of a saved workspace: one GET /phones with its base URL and key, and a
 * verdict a person can act on. A single attempt (no retries), so the verdict and `elapsedMs`
 * describe one request.
 */
import type { ConnectionTestResult } from '$shared/contract';
import { ApiError } from '$shared/errors';
import { createApiClient, type ClientOptions } from '../api/client';

/** What a connection test talks to. */
interface ConnectionTarget {
  /** Base URL ending in `/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Timeout of the one request, in milliseconds (the request timeout preference). */
  timeoutMs: number;
  fetch?: typeof fetch | undefined;
  /** Main's network: the proxy, sign-in and trust the workspace's own requests use. */
  network?: ClientOptions['network'];
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * Tests `target` with one GET /phones. Resolves with the verdict, also when the test fails
 * (see {@link connectionProblem}); rejects only with an error that is not an ApiError (a defect).
 */
export async function testConnection(target: ConnectionTarget): Promise<ConnectionTestResult> {
  const host = hostOf(target.baseUrl);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = createApiClient({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    timeoutMs: target.timeoutMs,
    fetch: target.fetch,
    network: target.network,
    retry: { attempts: 1 },
  });
  try {
    const phones = await client.listPhones();
    const count = phones.length === 1 ? '1 phone number' : `${phones.length} phone numbers`;
    return {
      ok: true,
      message: `Connected to ${host}: the key works (${count} in this workspace).`,
      elapsedMs: elapsed(),
    };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return connectionProblem(err, host, elapsed());
  }
}

/**
 * The verdict of a failed connection test: `key_rejected` (401/403), `not_v1` (404, or an answer
 * that is not the v1 phone list: HTML, not JSON, wrong shape; also a 400-class refusal of a plain
 * GET), `unreachable` (DNS, refused, reset), `tls` (certificate or handshake), `timeout`, `keychain`
 * (the key could not be read), `server` (5xx, or an error envelope). `elapsedMs` only when an
 * answer came back.
 */
function connectionProblem(err: ApiError, host: string, elapsedMs: number): ConnectionTestResult {
  switch (err.kind) {
    case 'unauthorized':
      return {
        ok: false,
        problem: 'key_rejected',
        message: `${host} rejected the API key (HTTP ${err.status ?? 401}). Enter the key again from the API Keys page of the account settings.`,
        elapsedMs,
      };
    case 'not_found':
    case 'bad_input':
      return {
        ok: false,
        problem: 'not_v1',
        message: `${host} answered, but not as a v1 API (HTTP ${err.status ?? 404} for the phone list). Check that the base URL is the service's /v1 address.`,
        elapsedMs,
      };
    case 'invalid_response':
      // The client's message says what came back; it already points at the base URL for a web
      // page, an empty or status-less answer, but not for another shape or an oversized body.
      return {
        ok: false,
        problem: 'not_v1',
        message: err.message.includes('/v1 address')
          ? err.message
          : `${host} answered, but not with the v1 list of phone numbers. Check that the base URL is the service's /v1 address.`,
        elapsedMs,
      };
    case 'network':
      return { ok: false, problem: err.detail === 'tls' ? 'tls' : 'unreachable', message: err.message };
    case 'timeout':
      return { ok: false, problem: 'timeout', message: err.message };
    case 'keychain':
      return { ok: false, problem: 'keychain', message: err.message };
    default:
      return { ok: false, problem: 'server', message: err.message, elapsedMs };
  }
}
