import { describe, expect, it } from 'vitest';
import { checkTranscriptTiming } from '../../../../renderer/src/lib/interaction/analysis/timing-check';
import { syntheticPeaks, transcript } from './fixtures';

// Seven turns of 2 s with 1 s between them: speech at 1-3, 4-6, ... 19-21, in a 40 s mono recording.
const starts = [1, 4, 7, 10, 13, 16, 19];
const peaks = syntheticPeaks(
  40,
  1,
  starts.map((from) => ({ channel: 0, from, to: from + 2 })),
);
const roles = (times: (number | null)[]) =>
  transcript(times.map((t, i) => [i % 2 === 0 ? 'agent' : 'user', t] as [string, number | null]));

describe('checkTranscriptTiming', () => {
  it('is null when the log times fall on the speech and the recording covers the call', () => {
    expect(checkTranscriptTiming(roles(starts), peaks, { durationSeconds: 40 })).toBeNull();
    // A little early or late is still on the speech, and untimed entries are not checked.
    expect(checkTranscriptTiming(roles([0.6, 4.8, null, 10, 13, 16, 19]), peaks, { durationSeconds: null })).toBeNull();
  });

  it('says so when entries are timed after the recording ends', () => {
    expect(checkTranscriptTiming(roles([...starts, 40.8]), peaks, { durationSeconds: 40 })).toBeNull();
    expect(checkTranscriptTiming(roles([...starts, 45]), peaks, { durationSeconds: 40 })).toBe(
      "1 transcript entry is timed after the recording ends (0:40), so the transcript's times may not match the audio.",
    );
    // Milliseconds read as seconds: everything past the end.
    expect(checkTranscriptTiming(roles(starts.map((s) => s * 1000)), peaks, { durationSeconds: 40 })).toBe(
      "7 transcript entries are timed after the recording ends (0:40), so the transcript's times may not match the audio.",
    );
  });

  it('says so when the recording is much shorter than the call', () => {
    expect(checkTranscriptTiming(roles(starts), peaks, { durationSeconds: 120 })).toBe(
      "The recording is 40 s long but the call lasted 2 min 00 s, so the transcript's times may not match the audio.",
    );
    // 4 s short, or 10 % short: rounding and ringing, not a mismatch.
    expect(checkTranscriptTiming(roles(starts), peaks, { durationSeconds: 44 })).toBeNull();
    expect(
      checkTranscriptTiming(
        roles(starts),
        syntheticPeaks(
          100,
          1,
          starts.map((from) => ({ channel: 0, from, to: from + 2 })),
        ),
        { durationSeconds: 109 },
      ),
    ).toBeNull();
  });

  it('says so when several spoken entries start on silence, not for one', () => {
    const shifted = [1, 4, 7, 10, 24, 27, 30];
    expect(checkTranscriptTiming(roles(shifted), peaks, { durationSeconds: 40 })).toBe(
      "3 of 7 spoken entries start where the recording is silent, so the transcript's times may not match the audio.",
    );
    expect(checkTranscriptTiming(roles([1, 4, 7, 10, 13, 16, 30]), peaks, { durationSeconds: 40 })).toBeNull();
  });

  it('checks silence in every channel: speech on either lane counts', () => {
    const stereo = syntheticPeaks(
      40,
      2,
      starts.map((from, i) => ({ channel: i % 2, from, to: from + 2 })),
    );
    expect(checkTranscriptTiming(roles(starts), stereo, { durationSeconds: 40 })).toBeNull();
  });

  it('does not count tool and system entries, which may come during silence', () => {
    const log = transcript([
      ['agent', 1],
      ['tool', 3.5],
      ['user', 4],
      ['system', 25],
      ['tool', 30],
      ['agent', 7],
    ]);
    expect(checkTranscriptTiming(log, peaks, { durationSeconds: 40 })).toBeNull();
  });

  it('is null without peaks: nothing to compare with', () => {
    expect(checkTranscriptTiming(roles([...starts, 500]), null, { durationSeconds: 10 })).toBeNull();
  });
});
