/**
 * Stand-ins for what jsdom cannot do in renderer tests: play media, lay out elements, scroll.
 *
 * - Media: jsdom's HTMLMediaElement never loads and its play()/pause() are "not implemented".
 *   {@link installFakeMedia} makes play()/pause() work as Chromium's do (state + events), and
 *   the helpers below fire the events Chromium would (metadata loaded, time advanced, error).
 * - Layout: jsdom gives every element a height of 0. {@link installFakeLayout} gives the
 *   transcript's scroll area and its rows fixed heights, so the virtual list has a window.
 * - Scrolling: jsdom has no Element.scrollTo; the stand-in sets scrollTop and fires 'scroll'.
 */
import { vi } from 'vitest';

/** Makes play()/pause()/load() of every media element behave; returns the spies. */
export function installFakeMedia() {
  const setPaused = (media: HTMLMediaElement, paused: boolean) =>
    Object.defineProperty(media, 'paused', { configurable: true, get: () => paused });
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    setPaused(this, false);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    setPaused(this, true);
    this.dispatchEvent(new Event('pause'));
  });
  const load = vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
  return { play, pause, load };
}

/** The player's media element (it has no role: it is never shown). */
export function mediaElement(): HTMLAudioElement {
  const media = document.querySelector('audio');
  if (!media) throw new Error('No <audio> element on the page');
  return media;
}

/** What Chromium does once the first bytes of a recording are in: duration known, playable. */
export function loadMetadata(media: HTMLMediaElement, durationSeconds: number): void {
  Object.defineProperty(media, 'duration', { configurable: true, get: () => durationSeconds });
  Object.defineProperty(media, 'readyState', { configurable: true, get: () => 4 });
  media.dispatchEvent(new Event('loadedmetadata'));
  media.dispatchEvent(new Event('canplay'));
}

/** Playback reached `seconds`. */
export function advanceTo(media: HTMLMediaElement, seconds: number): void {
  media.currentTime = seconds;
  media.dispatchEvent(new Event('timeupdate'));
}

/** The media element failed (unreachable, unplayable). */
export function failMedia(media: HTMLMediaElement): void {
  media.dispatchEvent(new Event('error'));
}

/**
 * Gives the transcript's scroll area `viewportPx` of height and each row `rowPx` (or what
 * `rowHeight(row)` says), adds Element.scrollTo, and a ResizeObserver that reports an element's
 * size once, a microtask after it is observed (sizes here do not change afterwards). Returns the
 * scrollTo spy.
 */
export function installFakeLayout(
  options: { viewportPx?: number; rowPx?: number; rowHeight?: (row: HTMLElement) => number } = {},
) {
  const viewportPx = options.viewportPx ?? 600;
  const rowHeight = options.rowHeight ?? (() => options.rowPx ?? 50);
  const heightOf = (el: HTMLElement): number => {
    if (el.tagName === 'LI' && el.dataset.index !== undefined) return rowHeight(el);
    if (el.classList.contains('scroller')) return viewportPx;
    return 0;
  };
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return heightOf(this);
  });
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return heightOf(this) > 0 ? 400 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return heightOf(this);
  });
  // The scroll area's content is as tall as the list inside it says (its style height).
  vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
    if (!(this instanceof HTMLElement) || !this.classList.contains('scroller')) return 0;
    const content = this.firstElementChild;
    return Math.max(viewportPx, content instanceof HTMLElement ? parseFloat(content.style.height) || 0 : 0);
  });
  const scrollTo = vi.fn(function (this: Element, arg?: ScrollToOptions | number) {
    const top = typeof arg === 'object' ? arg.top : undefined;
    // Like Chromium: no scroll event when the position does not change.
    if (top === undefined || top === this.scrollTop) return;
    this.scrollTop = top;
    this.dispatchEvent(new Event('scroll'));
  });
  Element.prototype.scrollTo = scrollTo;
  // Replaced on every call (heights of this call), but never a real ResizeObserver.
  if (!('ResizeObserver' in window) || 'fakeLayout' in window.ResizeObserver) {
    /** Reports an element's size once after it is observed (after the "layout" of a microtask), as a browser does. */
    class ReportingResizeObserver {
      static readonly fakeLayout = true;
      readonly #callback: ResizeObserverCallback;
      #observed = new Set<Element>();
      constructor(callback: ResizeObserverCallback) {
        this.#callback = callback;
      }
      observe(target: Element) {
        this.#observed.add(target);
        queueMicrotask(() => {
          if (!this.#observed.has(target) || !(target instanceof HTMLElement)) return;
          const size = { blockSize: heightOf(target), inlineSize: target.offsetWidth };
          const entry = { target, borderBoxSize: [size], contentBoxSize: [size] } as unknown as ResizeObserverEntry;
          this.#callback([entry], this);
        });
      }
      unobserve(target: Element) {
        this.#observed.delete(target);
      }
      disconnect() {
        this.#observed.clear();
      }
    }
    vi.stubGlobal('ResizeObserver', ReportingResizeObserver);
  }
  return { scrollTo };
}

/** What {@link installFakeAudioContext} lets a test read: every gain node and context made. */
export interface FakeAudioGraph {
  /** Gain nodes in the order made; `gain.value` is what the page set (1 until then). */
  gains: Array<{ gain: { value: number } }>;
  /** AudioContexts made (none until the page first needs Web Audio); `close` is a spy. */
  contexts: Array<{ close: ReturnType<typeof vi.fn> }>;
}

/**
 * Stubs the global `AudioContext` (jsdom has none) with one whose nodes connect to nothing and
 * whose gain nodes are recorded, so a test can read the gain per lane the page set.
 */
export function installFakeAudioContext(): FakeAudioGraph {
  const graph: FakeAudioGraph = { gains: [], contexts: [] };
  const node = () => ({ connect: vi.fn(), gain: { value: 1 } });
  vi.stubGlobal(
    'AudioContext',
    class {
      state = 'running';
      destination = node();
      constructor() {
        graph.contexts.push(this);
      }
      createMediaElementSource = vi.fn(node);
      createChannelSplitter = vi.fn(node);
      createChannelMerger = vi.fn(node);
      createGain = () => {
        const gain = node();
        graph.gains.push(gain);
        return gain;
      };
      resume = vi.fn(() => Promise.resolve());
      close = vi.fn(() => Promise.resolve());
    },
  );
  return graph;
}
