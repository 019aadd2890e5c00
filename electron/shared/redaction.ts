/**
 * PII redaction, pure: finds card numbers, account-like numbers, phone numbers, e-mail addresses,
 * dates of birth and digits spoken as words in a transcript's text, and masks them, so an
 * excerpt, an export or an evidence pack can go into a ticket without the customer's data. Used
 * in main (exports, the evidence pack) and in the renderer (the preview of what will be masked).
 *
 * Each rule is switched on or off by {@link RedactionSettings}. Every written digit run gets one
 * class, card (13–19 digits passing the Luhn check) before phone before account, and is masked
 * when its class's rule is on; a run shaped like a date is a date, never an account. The rules err
 * on masking: a seven-digit order number is masked as a phone number, which harms no one.
 *
 * Left alone on purpose: times ("10:45", "at 3 30", "three thirty"), prices ("$49.99", "forty
 * nine ninety nine dollars"), counts ("two tickets"), short numbers (fewer than
 * {@link MIN_ACCOUNT_DIGITS} digits), years in sentences, and dates that are not a birth date
 * (a year within the last ten years, and no "born" or "birth" just before).
 *
 * Phone numbers are found by shape, not by a numbering-plan library: libphonenumber-js drops
 * numbers it does not hold valid (fictional ranges, unknown countries, national numbers without
 * the right default country), and a number a library does not know is still the caller's.
 */
import { z } from 'zod';
import { SPOKEN_DAY, SPOKEN_YEAR, spokenDay, spokenDigitRuns, spokenYear } from './spoken-numbers';

/** What a masked span was found as. */
export type RedactionRule = 'card' | 'account' | 'phone' | 'email' | 'dateOfBirth' | 'spokenDigits';

/** Which rules run; every one is on by default. */
export const redactionSettingsSchema = z.object({
  card: z.boolean().default(true),
  account: z.boolean().default(true),
  phone: z.boolean().default(true),
  email: z.boolean().default(true),
  dateOfBirth: z.boolean().default(true),
  spokenDigits: z.boolean().default(true),
});
export type RedactionSettings = z.output<typeof redactionSettingsSchema>;
/** Every rule on. */
export const DEFAULT_REDACTION_SETTINGS: RedactionSettings = redactionSettingsSchema.parse({});

/** Words for each rule (Settings, the preview's legend). */
export const REDACTION_RULE_LABELS: Readonly<Record<RedactionRule, string>> = {
  card: 'Card numbers',
  account: 'Account numbers',
  phone: 'Phone numbers',
  email: 'E-mail addresses',
  dateOfBirth: 'Dates of birth',
  spokenDigits: 'Digits spoken as words',
};

/** What replaces a span of each rule in the masked text. */
export const REDACTION_MASKS: Readonly<Record<RedactionRule, string>> = {
  card: '[card number]',
  account: '[account number]',
  phone: '[phone number]',
  email: '[e-mail]',
  dateOfBirth: '[date of birth]',
  spokenDigits: '[number]',
};

/** Fewest digits in a written run masked as an account number. */
export const MIN_ACCOUNT_DIGITS = 6;
/** Fewest digits read singly in a spoken run masked. */
export const MIN_SPOKEN_DIGITS = 4;

/** One masked stretch. */
export interface RedactionSpan {
  /** Character offsets in the original text, `[start, end)`. */
  start: number;
  end: number;
  /** Character offsets of its mask in the masked text, `[maskedStart, maskedEnd)`. */
  maskedStart: number;
  maskedEnd: number;
  rule: RedactionRule;
}

/** The masked text and what was masked. */
export interface Redaction {
  text: string;
  /** In text order, never overlapping. */
  spans: RedactionSpan[];
}

/** Options beyond the settings. */
export interface RedactionOptions {
  /** The year "now" for the birth-date rule (default: the current UTC year). */
  referenceYear?: number;
}

type Found = Pick<RedactionSpan, 'start' | 'end' | 'rule'>;

/**
 * Masks what the switched-on rules find in `text`.
 * @returns the masked text and the spans (offsets in both texts), in order
 */
export function redact(
  text: string,
  settings: RedactionSettings = DEFAULT_REDACTION_SETTINGS,
  options: RedactionOptions = {},
): Redaction {
  const found = findPii(text, settings, options);
  let out = '';
  let at = 0;
  const spans: RedactionSpan[] = [];
  for (const span of found) {
    out += text.slice(at, span.start);
    const mask = REDACTION_MASKS[span.rule];
    spans.push({ ...span, maskedStart: out.length, maskedEnd: out.length + mask.length });
    out += mask;
    at = span.end;
  }
  return { text: out + text.slice(at), spans };
}

