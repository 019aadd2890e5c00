/**
 * Column definitions for {@link DataTable}: a list screen declares its columns as data and the
 * table draws them. The first column holds the row's "Open" button.
 */
import type { Snippet } from 'svelte';

/** One column of a {@link DataTable} over rows of type `T`. */
export interface Column<T> {
  /** Header text (also what screen readers announce for the cells). */
  header: string;
  /** Hides the header text visually (it stays for screen readers), e.g. for an actions column. */
  headerHidden?: boolean;
  /** The cell's content. */
  cell: Snippet<[T]>;
  /** Class of the cell (`nowrap`, `muted`...). */
  class?: string;
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
