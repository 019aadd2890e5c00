/**
 * Levelling the lanes: a quiet caller is raised to the agent's level, within a cap, never into
 * clipping, and a loud or silent lane is left as recorded.
 */
import { describe, expect, it } from 'vitest';
import type { RecordingPeaks } from '$shared/contract';
import { laneLevels, MAX_LEVELLING_GAIN } from '../../../../renderer/src/lib/interaction/listening/lane-levels';

/** Peaks of a 10 s call, 100 peaks per lane, each lane at `level` (with a `loudest` peak) while it speaks in 2..8 s. */
function peaksOf(lanes: Array<{ level: number; loudest?: number }>): RecordingPeaks {
  return {
    durationSeconds: 10,
    sampleRate: 8000,
    length: 100,
    fromCache: false,
    channels: lanes.map(({ level, loudest }) => {
      const max = Array.from({ length: 100 }, (_, i) => (i >= 20 && i < 80 ? level : 0.001));
      if (loudest !== undefined) max[50] = loudest;
      return { min: max.map((v) => -v), max };
    }),
  };
}

const speaking = [{ startSeconds: 2, endSeconds: 8 }];

describe('lane levelling', () => {
  it("raises a quiet caller to the agent's level and leaves the agent as recorded", () => {
    const [caller, agent] = laneLevels(peaksOf([{ level: 0.2 }, { level: 0.6 }]), [speaking, speaking]);
    expect(caller!.gain).toBeCloseTo(3, 5);
    expect(caller!.decibels).toBe(9.5);
    expect(agent).toEqual({ gain: 1, decibels: 0 });
  });

  it('caps the gain, and keeps the loudest peak out of clipping', () => {
    const [whisper] = laneLevels(peaksOf([{ level: 0.01 }, { level: 0.8 }]), [speaking, speaking]);
    expect(whisper!.gain).toBe(MAX_LEVELLING_GAIN);
    const [spiky] = laneLevels(peaksOf([{ level: 0.2, loudest: 0.5 }, { level: 0.8 }]), [speaking, speaking]);
    expect(spiky!.gain * 0.5).toBeLessThanOrEqual(0.95 + 1e-9);
  });

  it('raises a call recorded quietly throughout, and leaves a lane that never speaks alone', () => {
    const [mono] = laneLevels(peaksOf([{ level: 0.25 }]), [speaking]);
    expect(mono!.gain).toBeCloseTo(2, 5);
    const [silent] = laneLevels(peaksOf([{ level: 0.3 }, { level: 0.6 }]), [[], speaking]);
    expect(silent).toEqual({ gain: 1, decibels: 0 });
  });
});
