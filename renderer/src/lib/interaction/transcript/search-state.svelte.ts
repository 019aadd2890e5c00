/**
 * The transcript's search, as reactive state: what was typed, the matches (recomputed only when
 * the query or the transcript changes; the transcript is folded once, not per keystroke) and
 * which match the user is on.
 */
import type { LogEntry } from '$shared/domain';
import {
  buildSearchIndex,
  NO_RESULTS,
  searchTranscript,
  stepMatch,
  type SearchMatch,
  type SearchResults,
  type TranscriptSearchIndex,
} from './search';

/** Search over one transcript: create it in a component, passing a getter for the current log. */
export class TranscriptSearchState {
  /** What the user typed. */
  query = $state('');
  /** Position of the current match in {@link results} (from 0, in log order); -1 when there is none. */
  current = $state(-1);

  readonly #log: () => readonly LogEntry[];

  /** The transcript folded for matching, rebuilt only when the log itself changes. */
  readonly index: TranscriptSearchIndex = $derived.by(() => buildSearchIndex(this.#log()));
  /** Every match. The index is built on the first query or when idle ({@link prepare}), not when the transcript opens. */
  readonly results: SearchResults = $derived(this.active ? searchTranscript(this.index, this.query) : NO_RESULTS);
  /** Times (seconds) of the entries holding matches, each entry once, untimed entries left out. */
  readonly matchTimes: number[] = $derived.by(() => {
    const log = this.#log();
    const times: number[] = [];
    for (const entry of this.results.entries) {
      const at = log[entry]?.offsetSeconds;
      if (at !== null && at !== undefined) times.push(at);
    }
    return times;
  });

  /** @param log returns the transcript being shown (read reactively) */
  constructor(log: () => readonly LogEntry[]) {
    this.#log = log;
  }

  /**
   * Builds the index now (it is otherwise built on the first query): called while the page is
   * idle, so the first keystroke only scans.
   * @returns the index (kept by the state; callers need not hold it)
   */
  prepare(): TranscriptSearchIndex {
    return this.index;
  }

  /** True once something other than blanks has been typed. */
  get active(): boolean {
    return this.query.trim() !== '';
  }

  /** The match the user is on, if any. */
  get currentMatch(): SearchMatch | undefined {
    return this.results.at(this.current);
  }

  /**
   * Sets the query and goes to its first match.
   * @returns the first match, if any
   */
  setQuery(query: string): SearchMatch | undefined {
    this.query = query;
    this.current = this.results.count > 0 ? 0 : -1;
    return this.currentMatch;
  }

  /**
   * Goes to the next (+1) or previous (-1) match, wrapping around at either end.
   * @returns the match now current, if any
   */
  step(direction: 1 | -1): SearchMatch | undefined {
    this.current = stepMatch(this.current, this.results.count, direction);
    return this.currentMatch;
  }

  /** Clears the query and the current match. */
  clear(): void {
    this.query = '';
    this.current = -1;
  }

  /**
   * Which of entry `entry`'s ranges is the current match, for its row to mark; -1 when the
   * current match is elsewhere.
   */
  currentRangeIn(entry: number): number {
    const match = this.currentMatch;
    if (match?.entry !== entry) return -1;
    return this.results.byEntry.get(entry)?.findIndex(([start]) => start === match.start) ?? -1;
  }
}
