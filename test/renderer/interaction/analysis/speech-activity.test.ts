import { describe, expect, it } from 'vitest';
import { speechActivity } from '../../../../renderer/src/lib/interaction/analysis/speech-activity';
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

  it('has no answer for no peaks', () => {
    expect(speechActivity(null)).toBeNull();
  });
});
