/**
 * About 8,000 peaks per channel, more for very long calls, with the exact duration, and
 * the sound drawn at the right time however long the call. Feeds synthetic PCM straight into the
 * reducer (a low sample rate keeps hours of audio quick).
 */
import { describe, expect, it } from 'vitest';
import { PeakAccumulator, peakCountFor } from '$shared/peaks-reducer';

/** Feeds `seconds` of silence at `sampleRate` in 1-second chunks, with a full-scale click at `clickAtSeconds`. */
function callWithClick(seconds: number, sampleRate: number, clickAtSeconds: number): PeakAccumulator {
  const accumulator = new PeakAccumulator(1, sampleRate);
  const chunk = new Float32Array(sampleRate);
  const clickSample = Math.round(clickAtSeconds * sampleRate);
  for (let start = 0; start < seconds * sampleRate; start += sampleRate) {
    chunk.fill(0);
    if (clickSample >= start && clickSample < start + sampleRate) chunk[clickSample - start] = 1;
    accumulator.add([chunk], Math.min(sampleRate, seconds * sampleRate - start));
  }
  return accumulator;
}

/** Time of the loudest peak, in seconds. */
function loudestAt(peaks: ReturnType<PeakAccumulator['finish']>): number {
  const max = peaks.channels[0]!.max;
  const index = max.indexOf(Math.max(...max));
  return ((index + 0.5) / peaks.length) * peaks.durationSeconds;
}

describe('how many peaks a call gets', () => {
  it('8,000 up to about 33 minutes, then 4 per second; never more than one per 10 ms', () => {
    expect(peakCountFor(20 * 60, 20 * 60 * 100)).toBe(8_000);
    expect(peakCountFor(40 * 60, 40 * 60 * 100)).toBe(9_600);
    expect(peakCountFor(60 * 60, 60 * 60 * 100)).toBe(14_400);
    expect(peakCountFor(30, 30 * 100)).toBe(3_000);
  });

  it('a 40-minute call: 9,600 peaks, exact duration, a click drawn within a peak of its time', () => {
    const peaks = callWithClick(40 * 60, 800, 35 * 60 + 12.34).finish();
    expect(peaks.length).toBe(9_600);
    expect(peaks.durationSeconds).toBe(2_400);
    expect(Math.abs(loudestAt(peaks) - (35 * 60 + 12.34))).toBeLessThan(2_400 / 9_600);
    expect(peaks.channels[0]!.max.filter((v) => v > 0)).toHaveLength(1);
  });

  it('a 4-hour call (past the point where fine buckets merge): 57,600 peaks, click still in place', () => {
    const clickAt = 3.5 * 3600 + 0.5;
    const peaks = callWithClick(4 * 3600, 100, clickAt).finish();
    expect(peaks.length).toBe(57_600);
    expect(peaks.durationSeconds).toBe(14_400);
    expect(Math.abs(loudestAt(peaks) - clickAt)).toBeLessThan(14_400 / 57_600);
  });

  it('a duration that is not a whole number of 10 ms buckets is still exact', () => {
    const accumulator = new PeakAccumulator(2, 8000);
    const samples = 8000 * 3 + 37;
    accumulator.add([new Float32Array(samples).fill(0.25), new Float32Array(samples).fill(-0.5)], samples);
    const peaks = accumulator.finish();
    expect(peaks.durationSeconds).toBe(samples / 8000);
    expect(peaks.channels[0]!.max.every((v) => v === 0.25)).toBe(true);
    expect(peaks.channels[1]!.min.every((v) => v === -0.5)).toBe(true);
  });

  it('one array given for both channels (mono decoded as stereo) fills both lanes, also after the channels part', () => {
    const accumulator = new PeakAccumulator(2, 8000);
    const left = new Float32Array(8000).map((_, i) => Math.sin(i / 7) * 0.5);
    // One second of equal channels handed over as one array, in odd-sized chunks across buckets.
    for (let at = 0; at < 8000; at += 333) {
      const piece = left.subarray(at, at + 333);
      accumulator.add([piece, piece], piece.length);
    }
    // Then one second where the right channel is silent.
    accumulator.add([left, new Float32Array(8000)], 8000);
    const peaks = accumulator.finish();
    const half = peaks.length / 2;
    const [l, r] = peaks.channels;
    expect(r!.max.slice(0, half)).toEqual(l!.max.slice(0, half));
    expect(r!.min.slice(0, half)).toEqual(l!.min.slice(0, half));
    expect(Math.max(...l!.max.slice(0, half))).toBeGreaterThan(0.45);
    expect(r!.max.slice(half).every((v) => v === 0)).toBe(true);
    expect(Math.max(...l!.max.slice(half))).toBeGreaterThan(0.45);
  });
});
