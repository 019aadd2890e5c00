/**
 * Display formatting. Units are in the names: seconds for media times, milliseconds for epochs.
 */

/** A length in seconds as whole hours, minutes and seconds; null when negative or not finite. */
function splitSeconds(seconds: number | null | undefined, whole: (x: number) => number) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  const total = whole(seconds);
  return { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** `m:ss` or `h:mm:ss` for a media time in seconds (negative or non-finite shows `0:00`). */
export function formatClock(seconds: number | null | undefined): string {
  const t = splitSeconds(seconds, Math.floor);
  if (!t) return '0:00';
  return t.h > 0 ? `${t.h}:${twoDigits(t.m)}:${twoDigits(t.s)}` : `${t.m}:${twoDigits(t.s)}`;
}

/** A length in seconds as words, e.g. `2 min 14 s`, `1 h 03 min`, `45 s`. */
export function formatDuration(seconds: number | null | undefined): string {
  const t = splitSeconds(seconds, Math.round);
  if (!t) return '—';
  if (t.h > 0) return `${t.h} h ${twoDigits(t.m)} min`;
  if (t.m > 0) return `${t.m} min ${twoDigits(t.s)} s`;
  return `${t.s} s`;
}

const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** An epoch time in milliseconds in the user's local time zone; `—` when unknown. */
export function formatLocalTime(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs)) return '—';
  return dateTime.format(new Date(epochMs));
}

const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const shortTime = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const shortYear = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * An epoch time in milliseconds, short, for lists (the full time belongs in a tooltip, see
 * {@link formatLocalTime}): the time alone today, the day and time this year, the date before
 * that; `—` when unknown.
 * @param nowMs the present, in milliseconds since the epoch (tests pass their own)
 */
export function formatShortTime(epochMs: number | null | undefined, nowMs: number = Date.now()): string {
  if (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs)) return '—';
  const at = new Date(epochMs);
  const now = new Date(nowMs);
  if (at.toDateString() === now.toDateString()) return shortTime.format(at);
  if (at.getFullYear() === now.getFullYear()) return `${shortDate.format(at)}, ${shortTime.format(at)}`;
  return shortYear.format(at);
}

/** An ISO 8601 string as {@link formatShortTime}; the raw text when it does not parse. */
export function formatIsoShort(iso: string | null | undefined, nowMs: number = Date.now()): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : formatShortTime(ms, nowMs);
}

/** An ISO 8601 string (spec 2 timestamps) in local time; the raw text when it does not parse. */
export function formatIsoLocal(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : dateTime.format(new Date(ms));
}

/**
 * An E.164 number grouped for reading (`+1 415 555 0123`); only spacing is added, so copying
 * the raw value is still exact. Non-E.164 input is returned unchanged.
 */
export function formatE164(number: string | null | undefined): string {
  if (!number) return '—';
  if (!/^\+\d{8,15}$/.test(number)) return number;
  if (number.startsWith('+1') && number.length === 12) {
    return `+1 ${number.slice(2, 5)} ${number.slice(5, 8)} ${number.slice(8)}`;
  }
  const rest = number.slice(3);
  return `${number.slice(0, 3)} ${rest.replace(/(\d{3,4})(?=\d{3,4})/g, '$1 ')}`.trim();
}

/** `in_progress` -> `In progress`: open-set enum values shown as words, unknown ones included. */
export function humanize(value: string | null | undefined): string {
  if (!value) return '—';
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Words for the JSON types a server may send where another was expected. */
const RAW_TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  string: 'text',
  boolean: 'true/false',
  object: 'an object',
  array: 'a list',
};

/**
 * What the view shows in place of a field the server sent with the wrong type, e.g.
 * `Unreadable (a number)`; `rawType` is a JSON type name (see `UnreadableField`).
 */
export function formatUnreadable(rawType: string): string {
  return `Unreadable (${RAW_TYPE_WORDS[rawType] ?? rawType})`;
}

/**
 * "Unreadable (…)" when `marks` (an interaction's or log entry's `unreadable` list) names any of
 * `fields`, else null.
 */
export function unreadableText(
  marks: readonly { field: string; rawType: string }[] | undefined,
  ...fields: string[]
): string | null {
  const mark = marks?.find((u) => fields.includes(u.field));
  return mark ? formatUnreadable(mark.rawType) : null;
}

/** Whole numbers with thousands separators, as the app's English text writes them. */
const COUNT_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * A count with its noun in English, e.g. `1 entry`, `0 entries`, `5,000 entries`.
 * @param count a whole number
 * @param singular the noun for one
 * @param plural the noun for any other count; `singular` + `s` when omitted
 */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${COUNT_FORMAT.format(count)} ${count === 1 ? singular : plural}`;
}

/**
 * A short length in seconds with one decimal, e.g. `3.2 s`, `0.4 s`; `—` when null or not finite.
 * For turn gaps and silences, where tenths matter (formatDuration rounds to whole seconds).
 */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  return `${seconds.toFixed(1)} s`;
}
