/**
 * The timeline under the waveform: readable clock steps, and never so many labels that drawing
 * them (the plugin measures each one) slows the first view of a long call.
 */
import { describe, expect, it } from 'vitest';
import { timelineStepSeconds } from '../../../../renderer/src/lib/interaction/waveform/surfer';

describe('timeline labels under the waveform', () => {
  it('labels a 1-minute call every 5 s and a 40-minute call every 5 minutes', () => {
    expect(timelineStepSeconds(60)).toBe(5);
    expect(timelineStepSeconds(2400)).toBe(300);
    expect(timelineStepSeconds(8)).toBe(1);
  });

  it('never places more than 12 labels, however long the recording', () => {
    for (const seconds of [1, 7, 59, 61, 125, 600, 1799, 2400, 3601, 6 * 3600, 20 * 3600]) {
      const step = timelineStepSeconds(seconds);
      expect(seconds / step).toBeLessThanOrEqual(12);
      expect(Number.isInteger(step)).toBe(true);
    }
  });
});
