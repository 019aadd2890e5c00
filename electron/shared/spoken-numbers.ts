/**
 * Numbers as speech-to-text writes them in a transcript, pure: runs of digits read one by one
 * ("four four seven nine", "double three", "triple seven", "oh" for zero, mixed with figures as
 * in "4 4 seven 9"), and years read as words ("nineteen eighty two", "two thousand and five").
 * Used by the redaction rules (redaction.ts).
 */

/** A word read as one digit. */
const DIGIT_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  oh: 0,
  o: 0,
  nought: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
};
/** Words that repeat the digit after them. */
const REPEATS: Readonly<Record<string, number>> = { double: 2, triple: 3 };
/** Tens and teens: two digits each when read in pairs ("five five five, oh one twenty three"). */
const TEENS: Readonly<Record<string, number>> = {
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
/** Words after a number that make it an amount of money, not an identifier. */
const MONEY_AFTER = /^[\s,]*(?:dollars?|bucks|cents?|pounds?|quid|pence|euros?|p\b)/i;
/** Symbols before a number that make it an amount of money. */
const MONEY_BEFORE = /[$€£¥]\s?$/;

/** A run of digits read out in a text. */
export interface SpokenDigitRun {
  /** Character offsets in the text: `[start, end)`. */
  start: number;
  end: number;
  /** The digits read, in order (e.g. `4479` for "four four seven nine"). */
  digits: string;
}

interface Token {
  start: number;
  end: number;
  word: string;
}

/** Words and figures with their offsets. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[A-Za-z]+|\d+/g)) {
    out.push({ start: m.index, end: m.index + m[0].length, word: m[0].toLowerCase() });
  }
  return out;
}

/**
 * True for a word or figure that can be part of a run read digit by digit. A figure that reads
 * as a year (1900–2099) is not: "in 2019 two people came" holds no run.
 */
function isRunToken(word: string): boolean {
  if (/^\d+$/.test(word)) return !/^(?:19|20)\d\d$/.test(word);
  return word in DIGIT_WORDS || word in REPEATS || word in TEENS || word in TENS;
}

/** What lies between two tokens of one run: spaces, at most one comma, dash or full stop. */
const RUN_GAP = /^[ \t]*[,.-]?[ \t]*$/;

/**
 * Runs of digits read as words in `text`, mixed with figures or not, that hold at least
 * `minDigits` digits read as single digits (zero to nine, "oh", "double"/"triple" and figures).
 * - Tens and teens ("twenty three") count as their two digits only inside such a run, so a time
 *   ("three thirty", "ten forty five") or a price ("forty nine ninety nine") is never a run.
 * - A run made of figures only is left to the written rules; a run followed by a currency word or
 *   preceded by a currency sign is an amount, not a run.
 * - "double"/"triple" repeat the digit after them ("double three" is 33); "oh" and "o" are zero.
 */
export function spokenDigitRuns(text: string, minDigits: number): SpokenDigitRun[] {
  const all = tokens(text);
  const runs: SpokenDigitRun[] = [];
  let i = 0;
  while (i < all.length) {
    const first = all[i];
    if (!first || !isRunToken(first.word)) {
      i += 1;
      continue;
    }
    let j = i + 1;
    for (; j < all.length; j += 1) {
      const prev = all[j - 1];
      const next = all[j];
      if (!prev || !next || !isRunToken(next.word) || !RUN_GAP.test(text.slice(prev.end, next.start))) break;
    }
    const run = readRun(all.slice(i, j));
    if (run && run.singles >= minDigits && run.hasWord && !isMoney(text, run.start, run.end)) {
      runs.push({ start: run.start, end: run.end, digits: run.digits });
    }
    i = j;
  }
  return runs;
}

interface ReadRun {
  start: number;
  end: number;
  digits: string;
  /** Digits read singly (words, repeats, figures). */
  singles: number;
  /** True when at least one digit was a word (not only figures). */
  hasWord: boolean;
}

/** One step of a run: the digits read, whether singly, and how many tokens it took. */
interface Step {
  read: string;
  single: boolean;
  taken: number;
}

/** Reads the token at `k` (and the one after it for "double three" or "twenty three"), or null to skip it. */
function stepAt(run: readonly Token[], k: number): Step | null {
  const word = run[k]?.word ?? '';
  const next = run[k + 1]?.word;
  if (/^\d+$/.test(word)) return { read: word, single: true, taken: 1 };
  const digit = DIGIT_WORDS[word];
  if (digit !== undefined) return { read: String(digit), single: true, taken: 1 };
  const repeat = REPEATS[word];
  if (repeat !== undefined) {
    const repeated = next === undefined ? undefined : DIGIT_WORDS[next];
    return repeated === undefined ? null : { read: String(repeated).repeat(repeat), single: true, taken: 2 };
  }
  const tens = TENS[word];
  const unit = next === undefined || next === 'oh' || next === 'o' ? undefined : DIGIT_WORDS[next];
  if (tens !== undefined && unit !== undefined && unit > 0)
    return { read: String(tens + unit), single: false, taken: 2 };
  return { read: String(TEENS[word] ?? tens ?? ''), single: false, taken: 1 };
}

/** Reads the digits of a run of tokens; a "double"/"triple" not followed by a digit word is dropped. */
function readRun(run: readonly Token[]): ReadRun | null {
  const out: ReadRun = { start: -1, end: -1, digits: '', singles: 0, hasWord: false };
  for (let k = 0; k < run.length;) {
    const step = stepAt(run, k);
    if (!step) {
      k += 1;
      continue;
    }
    const first = run[k];
    const last = run[k + step.taken - 1];
    if (!first || !last) break;
    if (out.start === -1) out.start = first.start;
    out.end = last.end;
    out.digits += step.read;
    if (step.single) out.singles += step.read.length;
    if (!/^\d+$/.test(first.word)) out.hasWord = true;
    k += step.taken;
  }
  return out.start === -1 ? null : out;
}

function isMoney(text: string, start: number, end: number): boolean {
  return MONEY_BEFORE.test(text.slice(Math.max(0, start - 2), start)) || MONEY_AFTER.test(text.slice(end, end + 12));
}

const UNITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const UNIT = `(?:${UNITS.join('|')})`;
const TEEN = `(?:${Object.keys(TEENS).join('|')})`;
const TEN = `(?:${Object.keys(TENS).join('|')})`;
/** Two digits as words: "eighty two", "eighty-two", "twelve", "oh five". */
const TWO_DIGITS = `(?:${TEN}(?:[ -]${UNIT})?|${TEEN}|(?:oh|o)[ -]${UNIT})`;

/**
 * A year read as words, as a regular expression source (no groups): "nineteen eighty two",
 * "nineteen oh five", "twenty twenty", "two thousand and five", "two thousand".
 */
export const SPOKEN_YEAR = `(?:(?:nineteen|twenty)[ -]${TWO_DIGITS}|two thousand(?:(?: and)? (?:${TWO_DIGITS}|${UNIT}))?)`;

/**
 * The year a {@link SPOKEN_YEAR} match reads, e.g. 1982 for "nineteen eighty two"; null when
 * `words` is not one.
 */
export function spokenYear(words: string): number | null {
  const w = words.toLowerCase().replace(/-/g, ' ').replace(/\s+/g, ' ').trim();
  const thousand = /^two thousand(?:(?: and)? (.+))?$/.exec(w);
  if (thousand) return thousand[1] === undefined ? 2000 : withTwoDigits(2000, thousand[1]);
  const century = /^(nineteen|twenty) (.+)$/.exec(w);
  if (!century?.[1] || century[2] === undefined) return null;
  return withTwoDigits(century[1] === 'nineteen' ? 1900 : 2000, century[2]);
}

function withTwoDigits(base: number, words: string): number | null {
  const parts = words.split(' ');
  const [a = '', b] = parts;
  if (parts.length === 1) {
    const v = TEENS[a] ?? TENS[a] ?? DIGIT_WORDS[a];
    return v === undefined || a === 'oh' || a === 'o' ? null : base + v;
  }
  if (parts.length !== 2 || b === undefined) return null;
  const unit = DIGIT_WORDS[b];
  if (unit === undefined) return null;
  if (a === 'oh' || a === 'o') return base + unit;
  const tens = TENS[a];
  return tens === undefined ? null : base + tens + unit;
}

/** Ordinal and cardinal day words, 1–31 ("fourth", "twenty first", "the 4th" is figures). */
const DAY_WORDS: Readonly<Record<string, number>> = (() => {
  const ordinals = [
    'first',
    'second',
    'third',
    'fourth',
    'fifth',
    'sixth',
    'seventh',
    'eighth',
    'ninth',
    'tenth',
    'eleventh',
    'twelfth',
    'thirteenth',
    'fourteenth',
    'fifteenth',
    'sixteenth',
    'seventeenth',
    'eighteenth',
    'nineteenth',
    'twentieth',
  ];
  const out: Record<string, number> = {};
  ordinals.forEach((w, i) => (out[w] = i + 1));
  UNITS.forEach((w, i) => (out[w] = i + 1));
  Object.entries(TEENS).forEach(([w, v]) => (out[w] = v));
  out.twenty = 20;
  out.thirtieth = 30;
  out.thirty = 30;
  for (let u = 1; u <= 9; u += 1) {
    out[`twenty ${UNITS[u - 1] ?? ''}`] = 20 + u;
    out[`twenty ${ordinals[u - 1] ?? ''}`] = 20 + u;
  }
  out['thirty one'] = 31;
  out['thirty first'] = 31;
  return out;
})();

/** A day of the month in words, as a regular expression source (no groups). */
export const SPOKEN_DAY = `(?:${Object.keys(DAY_WORDS)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(' ', '[ -]'))
  .join('|')})`;

/** The day a {@link SPOKEN_DAY} match reads (1–31), or null. */
export function spokenDay(words: string): number | null {
  return DAY_WORDS[words.toLowerCase().replace(/-/g, ' ').replace(/\s+/g, ' ').trim()] ?? null;
}