/**
 * The spans the switched-on rules find in `text`, in order and merged where they overlap (the
 * earlier-starting span's rule is kept).
 */
export function findPii(
  text: string,
  settings: RedactionSettings = DEFAULT_REDACTION_SETTINGS,
  options: RedactionOptions = {},
): Found[] {
  const referenceYear = options.referenceYear ?? new Date().getUTCFullYear();
  const found: Found[] = [];
  const emails = [...emailSpans(text)];
  if (settings.email) found.push(...emails);
  const dates = dateSpans(text, referenceYear);
  for (const date of dates) {
    if (date.isBirth && settings.dateOfBirth) found.push({ start: date.start, end: date.end, rule: 'dateOfBirth' });
  }
  const taken = [...emails, ...dates];
  for (const run of writtenRuns(text)) {
    if (taken.some((t) => t.start < run.end && run.start < t.end)) continue;
    if (settings[run.rule]) found.push(run);
  }
  if (settings.spokenDigits) {
    for (const run of spokenDigitRuns(text, MIN_SPOKEN_DIGITS)) {
      found.push({ start: run.start, end: run.end, rule: 'spokenDigits' });
    }
  }
  return merge(found);
}

function merge(spans: Found[]): Found[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Found[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else out.push({ start: span.start, end: span.end, rule: span.rule });
  }
  return out;
}

/** Written e-mail addresses, and spoken ones ("jane dot doe at example dot com"). */
function* emailSpans(text: string): Generator<Found> {
  const written = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
  for (const m of text.matchAll(written)) yield { start: m.index, end: m.index + m[0].length, rule: 'email' };
  const word = '[a-z0-9]+';
  const spoken = new RegExp(
    `\\b${word}(?:\\s+(?:dot|underscore|dash|hyphen)\\s+${word})*\\s+at\\s+${word}(?:\\s+dot\\s+${word})*\\s+dot\\s+(?:com|net|org|co|uk|io|edu|gov|info|biz|me|de|fr|ca|au|us|nl|ie)\\b`,
    'gi',
  );
  for (const m of text.matchAll(spoken)) yield { start: m.index, end: m.index + m[0].length, rule: 'email' };
}

/** A run of figures: units of one digit, optionally in brackets, joined by at most one space, dot or dash. */
const WRITTEN_RUN = /(?<![\p{L}\p{N}])\+?(?:\(\d{1,5}\)|\d)(?:[ .-]?(?:\(\d{1,5}\)|\d))*(?![\p{L}\p{N}])/gu;
/** An IBAN-like account: country letters, check digits, then 11 to 30 letters and figures (spaces between groups). */
const IBAN_LIKE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
/** Words just before a number that make it a phone number. */
const PHONE_CUE = /(?:phone|mobile|cell|call|reach|ring|text|landline|extension|number is)[^\p{L}\p{N}]{1,12}$/iu;
const MONEY_BEFORE = /[$€£¥]\s?$/;

/** Written digit runs of {@link MIN_ACCOUNT_DIGITS} digits or more (7 for phones), each with its class. */
function* writtenRuns(text: string): Generator<Found> {
  for (const m of text.matchAll(WRITTEN_RUN)) {
    const start = m.index;
    const end = start + m[0].length;
    const digits = m[0].replace(/\D/g, '');
    if (digits.length < MIN_ACCOUNT_DIGITS) continue;
    if (MONEY_BEFORE.test(text.slice(Math.max(0, start - 2), start))) continue;
    const rule = classify(m[0], digits, text.slice(Math.max(0, start - 24), start));
    yield { start, end, rule };
  }
  for (const m of text.matchAll(IBAN_LIKE)) {
    if ((m[0].match(/\d/g)?.length ?? 0) >= MIN_ACCOUNT_DIGITS) {
      yield { start: m.index, end: m.index + m[0].length, rule: 'account' };
    }
  }
}

function classify(run: string, digits: string, before: string): 'card' | 'phone' | 'account' {
  if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return 'card';
  if (digits.length >= 7 && digits.length <= 15 && looksLikePhone(run, digits, before)) return 'phone';
  return 'account';
}

