/**
 * A stand-in for wavesurfer.js in jsdom (which has no canvas): it records the options the player
 * gives it and reports 'ready' on the next microtask, as wavesurfer does when given peaks and a
 * duration (no fetch, no decoding). Install it in a test file with
 * `vi.mock('wavesurfer.js', async () => (await import('./fake-wavesurfer')).wavesurferModule)`.
 *
 * Plugins given in `plugins` are only recorded, and so are the names of those registered later
 * (`registered`). The regions plugin, once registered, is a
 * recording stand-in: each region added is a {@link FakeRegion} whose element sits in the
 * plugin's layer (`part="regions-container"`, as the real plugin's) in the fake's wrapper (a div
 * inside the container), so tests can find and hover or click it. The view is
 * 800 px wide; `zoom` records the pixels per second asked for.
 */
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

/** What the player gives wavesurfer.js: it must never be a URL to fetch. */
export interface FakeWaveSurferOptions {
  url?: string;
  media?: HTMLMediaElement;
  peaks?: Array<Float32Array | number[]>;
  duration?: number;
  height?: number;
  splitChannels?: unknown[];
  container?: HTMLElement;
  plugins?: unknown[];
}

/** A region the player added through the regions plugin. */
export class FakeRegion {
  readonly element = document.createElement('div');
  readonly listeners = new Map<string, Listener[]>();
  removed = false;
  constructor(readonly params: { start: number; end?: number; color?: string; channelIdx?: number }) {}
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return () => {};
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  remove() {
    this.removed = true;
    this.element.remove();
  }
}

/** One wavesurfer instance the player created. */
export class FakeWaveSurfer {
  readonly listeners = new Map<string, Listener[]>();
  readonly setTime = vi.fn<(seconds: number) => void>();
  readonly zoom = vi.fn<(minPxPerSec: number) => void>();
  readonly setScrollTime = vi.fn<(seconds: number) => void>();
  /** Every region added, removed ones included (see FakeRegion.removed). */
  readonly regions: FakeRegion[] = [];
  readonly wrapper = document.createElement('div');
  destroyed = false;
  constructor(readonly options: FakeWaveSurferOptions) {
    options.container?.appendChild(this.wrapper);
    // As wide as the view (800 px), at the page's left edge.
    this.wrapper.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 800, height: 100 });
    queueMicrotask(() => this.emit('ready', options.duration));
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return () => {
      this.listeners.set(
        event,
        (this.listeners.get(event) ?? []).filter((l) => l !== listener),
      );
    };
  }
  /** Regions still drawn. */
  liveRegions(): FakeRegion[] {
    return this.regions.filter((r) => !r.removed);
  }
  /** Names of the plugins registered after creation (`registerPlugin`), in order. */
  readonly registered: string[] = [];
  registerPlugin(plugin: { constructor: { name: string } }) {
    this.registered.push(plugin.constructor.name);
    if (plugin.constructor.name !== 'RegionsPlugin') return plugin;
    const layer = document.createElement('div');
    layer.setAttribute('part', 'regions-container');
    this.wrapper.appendChild(layer);
    return {
      addRegion: (params: FakeRegion['params']) => {
        const region = new FakeRegion(params);
        this.regions.push(region);
        layer.appendChild(region.element);
        return region;
      },
      getRegions: () => this.liveRegions(),
      clearRegions: () => {
        for (const region of this.liveRegions()) region.remove();
      },
    };
  }
  /** Options changed after creation (lane colours); merged into `options`. */
  setOptions(options: Partial<FakeWaveSurferOptions>) {
    Object.assign(this.options, options);
  }
  getDecodedData(): unknown {
    return null;
  }
  getWrapper() {
    return this.wrapper;
  }
  getWidth() {
    return 800;
  }
  getScroll() {
    return 0;
  }
  getDuration() {
    return this.options.duration ?? 0;
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  destroy() {
    this.destroyed = true;
    this.wrapper.remove();
  }
}

/** Every instance created, oldest first (tests may empty it between cases). */
export const fakeWaveSurfers: FakeWaveSurfer[] = [];

/** The module object `vi.mock('wavesurfer.js', …)` returns. */
export const wavesurferModule = {
  default: {
    create: (options: FakeWaveSurferOptions) => {
      const ws = new FakeWaveSurfer(options);
      fakeWaveSurfers.push(ws);
      return ws;
    },
  },
};
