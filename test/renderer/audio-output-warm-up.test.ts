/**
 * The audio output's warm-up at start: done once the page is idle, never left running (an open
 * audio context keeps the output device busy), and harmless where there is no Web Audio.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmUpAudioOutput } from '../../renderer/src/lib/audio-output-warm-up';

/** Stands in for the page's idle callbacks; `idle()` runs the ones waiting. */
function fakeIdle() {
  const waiting = new Map<number, () => void>();
  let next = 0;
  vi.stubGlobal('requestIdleCallback', (work: () => void) => {
    next += 1;
    waiting.set(next, work);
    return next;
  });
  vi.stubGlobal('cancelIdleCallback', (handle: number) => waiting.delete(handle));
  return {
    idle() {
      const work = [...waiting.values()];
      waiting.clear();
      for (const w of work) w();
    },
  };
}

/** An AudioContext stand-in that counts contexts made and closed. */
function fakeAudioContext() {
  const counts = { created: 0, closed: 0 };
  class FakeContext {
    constructor() {
      counts.created += 1;
    }
    close(): Promise<void> {
      counts.closed += 1;
      return Promise.resolve();
    }
  }
  vi.stubGlobal('AudioContext', FakeContext);
  return counts;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('warmUpAudioOutput', () => {
  it('starts the audio output once the page is idle, and closes it at once', () => {
    const page = fakeIdle();
    const counts = fakeAudioContext();
    warmUpAudioOutput();
    expect(counts.created).toBe(0);
    page.idle();
    expect(counts).toEqual({ created: 1, closed: 1 });
  });

  it('does nothing when cancelled before the page is idle', () => {
    const page = fakeIdle();
    const counts = fakeAudioContext();
    warmUpAudioOutput()();
    page.idle();
    expect(counts.created).toBe(0);
  });

  it('leaves a page without Web Audio, or without an audio output, alone', () => {
    const page = fakeIdle();
    vi.stubGlobal('AudioContext', undefined);
    warmUpAudioOutput();
    expect(() => page.idle()).not.toThrow();
    vi.stubGlobal('AudioContext', function NoAudioOutput() {
      throw new DOMException('No audio output device', 'NotSupportedError');
    });
    warmUpAudioOutput();
    expect(() => page.idle()).not.toThrow();
  });
});
