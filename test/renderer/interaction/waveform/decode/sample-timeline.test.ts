/**
 * Decoded audio placed on the recording's timeline as a player plays it, so the waveform shows
 * each sound where it is heard: by timestamps, gaps drawn as silence, priming and overlaps
 * dropped, an MP3's declared delay dropped, the end cut where the container says.
 */
import { describe, expect, it } from 'vitest';
import type { ComputedPeaks } from '$shared/peaks-reducer';
import {
  SampleTimeline,
  TooLongError,
  type DecodedStretch,
} from '../../../../../renderer/src/lib/interaction/waveform/decode/sample-timeline';

/** 1 kHz: one peak per 10 samples (10 ms), so peak i covers 10 i..10 i + 9 ms. */
const RATE = 1000;

/** A stretch of `frames` samples of `value` on every channel, starting at `timestampSeconds`. */
function stretch(
  timestampSeconds: number,
  frames: number,
  value: number,
  channels = 1,
): DecodedStretch & { closed: boolean } {
  return {
    timestamp: timestampSeconds,
    numberOfFrames: frames,
    numberOfChannels: channels,
    sampleRate: RATE,
    closed: false,
    copyPlane(_channel, into) {
      into.fill(value);
    },
    close() {
      this.closed = true;
    },
  };
}

/** The loudest value of lane `channel` between `from` and `to` seconds. */
function levelBetween(peaks: ComputedPeaks, from: number, to: number, channel = 0): number {
  const perPeak = peaks.durationSeconds / peaks.length;
  const lane = peaks.channels[channel]!;
  let level = 0;
  for (let i = Math.round(from / perPeak); i < Math.round(to / perPeak); i++) level = Math.max(level, lane.max[i]!);
  return level;
}

describe('decoded audio on the timeline', () => {
  it('lays stretches end to end and measures the duration from the sound', () => {
    const timeline = new SampleTimeline(0);
    timeline.add(stretch(0, 500, 0.2));
    timeline.add(stretch(0.5, 500, 0.6));
    const peaks = timeline.finish(null)!;
    expect(peaks.durationSeconds).toBe(1);
    expect(levelBetween(peaks, 0, 0.5)).toBe(0.2);
    expect(levelBetween(peaks, 0.5, 1)).toBe(0.6);
  });

  it('draws a gap in the timestamps as silence, so later sound stays at its time', () => {
    const timeline = new SampleTimeline(0);
    timeline.add(stretch(0, 200, 0.5));
    timeline.add(stretch(0.7, 300, 0.5));
    const peaks = timeline.finish(null)!;
    expect(peaks.durationSeconds).toBe(1);
    expect(levelBetween(peaks, 0.2, 0.7)).toBe(0);
    expect(levelBetween(peaks, 0.7, 1)).toBe(0.5);
  });

  it('drops priming before 0 and audio that overlaps what came before', () => {
    const timeline = new SampleTimeline(0);
    timeline.add(stretch(-0.1, 300, 0.9)); // 100 ms of priming, then 200 ms from 0
    timeline.add(stretch(0.1, 300, 0.4)); // its first 100 ms overlap the stretch before
    const peaks = timeline.finish(null)!;
    expect(peaks.durationSeconds).toBe(0.4);
    expect(levelBetween(peaks, 0, 0.2)).toBe(0.9);
    expect(levelBetween(peaks, 0.2, 0.4)).toBe(0.4);
  });

  it('takes timestamps a few milliseconds off (rounded by the container) as contiguous', () => {
    const timeline = new SampleTimeline(0);
    timeline.add(stretch(0, 20, 0.5));
    timeline.add(stretch(0.021, 20, 0.5)); // WebM rounds to 1 ms
    timeline.add(stretch(0.039, 20, 0.5));
    expect(timeline.finish(null)!.durationSeconds).toBe(0.06);
  });

  it("drops an MP3's declared delay and cuts the end where its LAME tag says", () => {
    const timeline = new SampleTimeline(105);
    timeline.add(stretch(0, 100, 0.1)); // all delay
    timeline.add(stretch(0.1, 400, 0.7)); // 5 samples of delay, then the recording
    const peaks = timeline.finish(0.3)!;
    expect(peaks.durationSeconds).toBe(0.3);
    expect(levelBetween(peaks, 0, 0.3)).toBe(0.7);
  });

  it('pads to the length the container states (a last block the demuxer could not read)', () => {
    const timeline = new SampleTimeline(0);
    timeline.add(stretch(0, 400, 0.3));
    const peaks = timeline.finish(null, 0.45)!;
    expect(peaks.durationSeconds).toBe(0.45);
    expect(levelBetween(peaks, 0.4, 0.45)).toBe(0);
  });

  it('fills both lanes when a stereo recording turns mono mid-stream', () => {
    const timeline = new SampleTimeline(0);
    timeline.add(stretch(0, 100, 0.2, 2));
    timeline.add(stretch(0.1, 100, 0.8, 1));
    const peaks = timeline.finish(null)!;
    expect(peaks.channels).toHaveLength(2);
    expect(levelBetween(peaks, 0.1, 0.2, 1)).toBe(0.8);
  });

  it('frees every stretch, fed or dropped, and what is held when the decode stops', () => {
    const timeline = new SampleTimeline(0);
    const fed = stretch(0, 100, 0.5);
    const dropped = stretch(0, 50, 0.5);
    const held = stretch(0.1, 100, 0.5);
    for (const s of [fed, dropped, held]) timeline.add(s);
    expect([fed.closed, dropped.closed, held.closed]).toEqual([true, true, false]);
    timeline.dispose();
    expect(held.closed).toBe(true);
  });

  it('refuses audio placed past six hours', () => {
    const timeline = new SampleTimeline(0);
    timeline.add(stretch(0, 10, 0.5));
    expect(() => timeline.add(stretch(6 * 3600 + 1, 10, 0.5))).toThrow(TooLongError);
  });

  it('has no peaks when nothing was decoded', () => {
    expect(new SampleTimeline(0).finish(null)).toBeNull();
  });
});
