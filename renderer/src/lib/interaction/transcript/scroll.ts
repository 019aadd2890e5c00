/**
 * Where a transcript row stands in the scroll area of the virtualized list, and how to scroll to
 * it: the geometry the transcript uses to follow playback and to show search matches, and the
 * height assumed for rows not yet drawn.
 */
import type { SvelteVirtualizer } from '@tanstack/svelte-virtual';

/** The transcript's virtualizer (the parts read here). */
type ListVirtualizer = Pick<
  SvelteVirtualizer<HTMLDivElement, HTMLLIElement>,
  'measurementsCache' | 'scrollOffset' | 'scrollRect' | 'getOffsetForIndex'
>;

/**
 * True when row `index` is entirely within the visible part of `scroller`. During a scroll event
 * (`fromElement`), the element's own position is read (the virtualizer may not have heard of the
 * scroll yet); otherwise the virtualizer's copy, which costs no layout work.
 */
export function rowInView(v: ListVirtualizer, scroller: HTMLElement, index: number, fromElement = false): boolean {
  const item = v.measurementsCache[index];
  if (!item) return false;
  const top = fromElement ? scroller.scrollTop : (v.scrollOffset ?? 0);
  const height = fromElement ? scroller.clientHeight : (v.scrollRect?.height ?? 0);
  return item.start >= top - 1 && item.end <= top + height + 1;
}

/**
 * How to scroll to row `index`: a nearby row (within two views) glides into view, a far jump (a
 * seek) lands at once, and nothing glides when the system asks for reduced motion.
 */
export function revealBehaviour(v: ListVirtualizer, index: number): 'smooth' | 'auto' {
  const target = v.getOffsetForIndex(index, 'center');
  const distance = target ? Math.abs(target[0] - (v.scrollOffset ?? 0)) : Infinity;
  // matchMedia is missing where there is no layout engine (jsdom in tests).
  const reduceMotion =
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return !reduceMotion && distance < 2 * (v.scrollRect?.height ?? 0) ? 'smooth' : 'auto';
}

/**
 * The rows to draw: those in view plus `overscan` either side, and the row holding keyboard focus
 * (`focused`, or null) even when scrolled away, so focus is not lost.
 */
export function rowsToDraw(
  range: { startIndex: number; endIndex: number; overscan: number; count: number },
  focused: number | null,
): number[] {
  const start = Math.max(0, range.startIndex - range.overscan);
  const end = Math.min(range.count - 1, range.endIndex + range.overscan);
  const indexes: number[] = [];
  if (focused !== null && focused < start && focused < range.count) indexes.push(focused);
  for (let i = start; i <= end; i += 1) indexes.push(i);
  if (focused !== null && focused > end && focused < range.count) indexes.push(focused);
  return indexes;
}

/** How many of the most recently measured rows {@link TypicalRowHeight} learns from. */
const TYPICAL_ROW_SAMPLES = 32;

/**
 * The height most rows of the transcript have, learnt from the rows measured so far: the median
 * of the last {@link TYPICAL_ROW_SAMPLES} measured heights, in CSS pixels (before any, the
 * initial guess). The virtual list assumes it for the rows not yet drawn, so most rows measure
 * as assumed: each row that measures otherwise makes the list recompute the position of every
 * row after it, thousands in a long call, as a search or playback brings new rows into view.
 */
export class TypicalRowHeight {
  #recent: number[] = [];
  #px: number;

  /** @param initialPx the height assumed before any row is measured, in CSS pixels */
  constructor(initialPx: number) {
    this.#px = initialPx;
  }

  /** The typical row height, in CSS pixels. */
  get px(): number {
    return this.#px;
  }

  /**
   * Notes one row's measured height (a row not laid out, measuring 0, is left out).
   * @param px the measured height, in CSS pixels
   * @returns `px`, so the call can wrap the list's own measurement
   */
  note(px: number): number {
    if (px > 0) {
      this.#recent.push(px);
      if (this.#recent.length > TYPICAL_ROW_SAMPLES) this.#recent.shift();
      const sorted = [...this.#recent].sort((a, b) => a - b);
      this.#px = sorted[sorted.length >> 1] ?? this.#px;
    }
    return px;
  }
}
