/**
 * Moving the player to the recording's seekable variant (seekable-src.ts): the listener keeps
 * their place, speed and playing state; playing is never interrupted before a pause or a seek;
 * a variant that fails to load gives the original back at the same place.
 */
import { describe, expect, it } from 'vitest';
import { moveToSeekableSrc, type SeekableMedia } from '../../../../renderer/src/lib/interaction/waveform/seekable-src';

const ORIGINAL = 'vr-recording://local/recording/interaction_1';
const VARIANT = `${ORIGINAL}?variant=mp4`;

/** A media element stand-in: loading a src resets position and speed as Chromium's load does. */
class FakeMedia extends EventTarget implements SeekableMedia {
  currentTime = 0;
  paused = true;
  playbackRate = 1;
  duration = 2451;
  private current = ORIGINAL;
  get src(): string {
    return this.current;
  }
  set src(value: string) {
    this.current = value;
    this.currentTime = 0;
    this.playbackRate = 1;
    this.paused = true;
  }
  play(): Promise<void> {
    this.paused = false;
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  }
  /** The browser finished loading the current src (or failed to). */
  loaded(ok = true): void {
    this.dispatchEvent(new Event(ok ? 'loadedmetadata' : 'error'));
  }
}

describe('moving to the seekable variant', () => {
  it('moves a paused player at once, keeping its place and speed', () => {
    const media = new FakeMedia();
    media.currentTime = 2425;
    media.playbackRate = 1.5;
    moveToSeekableSrc(media, VARIANT);
    expect(media.src).toBe(VARIANT);
    media.loaded();
    expect(media.currentTime).toBe(2425);
    expect(media.playbackRate).toBe(1.5);
    expect(media.paused).toBe(true);
  });

  it('lets a playing call play on, and moves at the next seek, playing from the place sought', () => {
    const media = new FakeMedia();
    void media.play();
    media.currentTime = 60;
    moveToSeekableSrc(media, VARIANT);
    media.dispatchEvent(new Event('timeupdate'));
    expect(media.src).toBe(ORIGINAL);

    media.currentTime = 2425; // the position sought, as a seeking element reports it
    media.dispatchEvent(new Event('seeking'));
    expect(media.src).toBe(VARIANT);
    media.loaded();
    expect(media.currentTime).toBe(2425);
    expect(media.paused).toBe(false);
  });

  it('moves at the next pause and stays paused', () => {
    const media = new FakeMedia();
    void media.play();
    moveToSeekableSrc(media, VARIANT);
    media.currentTime = 75;
    media.paused = true;
    media.dispatchEvent(new Event('pause'));
    media.loaded();
    expect(media.src).toBe(VARIANT);
    expect(media.currentTime).toBe(75);
    expect(media.paused).toBe(true);
  });

  it('goes back to the original at the same place when the variant fails to load', () => {
    const media = new FakeMedia();
    media.currentTime = 300;
    moveToSeekableSrc(media, VARIANT);
    media.loaded(false);
    expect(media.src).toBe(ORIGINAL);
    media.loaded();
    expect(media.currentTime).toBe(300);
  });

  it('does not move once cancelled (the view moved on)', () => {
    const media = new FakeMedia();
    void media.play();
    const cancel = moveToSeekableSrc(media, VARIANT);
    cancel();
    media.dispatchEvent(new Event('seeking'));
    expect(media.src).toBe(ORIGINAL);
  });
});
