import { describe, expect, it } from 'vitest';
import { speechActivity } from '../../../../renderer/src/lib/interaction/analysis/speech-activity';
import { analyseTurnTiming, DEFAULT_TURN_TIMING } from '../../../../renderer/src/lib/interaction/analysis/turn-timing';
import type { TimeSpan } from '../../../../renderer/src/lib/interaction/analysis/types';
import { KEEP_SECONDS, planSilenceSkips } from '../../../../renderer/src/lib/interaction/listening/skip-silences';
import { syntheticPeaks } from './fixtures';

describe('speechActivity', () => {
  const speech = [{ channel: 0, from: 2, to: 6 }];

  it('finds the speech of the peaks, and works it out once for the same peaks', () => {
    const peaks = syntheticPeaks(20, 1, speech);
    const first = speechActivity(peaks);
    expect(first?.segments[0]?.[0]?.startSeconds).toBeCloseTo(2, 0);
    expect(first?.segments[0]?.[0]?.endSeconds).toBeCloseTo(6, 0);
    // Every reader of the same final peaks (turn timing, timing check, levelling, skipping) shares one answer.
    expect(speechActivity(peaks)).toBe(first);
    // Other peaks are measured afresh, even with equal values.
    const again = speechActivity(syntheticPeaks(20, 1, speech));
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('holds where any lane speaks and the silences around it, from 0 to the end', () => {
    const activity = speechActivity(
      syntheticPeaks(30, 2, [
        { channel: 0, from: 2, to: 6 },
        { channel: 1, from: 5, to: 9 },
        { channel: 1, from: 20, to: 25 },
      ]),
    );
    const rounded = (spans: readonly TimeSpan[] = []) =>
      spans.map((s) => [Math.round(s.startSeconds), Math.round(s.endSeconds)]);
    expect(rounded(activity?.speech)).toEqual([
      [2, 9],
      [20, 25],
    ]);
    expect(rounded(activity?.silences)).toEqual([
      [0, 2],
      [9, 20],
      [25, 30],
    ]);
    expect(speechActivity(syntheticPeaks(10, 1, []))?.silences).toEqual([{ startSeconds: 0, endSeconds: 10 }]);
  });

  it('gives skipping and the turn timing the same silences', () => {
    const peaks = syntheticPeaks(40, 1, [
      { channel: 0, from: 5, to: 8 },
      { channel: 0, from: 14, to: 20 },
      { channel: 0, from: 21, to: 36 },
    ]);
    const flagged = analyseTurnTiming(
      [],
      peaks,
      { kind: 'unknown', labels: ['Mono'], reason: 'One channel.' },
      DEFAULT_TURN_TIMING,
    ).silences;
    const skipped = planSilenceSkips(speechActivity(peaks) ?? { silences: [], durationSeconds: 0 }, 4);
    // The 6 s pause at 8 s is the one silence the timing flags (over 4 s) and the only one skipped
    // between words (a breath kept each side); the 5 s before the first word and the 4 s after
    // the last are skipped too.
    expect(flagged).toHaveLength(1);
    expect(skipped.map((s) => [s.fromSeconds, s.toSeconds])).toEqual([
      [0, expect.closeTo(5 - KEEP_SECONDS, 1)],
      [(flagged[0]?.startSeconds ?? 0) + KEEP_SECONDS, (flagged[0]?.endSeconds ?? 0) - KEEP_SECONDS],
      [expect.closeTo(36 + KEEP_SECONDS, 1), 40],
    ]);
  });

  it('has no answer for no peaks', () => {
    expect(speechActivity(null)).toBeNull();
  });
});
