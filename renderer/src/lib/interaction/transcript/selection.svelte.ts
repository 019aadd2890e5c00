/**
 * The transcript entries picked for an excerpt: one contiguous range, from the entry picked first
 * (the anchor) to the one it was extended to, in either direction. Rows ask {@link has} for their
 * own index only, so a long transcript costs nothing beyond the rows drawn. Indexes are positions
 * in the transcript, from 0.
 */

/** A contiguous range of entries, `start` ≤ `end`, both included. */
export interface EntryRange {
  start: number;
  end: number;
}

/** The picked range and the ways to change it; see the module comment. */
export class TranscriptSelection {
  private anchor = $state<number | null>(null);
  private head = $state<number | null>(null);

  /** The picked range, or null when nothing is picked. */
  readonly range: EntryRange | null = $derived(
    this.anchor === null || this.head === null
      ? null
      : { start: Math.min(this.anchor, this.head), end: Math.max(this.anchor, this.head) },
  );

  /** How many entries are picked (0 when none). */
  get count(): number {
    return this.range ? this.range.end - this.range.start + 1 : 0;
  }

  /** True when entry `index` is in the picked range. */
  has(index: number): boolean {
    const range = this.range;
    return range !== null && index >= range.start && index <= range.end;
  }

  /**
   * A row's pick box was clicked: picks that entry alone, or picks nothing when it was the only
   * entry picked.
   */
  toggle(index: number): void {
    if (this.anchor === index && this.head === index) {
      this.clear();
      return;
    }
    this.anchor = index;
    this.head = index;
  }

  /** Extends the range from its anchor to entry `index` (a shift-click); picks `index` alone when nothing was picked. */
  extendTo(index: number): void {
    this.anchor ??= index;
    this.head = index;
  }

  /**
   * Moves the moving end of the range one entry from `from` (Shift+Up/Down on row `from`),
   * starting the range at `from` when nothing was picked.
   * @returns the entry the range now reaches, or null past either end of a transcript of `length`
   */
  step(from: number, direction: 1 | -1, length: number): number | null {
    const target = from + direction;
    if (target < 0 || target >= length) return null;
    if (this.anchor === null) this.anchor = from;
    this.head = target;
    return target;
  }

  /** A row's pick box was clicked ({@link toggle}), or a box or entry shift-clicked ({@link extendTo}). */
  pick(index: number, extend: boolean): void {
    if (extend) this.extendTo(index);
    else this.toggle(index);
  }

  /** Picks nothing. */
  clear(): void {
    this.anchor = null;
    this.head = null;
  }
}
