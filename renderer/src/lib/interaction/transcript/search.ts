/**
 * Transcript search, as pure functions: an index built once per transcript, and queries run
 * against it on every keystroke.
 *
 * Matching ignores case and accents: text and query are both decomposed (NFD), lower-cased and
 * stripped of combining marks, so "reembolso" finds "Reembolsó". Folding changes lengths ("ó"
 * as one code unit folds to "o", a decomposed "o" + U+0301 folds to "o", "İ" to "i", a Hangul
 * syllable to three jamo), so each folded code unit remembers which part of the original text it
 * came from, and matches are reported in the original text's UTF-16 offsets, ready to highlight.
 */
import type { LogEntry } from '$shared/domain';

/** One entry's message, folded for matching, with the way back to the original text. */
interface FoldedText {
  /** The folded text (NFD, lower case, no combining marks). */
  folded: string;
  /** For each code unit of `folded`, where its source character starts in the original text. */
  starts: Uint32Array;
  /** For each code unit of `folded`, where its source character (and any marks after it) ends. */
  ends: Uint32Array;
}

/** A transcript prepared for searching: one folded message per log entry, in log order. */
export interface TranscriptSearchIndex {
  readonly entries: readonly FoldedText[];
}

/** One occurrence of the query: in log entry `entry` (position in the log, from 0), UTF-16 offsets [start, end) of its message. */
export interface SearchMatch {
  entry: number;
  start: number;
  end: number;
}

const COMBINING_MARKS = /\p{M}/gu;

const ASCII_ONLY = /^\p{ASCII}*$/u;

/**
 * One character (code point) folded for matching: decomposed, lower-cased, without combining
 * marks. Character by character, so text and query fold alike whatever surrounds them (a final
 * sigma is folded to the plain one for the same reason).
 */
function foldChar(char: string): string {
  if (char.length === 1 && char.charCodeAt(0) < 0x80) return char.toLowerCase();
  return char.normalize('NFD').toLowerCase().normalize('NFD').replace(COMBINING_MARKS, '').replace('ς', 'σ');
}

/**
 * A text folded for matching (see the module docs); used for the query as well as the messages.
 * @param text any text
 * @returns the folded text, possibly of another length than `text`
 */
export function foldForSearch(text: string): string {
  return ASCII_ONLY.test(text) ? text.toLowerCase() : Array.from(text, foldChar).join('');
}

/** Folds `text` one code point at a time, noting each folded code unit's source range. */
function foldWithOffsets(text: string): FoldedText {
  if (ASCII_ONLY.test(text)) {
    const starts = new Uint32Array(text.length);
    const ends = new Uint32Array(text.length);
    for (let i = 0; i < text.length; i += 1) {
      starts[i] = i;
      ends[i] = i + 1;
    }
    return { folded: text.toLowerCase(), starts, ends };
  }
  const parts: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const char of text) {
    const folded = foldChar(char);
    const end = at + char.length;
    if (folded === '') {
      // A character that folds away (a combining mark) belongs to the character before it.
      if (ends.length > 0) ends[ends.length - 1] = end;
    } else {
      parts.push(folded);
      for (let k = 0; k < folded.length; k += 1) {
        starts.push(at);
        ends.push(end);
      }
    }
    at = end;
  }
  return { folded: parts.join(''), starts: Uint32Array.from(starts), ends: Uint32Array.from(ends) };
}

/**
 * Prepares `log` for searching: every message folded once, so each keystroke only scans.
 * Entries whose message is not text (unreadable) are indexed as empty.
 * @param log the transcript, in display order
 */
export function buildSearchIndex(log: readonly LogEntry[]): TranscriptSearchIndex {
  return { entries: log.map((entry) => foldWithOffsets(typeof entry.message === 'string' ? entry.message : '')) };
}

/**
 * Every occurrence of one query in a transcript: grouped by log entry for the rows to draw, and
 * numbered in log order (0 to `count - 1`) for stepping through them.
 */
