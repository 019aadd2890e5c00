/**
 * Time rules for interactions. Spec 2 "Gaps": the units of `started_at`, `ended_at`, `duration`
 * and the log `timestamp` are not shown, so the app decides as follows (each rule is tested in
 * test/main/api/timestamps.test.ts):
 *
 * 1. Epoch values (`started_at`, `ended_at`): a value of at least 1e11 is milliseconds, a smaller
 *    one is seconds. (1e11 s is the year 5138; 1e11 ms is March 1973, so no real call is ambiguous.)
 *    An ISO 8601 date-time with a zone (the form the same API uses for `created_at`) is read as
 *    that instant; see {@link isoToMs}.
 * 2. Duration: when start and end are both known, the derived length `end - start` wins. A given
 *    `duration` is accepted when it matches the derived length read as seconds or as milliseconds
 *    (within 2 s or 2 %); otherwise the derived length is used. Without an end, `duration` is read
 *    as seconds.
 * 3. Log timestamp: a value of at least 1e9 is an absolute epoch time on the same clock as
 *    `started_at` (seconds or milliseconds by rule 1), and its offset is `timestamp - started_at`.
 *    A smaller value is an offset from the start. Offsets of one log share one unit: seconds,
 *    unless the largest offset cannot fit the call read as seconds but does as milliseconds.
 */

/** Epoch values at or above this are milliseconds (rule 1). */
const EPOCH_MS_THRESHOLD = 1e11;
/** Log timestamps at or above this are absolute epoch times, not offsets (rule 3). 1e9 s = 2001-09-09. */
const ABSOLUTE_TIMESTAMP_THRESHOLD = 1e9;

/**
 * ISO 8601 date-time with an explicit zone: `2024-05-01T09:30:00Z`, `2024-05-01T09:30:00.123+02:00`,
 * `2024-05-01 09:30Z`. Without a zone the instant would depend on the reader's clock, so it is
 * not accepted.
 */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Rule 1 for text: an ISO 8601 date-time with a zone, in milliseconds since the epoch, or null
 * when `text` is not one (or names no real instant, such as month 13).
 */
export function isoToMs(text: string): number | null {
  const trimmed = text.trim();
  if (!ISO_DATE_TIME.test(trimmed)) return null;
  const ms = Date.parse(trimmed.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(ms) ? ms : null;
}

/** Rule 1: an epoch value in seconds or milliseconds, returned in milliseconds. */
export function epochToMs(value: number): number {
  return Math.abs(value) >= EPOCH_MS_THRESHOLD ? value : value * 1000;
}

/**
 * Rule 2: the length of an interaction in seconds, or null when nothing says.
 * @param startedAtMs start, ms since epoch (already normalized), or null
 * @param endedAtMs end, ms since epoch, or null
 * @param duration the server's `duration`, unit unknown, or null
 */
export function resolveDurationSeconds(
  startedAtMs: number | null,
  endedAtMs: number | null,
  duration: number | null,
): number | null {
  const derived =
    startedAtMs !== null && endedAtMs !== null && endedAtMs >= startedAtMs ? (endedAtMs - startedAtMs) / 1000 : null;
  const given = duration !== null && Number.isFinite(duration) && duration >= 0 ? duration : null;
  if (derived === null) return given;
  if (given === null) return derived;
  const close = (a: number) => Math.abs(a - derived) <= Math.max(2, derived * 0.02);
  if (close(given)) return given;
  if (close(given / 1000)) return given / 1000;
  return derived;
}

/**
 * Rule 3: offsets in seconds from the start for each raw log timestamp (null stays null).
 * @param timestamps the raw `timestamp` of each entry, in server order
 * @param startedAtMs normalized start, or null (then absolute timestamps are taken relative to
 *   the earliest absolute timestamp of the log)
 * @param durationSeconds resolved length, used to tell offset units apart; null if unknown
 * @returns offsets in seconds, never negative
 */
export function resolveLogOffsets(
  timestamps: readonly (number | null)[],
  startedAtMs: number | null,
  durationSeconds: number | null,
): (number | null)[] {
  const isAbsolute = (t: number) => Math.abs(t) >= ABSOLUTE_TIMESTAMP_THRESHOLD;
  // Loops, not Math.min(...xs): a log of hundreds of thousands of entries would overflow the stack.
  let earliestAbsoluteMs = Number.POSITIVE_INFINITY;
  let maxRelative = 0;
  for (const t of timestamps) {
    if (t === null) continue;
    if (isAbsolute(t)) earliestAbsoluteMs = Math.min(earliestAbsoluteMs, epochToMs(t));
    else maxRelative = Math.max(maxRelative, t);
  }
  const originMs = startedAtMs ?? (Number.isFinite(earliestAbsoluteMs) ? earliestAbsoluteMs : 0);
  // Longest plausible call when the length is unknown: 4 hours.
  const limitSeconds = (durationSeconds ?? 4 * 3600) * 1.5 + 5;
  const relativeInMs = maxRelative > limitSeconds && maxRelative / 1000 <= limitSeconds;

  return timestamps.map((t) => {
    if (t === null || !Number.isFinite(t)) return null;
    const seconds = isAbsolute(t) ? (epochToMs(t) - originMs) / 1000 : relativeInMs ? t / 1000 : t;
    return Math.max(0, seconds);
  });
}
