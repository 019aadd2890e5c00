/**
 * untilSounding (renderer/src/lib/interaction/waveform/recording-element.ts): what the call view
 * waits for before building its transcript when Play was pressed first.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { untilSounding } from '../../../../renderer/src/lib/interaction/waveform/recording-element';
import { installFakeMedia } from '../../fake-media';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function pressedPlay(): HTMLAudioElement {
  installFakeMedia();
  const media = document.createElement('audio');
  void media.play();
  return media;
}

describe('untilSounding', () => {
  it('resolves at once for a paused element (nobody asked for sound)', async () => {
    installFakeMedia();
    const done = vi.fn();
    void untilSounding(document.createElement('audio'), 500).then(done);
    await vi.waitFor(() => expect(done).toHaveBeenCalled());
  });

  it('waits for the sound once Play was pressed, and resolves when it plays', async () => {
    vi.useFakeTimers();
    const media = pressedPlay();
    const done = vi.fn();
    void untilSounding(media, 500).then(done);
    await vi.advanceTimersByTimeAsync(400);
    expect(done).not.toHaveBeenCalled();

    media.dispatchEvent(new Event('playing'));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('gives up waiting on a failure, a pause, or after the longest wait', async () => {
    vi.useFakeTimers();
    for (const end of ['error', 'pause', null]) {
      const media = pressedPlay();
      const done = vi.fn();
      void untilSounding(media, 500).then(done);
      if (end) media.dispatchEvent(new Event(end));
      else await vi.advanceTimersByTimeAsync(500);
      await vi.advanceTimersByTimeAsync(0);
      expect(done, String(end)).toHaveBeenCalledTimes(1);
    }
  });
});
