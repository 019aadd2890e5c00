/**
 * Column definitions for {@link DataTable}: a list screen declares its columns as data and the
 * table draws them. The first column holds the row's "Open" button.
 */
import type { Snippet } from 'svelte';

/** One column of a {@link DataTable} over rows of type `T`. */
interface Column<T> {
  /** Header text (also what screen readers announce for the cells). */
  header: string;
  /** Hides the header text visually (it stays for screen readers), e.g. for an actions column. */
  headerHidden?: boolean;
  /** The cell's content. */
  cell: Snippet<[T]>;
  /** Class of the cell (`nowrap`, `muted`...). */
  class?: string;
}

/** How a {@link DataTable} draws and names its rows. */
export interface TableDefinition<T> {
  /** The columns, in order; the first one holds the row's "Open" button. */
  columns: readonly Column<T>[];
  /** Stable key of a row (its SID or number). */
  key: (row: T) => string;
  /** Names the row for people, e.g. "Front desk" or "Unnamed phone +1 415 555 0100". Never empty. */
  rowLabel: (row: T) => string;
}

/** The part of a svelte-query list query that {@link ListDetail} reads. */
export interface ListQuery<T> {
  isPending: boolean;
  error: unknown;
  data: readonly T[] | undefined;
  refetch: () => unknown;
}

/** Interactive elements inside a row that do their own thing; a click on them does not open the row. */
const OWN_CLICKS = 'a, button, input, select, textarea, label, summary, [role="button"]';

/**
 * Svelte attachment for a table row: a mouse click anywhere in the row calls `open`, except on
 * the row's own buttons and links (they handle their clicks; the row's "Open" button opens it
 * itself) and except when the click ends a text selection (so a SID can still be selected and
 * copied). Keyboard users open the row with its "Open" button, which is why the row itself
 * takes no key events.
 */
export function openOnClick(open: () => void): (row: HTMLElement) => () => void {
  return (row) => {
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element | null;
      if (target?.closest(OWN_CLICKS)) return;
      if ((window.getSelection()?.toString() ?? '') !== '') return;
      open();
    };
    row.addEventListener('click', onClick);
    return () => row.removeEventListener('click', onClick);
  };
}
