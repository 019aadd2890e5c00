/**
 * Sizes for the transcript's virtual list (@tanstack/svelte-virtual) taken from ResizeObserver
 * reports, never by reading layout while the page is being built.
 *
 * The list's default measuring reads `offsetHeight`/`offsetWidth` the moment the scroll area and
 * each row are attached. While the call view is built, in the middle of the DOM changes, that
 * forces the browser to lay out the whole page there and then, and again for the rows, before the
 * view is complete, in the task that also holds up the recording's first bytes. ResizeObserver
 * reports the same sizes after the browser's own layout of the frame, before it is painted: the
 * list takes them then, and the rows it adds or moves are laid out in that same frame.
 *
 * Likewise the list scrolls its scroll area to where it was the moment the area is attached; for a
 * new area that is its top, where it already is, and `scrollTo` would lay the page out to get
 * there: that first scroll is left out.
 *
 * Without ResizeObserver (a test DOM) the sizes are read at once, as the library does.
 */
import { elementScroll, type Virtualizer, type VirtualizerOptions } from '@tanstack/svelte-virtual';
import type { TypicalRowHeight } from './scroll';

/** A size in CSS pixels. */
interface Rect {
  width: number;
  height: number;
}

/** The scroll area's size assumed until its first report: as high as the window, in CSS pixels. */
function assumedListRect(): Rect {
  return { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight };
}

/**
 * `observeElementRect` for the virtualizer: reports the scroll area's border box (CSS pixels,
 * rounded) whenever ResizeObserver does, the first time after the page's next layout; until then
 * the list works with its `initialRect` (see {@link assumedListRect}).
 * @returns the function that stops observing, or undefined without a scroll area
 */
function observeListRect<TScroll extends HTMLElement, TItem extends Element>(
  instance: Virtualizer<TScroll, TItem>,
  report: (rect: Rect) => void,
): (() => void) | undefined {
  const element = instance.scrollElement;
  if (!element) return undefined;
  const round = (rect: Rect) => report({ width: Math.round(rect.width), height: Math.round(rect.height) });
  if (typeof ResizeObserver === 'undefined') {
    round({ width: element.offsetWidth, height: element.offsetHeight });
    return () => undefined;
  }
  const observer = new ResizeObserver((entries) => {
    const box = entries[0]?.borderBoxSize[0];
    if (box) round({ width: box.inlineSize, height: box.blockSize });
    else round({ width: element.offsetWidth, height: element.offsetHeight });
  });
  observer.observe(element, { box: 'border-box' });
  return () => observer.disconnect();
}

/**
 * `measureElement` for the virtualizer: a row's height in CSS pixels. From a ResizeObserver report,
 * its border box; when the row has just been attached (no report yet), the height the list already
 * holds for it (measured before, or assumed), so nothing is read from layout: the row's first
 * report follows the next layout. Without ResizeObserver, the row's `offsetHeight`.
 * @param noteRead is given each height actually read (a report or `offsetHeight`), not the held
 *   ones, and returns the height to use
 */
function measureRow<TScroll extends Element, TItem extends HTMLElement>(
  element: TItem,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<TScroll, TItem>,
  noteRead: (px: number) => number,
): number {
  const box = entry?.borderBoxSize[0];
  if (box) return noteRead(Math.round(box.blockSize));
  if (typeof ResizeObserver === 'undefined') return noteRead(element.offsetHeight);
  const index = instance.indexFromElement(element);
  const held = instance.measurementsCache[index]?.size;
  return held ?? instance.options.estimateSize(index);
}

/** Scroll areas the list has already been attached to. */
const attachedAreas = new WeakSet<Element>();

/**
 * `scrollToFn` for the virtualizer: the library's own element scrolling, except for the scroll to
 * the top it asks for when a new scroll area is attached (the area is there already). Offsets in
 * CSS pixels.
 */
function scrollList<TScroll extends Element, TItem extends Element>(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<TScroll, TItem>,
): void {
  const element = instance.scrollElement;
  if (element && !attachedAreas.has(element)) {
    attachedAreas.add(element);
    if (offset + (options.adjustments ?? 0) === 0) return;
  }
  elementScroll(offset, options, instance);
}

/**
 * The virtualizer options that size and scroll the transcript's list as described above: spread
 * them into its options. Rows not yet reported are assumed as high as `typicalRow` says, and each
 * row height actually read (see {@link measureRow}) is noted there.
 */
export function listSizing<TScroll extends HTMLElement, TItem extends HTMLElement>(
  typicalRow: TypicalRowHeight,
): Pick<
  VirtualizerOptions<TScroll, TItem>,
  'estimateSize' | 'measureElement' | 'observeElementRect' | 'scrollToFn' | 'initialRect'
> {
  return {
    estimateSize: () => typicalRow.px,
    measureElement: (element, entry, instance) => measureRow(element, entry, instance, (px) => typicalRow.note(px)),
    observeElementRect: observeListRect,
    scrollToFn: scrollList,
    initialRect: assumedListRect(),
  };
}