export interface SearchResults {
  /** Number of matches. */
  readonly count: number;
  /** [start, end) UTF-16 ranges of the matches by log entry, left to right; entries without a match are absent. */
  readonly byEntry: ReadonlyMap<number, ReadonlyArray<readonly [number, number]>>;
  /** Log entries holding matches, in log order, each once. */
  readonly entries: readonly number[];
  /**
   * Match number `k` (from 0, in log order), found by binary search over the entries.
   * @returns undefined when `k` is out of range
   */
  at(k: number): SearchMatch | undefined;
}

/** Results of a query that finds nothing. */
export const NO_RESULTS: SearchResults = { count: 0, byEntry: new Map(), entries: [], at: () => undefined };

/**
 * Every occurrence of `query` in the indexed transcript, in log order and, within a message,
 * left to right without overlaps. A query that is empty once trimmed and folded finds nothing.
 * Ranges are built per entry in one pass (a first letter can match tens of thousands of times in a
 * long call, so no object per match is kept).
 * @param index from {@link buildSearchIndex}
 * @param query what the user typed
 * @returns matches with offsets into the original messages (never splitting a character)
 */
export function searchTranscript(index: TranscriptSearchIndex, query: string): SearchResults {
  const needle = foldForSearch(query.trim());
  if (needle === '') return NO_RESULTS;
  const byEntry = new Map<number, Array<[number, number]>>();
  const entries: number[] = [];
  /** For the n-th entry of `entries`, how many matches come before it. */
  const before: number[] = [];
  let count = 0;
  index.entries.forEach((text, entry) => {
    let from = text.folded.indexOf(needle);
    if (from === -1) return;
    const ranges: Array<[number, number]> = [];
    while (from !== -1) {
      ranges.push([text.starts[from] ?? 0, text.ends[from + needle.length - 1] ?? 0]);
      from = text.folded.indexOf(needle, from + needle.length);
    }
    byEntry.set(entry, ranges);
    entries.push(entry);
    before.push(count);
    count += ranges.length;
  });
  const at = (k: number): SearchMatch | undefined => {
    if (!Number.isInteger(k) || k < 0 || k >= count) return undefined;
    let low = 0;
    let high = entries.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((before[middle] ?? 0) <= k) low = middle;
      else high = middle - 1;
    }
    const entry = entries[low] ?? 0;
    const range = byEntry.get(entry)?.[k - (before[low] ?? 0)];
    return range ? { entry, start: range[0], end: range[1] } : undefined;
  };
  return { count, byEntry, entries, at };
}

/** A piece of a message as drawn: plain text, a match, or the current match. */
export interface HighlightSegment {
  text: string;
  /** `null` for plain text; `match` for any occurrence; `current` for the one the user is on. */
  mark: null | 'match' | 'current';
}

/**
 * Cuts `text` into plain and highlighted pieces.
 * @param text the message as shown
 * @param ranges [start, end) UTF-16 offsets of the matches in `text`, sorted, not overlapping
 * @param currentRange position in `ranges` of the current match, or -1
 */
export function highlightSegments(
  text: string,
  ranges: readonly (readonly [number, number])[],
  currentRange: number,
): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  let at = 0;
  ranges.forEach(([start, end], i) => {
    if (start > at) segments.push({ text: text.slice(at, start), mark: null });
    // Two matches inside one wide character (a Hangul syllable) share it: the first draws it.
    if (end > at)
      segments.push({ text: text.slice(Math.max(start, at), end), mark: i === currentRange ? 'current' : 'match' });
    at = Math.max(at, end);
  });
  if (at < text.length || segments.length === 0) segments.push({ text: text.slice(at), mark: null });
  return segments;
}

/**
 * The position a next/previous step leads to, wrapping at both ends; -1 when there are no matches.
 * @param current the current position (-1 when none yet)
 * @param count number of matches
 * @param step +1 for next, -1 for previous
 */
export function stepMatch(current: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}
