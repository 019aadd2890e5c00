/**
 * Skipping silences: playback that runs into a silence of the chosen length jumps to just before
 * the next speech, keeping a breath at each edge; a seek into a silence plays from there.
 */
import { describe, expect, it } from 'vitest';
import type { TimeSpan } from '../../../../renderer/src/lib/interaction/analysis/types';
import { quietStretches, unionOfSpans } from '../../../../renderer/src/lib/interaction/analysis/speech-activity';
import {
  KEEP_SECONDS,
  planSilenceSkips,
  skipCrossed,
  type SilenceSkip,
} from '../../../../renderer/src/lib/interaction/listening/skip-silences';

const span = (startSeconds: number, endSeconds: number) => ({ startSeconds, endSeconds });
/** A skip with its times to the microsecond (sums of seconds are not exact in binary). */
const rounded = (s: SilenceSkip): SilenceSkip => ({
  fromSeconds: Math.round(s.fromSeconds * 1e6) / 1e6,
  toSeconds: Math.round(s.toSeconds * 1e6) / 1e6,
});

/** A 30 s stereo call: the caller (lane 0) and the agent (lane 1) take turns, with gaps of 0.8, 3 and 6 s. */
const lanes = [
  [span(3, 5), span(11.8, 14)],
  [span(5.8, 8.8), span(20, 27)],
];

/** The silences of a recording of `durationSeconds` whose lanes speak during `speechByLane`, as its speech activity holds them. */
const quietOf = (speechByLane: TimeSpan[][], durationSeconds: number) => ({
  durationSeconds,
  silences: quietStretches(unionOfSpans(speechByLane), durationSeconds),
});

describe('the silences to skip', () => {
  it('are the gaps where no lane speaks, at least as long as chosen, with a breath kept at each edge', () => {
    const skips = planSilenceSkips(quietOf(lanes, 30), 2.5);
    expect(skips.map(rounded)).toEqual(
      [
        { fromSeconds: 0, toSeconds: 3 - KEEP_SECONDS },
        { fromSeconds: 8.8 + KEEP_SECONDS, toSeconds: 11.8 - KEEP_SECONDS },
        { fromSeconds: 14 + KEEP_SECONDS, toSeconds: 20 - KEEP_SECONDS },
        { fromSeconds: 27 + KEEP_SECONDS, toSeconds: 30 },
      ].map(rounded),
    );
  });

  it('leave the pause between turns alone, and never go under a second', () => {
    const skips = planSilenceSkips(quietOf(lanes, 30), 0.1);
    expect(skips.map((s) => s.fromSeconds)).not.toContain(5 + KEEP_SECONDS);
    expect(planSilenceSkips(quietOf([[span(0.5, 2), span(2.9, 4)]], 5), 0).map(rounded)).toEqual([
      rounded({ fromSeconds: 4 + KEEP_SECONDS, toSeconds: 5 }),
    ]);
  });

  it('do not cut into speech where one lane talks over the other', () => {
    const overlapping = [[span(0, 10)], [span(4, 6), span(13, 15)]];
    expect(planSilenceSkips(quietOf(overlapping, 15), 2).map(rounded)).toEqual([
      rounded({ fromSeconds: 10 + KEEP_SECONDS, toSeconds: 13 - KEEP_SECONDS }),
    ]);
  });
});

describe('playback over a silence', () => {
  const skips = planSilenceSkips(quietOf(lanes, 30), 2.5);

  it('jumps when the clock runs past a silence start', () => {
    expect(rounded(skipCrossed(skips, 9, 9.25)!)).toEqual({ fromSeconds: 9.1, toSeconds: 11.5 });
    expect(skipCrossed(skips, 0, 0.25)?.toSeconds).toBeCloseTo(2.7, 9);
  });

  it('does not jump while speech plays, after a seek into a silence, or on a seek over one', () => {
    expect(skipCrossed(skips, 6, 6.25)).toBeNull();
    expect(skipCrossed(skips, 10, 10.25)).toBeNull();
    expect(skipCrossed(skips, 3, 16)).toBeNull();
    expect(skipCrossed(skips, 16, 9.2)).toBeNull();
  });
});
