/**
 * A stand-in for wavesurfer.js in jsdom (which has no canvas): it records the options the player
 * gives it and reports 'ready' on the next microtask, as wavesurfer does when given peaks and a
 * duration (no fetch, no decoding). Install it in a test file with
 * `vi.mock('wavesurfer.js', async () => (await import('./fake-wavesurfer')).wavesurferModule)`.
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
}

/** One wavesurfer instance the player created. */
export class FakeWaveSurfer {
  readonly listeners = new Map<string, Listener[]>();
  readonly setTime = vi.fn<(seconds: number) => void>();
  destroyed = false;
  constructor(readonly options: FakeWaveSurferOptions) {
    queueMicrotask(() => this.emit('ready', options.duration));
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return () => {};
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  destroy() {
    this.destroyed = true;
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