/** E.164 (`+`), a bracketed area code, a national trunk `0`, the 3-3-4 / 3-4 groupings, or a phone word before it. */
function looksLikePhone(run: string, digits: string, before: string): boolean {
  if (run.startsWith('+') || run.includes('(')) return true;
  if (digits.startsWith('0') && digits.length >= 10 && digits.length <= 11 && /[ .-]/.test(run)) return true;
  const groups = run.split(/[ .-]/).map((g) => g.length);
  const shape = groups.join('-');
  if (shape === '3-3-4' || shape === '3-4' || shape === '1-3-3-4') return true;
  return PHONE_CUE.test(before);
}

/** True when `digits` passes the Luhn check (ISO/IEC 7812 card numbers). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_RE = `(?:${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\.?`;
const DAY_FIGURE = '(?:[0-2]?\\d|3[01])(?:st|nd|rd|th)?';
const DAY = `(?:${DAY_FIGURE}|${SPOKEN_DAY})`;
const YEAR = `(?:\\d{4}|${SPOKEN_YEAR})`;
/** Dates with a month name: "4 July 1982", "the fourth of July", "July 4th, 1982", "July the fourth nineteen eighty two". */
const NAMED_DATES = [
  new RegExp(`\\b(?:the\\s+)?(?<day>${DAY})(?:\\s+of)?\\s+(?<month>${MONTH_RE})(?:,?\\s+(?<year>${YEAR}))?\\b`, 'gi'),
  new RegExp(`\\b(?<month>${MONTH_RE})\\s+(?:the\\s+)?(?<day>${DAY})(?:,?\\s+(?<year>${YEAR}))?\\b`, 'gi'),
];
/** Dates in figures: day and month either way round, with a two- or four-digit year; or ISO 8601. */
const FIGURE_DATE = /(?<![\d./-])(?:(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})|(\d{4})-(\d{2})-(\d{2}))(?![\d./-]?\d)/g;
/** Words just before a date that make it a birth date. */
const BIRTH_CUE = /(?:born|birth|birthday|d\.?o\.?b\.?)\b[^.!?\n]{0,30}$/i;

interface DateSpan {
  start: number;
  end: number;
  isBirth: boolean;
}

/**
 * Dates in `text`, each with whether it is a birth date: a "born"/"birth"/"DOB" within 30
 * characters before it, or a year from 1900 to ten years before `referenceYear`.
 */
function dateSpans(text: string, referenceYear: number): DateSpan[] {
  const spans: DateSpan[] = [];
  const add = (start: number, end: number, year: number | null, valid: boolean) => {
    if (!valid || spans.some((s) => s.start < end && start < s.end)) return;
    const old = year !== null && year >= 1900 && year <= referenceYear - 10;
    spans.push({ start, end, isBirth: old || BIRTH_CUE.test(text.slice(Math.max(0, start - 40), start)) });
  };
  for (const pattern of NAMED_DATES) {
    for (const m of text.matchAll(pattern)) {
      const { day = '', month = '', year } = m.groups ?? {};
      const dayNumber = /^\d/.test(day) ? Number.parseInt(day, 10) : spokenDay(day);
      if (/^may$/i.test(month) && year === undefined && !/^\d/.test(day)) continue;
      add(m.index, m.index + m[0].length, yearOf(year), dayNumber !== null && dayNumber >= 1 && dayNumber <= 31);
    }
  }
  for (const m of text.matchAll(FIGURE_DATE)) {
    const [, a, , b, y, isoY, isoM, isoD] = m;
    if (isoY !== undefined) {
      add(m.index, m.index + m[0].length, Number(isoY), Number(isoM) >= 1 && Number(isoM) <= 12 && Number(isoD) <= 31);
      continue;
    }
    const first = Number(a);
    const second = Number(b);
    const valid = first >= 1 && second >= 1 && Math.min(first, second) <= 12 && Math.max(first, second) <= 31;
    add(m.index, m.index + m[0].length, twoOrFourDigitYear(y ?? '', referenceYear), valid);
  }
  return spans.sort((p, q) => p.start - q.start);
}

function yearOf(year: string | undefined): number | null {
  if (year === undefined) return null;
  return /^\d{4}$/.test(year) ? Number(year) : spokenYear(year);
}

/** A year of two figures is in this century when not after `referenceYear`, else in the last. */
function twoOrFourDigitYear(year: string, referenceYear: number): number {
  if (year.length === 4) return Number(year);
  const yy = Number(year);
  return yy <= referenceYear % 100 ? 2000 + yy : 1900 + yy;
}
