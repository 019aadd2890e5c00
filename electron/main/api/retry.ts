/**
 * When and how long the API client waits before it repeats a read (GET). Writes are never
 * repeated: spec 4 does not say whether PUT/POST/DELETE are idempotent on the server, so a
 * second attempt could create a second SIP trunk.
 */

/** Retry settings for reads; every field is optional and falls back to {@link DEFAULT_RETRY}. */
export interface RetryOptions {
  /** Total attempts for one GET, the first included (default 3, so two retries). 1 disables retries. */
  attempts?: number;
  /** Delay before the first retry, in milliseconds; doubles for each further retry (default 300). */
  baseDelayMs?: number;
  /** Longest wait between two attempts, in milliseconds, also for a server's `Retry-After` (default 5000). */
  maxDelayMs?: number;
}

/** The settings used when {@link RetryOptions} leaves a field out. */
const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = { attempts: 3, baseDelayMs: 300, maxDelayMs: 5_000 };

/**
 * HTTP statuses after which a read is repeated: rate limiting (429) and the gateway/overload
 * answers (502, 503, 504) that usually pass. 500 is not in the list: it is more often a bug
 * than a passing state, and repeating it only delays the message.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Fills the defaults in and clamps nonsense (negative, NaN) to safe values. */
export function resolveRetryOptions(options: RetryOptions | undefined): Required<RetryOptions> {
  const pick = (value: number | undefined, fallback: number, min: number): number =>
    value === undefined || !Number.isFinite(value) ? fallback : Math.max(min, value);
  return {
    attempts: Math.floor(pick(options?.attempts, DEFAULT_RETRY.attempts, 1)),
    baseDelayMs: pick(options?.baseDelayMs, DEFAULT_RETRY.baseDelayMs, 0),
    maxDelayMs: pick(options?.maxDelayMs, DEFAULT_RETRY.maxDelayMs, 0),
  };
}

/**
 * Reads a `Retry-After` header (RFC 9110 10.2.3): either whole seconds or an HTTP-date.
 * @param value the header value, or null when absent
 * @param nowMs the current time, ms since epoch (injectable for tests)
 * @returns the wait in milliseconds (0 for a date in the past), or undefined when absent or unreadable
 */
export function parseRetryAfterMs(value: string | null, nowMs: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only a date with a letter in it: Date.parse would read "12" or "-5" as a year.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const dateMs = Date.parse(trimmed);
  return Number.isFinite(dateMs) ? Math.max(0, dateMs - nowMs) : undefined;
}

/**
 * How long to wait before retry number `retry` (1 for the first retry), in milliseconds:
 * the server's `Retry-After` when it gave one, otherwise `baseDelayMs * 2^(retry - 1)`;
 * either way at most `maxDelayMs`. No jitter: one desktop user does not make a thundering herd.
 */
export function retryDelayMs(retry: number, options: Required<RetryOptions>, retryAfterMs?: number): number {
  const wanted = retryAfterMs ?? options.baseDelayMs * 2 ** Math.max(0, retry - 1);
  return Math.min(options.maxDelayMs, wanted);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
