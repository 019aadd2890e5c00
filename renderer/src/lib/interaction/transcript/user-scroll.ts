/**
 * Telling the user's scrolls of the transcript from the list's own (following playback, showing
 * a search match): what the user does on the scroll area is noted as it happens.
 */

/** Keys that scroll a focused scroll area. */
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'ArrowUp', 'ArrowDown', ' ']);

/** What {@link watchUserScroll} reports. */
export interface UserScrollHandlers {
  /** The user is about to scroll: wheel, touch, a scroll key, a press on the scrollbar itself. */
  onUserScroll: () => void;
  /** The area scrolled (whoever did it). */
  onScroll: () => void;
  /** A row (its `data-index`) took keyboard focus, or null when focus left the rows. */
  onFocusRow: (index: number | null) => void;
}

/**
 * Listens on the transcript's scroll area. Listeners only observe (passive; nothing is
 * prevented).
 * @returns a function removing the listeners (a Svelte attachment's cleanup)
 */
export function watchUserScroll(element: HTMLElement, handlers: UserScrollHandlers): () => void {
  const onPointerDown = (event: PointerEvent) => {
    if (event.target === element) handlers.onUserScroll();
  };
  const onKeydown = (event: KeyboardEvent) => {
    if (SCROLL_KEYS.has(event.key)) handlers.onUserScroll();
  };
  const onFocusIn = (event: FocusEvent) => {
    const row = event.target instanceof Element ? event.target.closest<HTMLElement>('li') : null;
    handlers.onFocusRow(row ? Number(row.dataset.index) : null);
  };
  const onFocusOut = () => handlers.onFocusRow(null);
  const listeners: Array<[string, EventListener]> = [
    ['scroll', handlers.onScroll],
    ['wheel', handlers.onUserScroll],
    ['touchmove', handlers.onUserScroll],
    ['keydown', onKeydown as EventListener],
    ['pointerdown', onPointerDown as EventListener],
    ['focusin', onFocusIn as EventListener],
    ['focusout', onFocusOut],
  ];
  for (const [type, listener] of listeners) element.addEventListener(type, listener, { passive: true });
  return () => {
    for (const [type, listener] of listeners) element.removeEventListener(type, listener);
  };
}
