/**
 * Which transcript entry is current at a playback time (renderer/src/lib/interaction/transcript/transcript.ts),
 * and the row height the virtual list assumes for rows not yet drawn (transcript/scroll.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '$shared/domain';
import { activeEntryIndex } from '../../../../renderer/src/lib/interaction/transcript/transcript';
import { TypicalRowHeight } from '../../../../renderer/src/lib/interaction/transcript/scroll';

/** A log from offsets in order (null = untimed). */
function logOf(offsets: (number | null)[]): LogEntry[] {
  return offsets.map((offsetSeconds, index) => ({ index, role: 'agent', message: `entry ${index}`, offsetSeconds }));
}

describe('activeEntryIndex', () => {
  it('is -1 for an empty log', () => {
    expect(activeEntryIndex([], 0)).toBe(-1);
    expect(activeEntryIndex([], 100)).toBe(-1);
  });

  it('is -1 when no entry has a time', () => {
    expect(activeEntryIndex(logOf([null, null, null]), 0)).toBe(-1);
    expect(activeEntryIndex(logOf([null, null, null]), 1e6)).toBe(-1);
  });

  it('is -1 before the first entry', () => {
    expect(activeEntryIndex(logOf([2, 5, 9]), 0)).toBe(-1);
    expect(activeEntryIndex(logOf([2, 5, 9]), 1.999)).toBe(-1);
  });

  it('picks the entry whose offset is exactly the time', () => {
    const log = logOf([2, 5, 9]);
    expect(activeEntryIndex(log, 2)).toBe(0);
    expect(activeEntryIndex(log, 5)).toBe(1);
    expect(activeEntryIndex(log, 9)).toBe(2);
  });

  it('keeps the last entry started until the next one starts', () => {
    const log = logOf([2, 5, 9]);
    expect(activeEntryIndex(log, 4.999)).toBe(0);
    expect(activeEntryIndex(log, 8)).toBe(1);
    expect(activeEntryIndex(log, 1e6)).toBe(2);
  });

  it('picks the last of entries with equal offsets', () => {
    expect(activeEntryIndex(logOf([1, 3, 3, 3, 7]), 3)).toBe(3);
    expect(activeEntryIndex(logOf([3, 3]), 3)).toBe(1);
    expect(activeEntryIndex(logOf([3, 3]), 2)).toBe(-1);
  });

  it('never lands on an untimed entry', () => {
    const log = logOf([null, 2, null, null, 8, null]);
    expect(activeEntryIndex(log, 0)).toBe(-1);
    expect(activeEntryIndex(log, 2)).toBe(1);
    expect(activeEntryIndex(log, 7.9)).toBe(1);
    expect(activeEntryIndex(log, 8)).toBe(4);
    expect(activeEntryIndex(log, 100)).toBe(4);
  });

  it('finds timed entries after leading untimed ones', () => {
    expect(activeEntryIndex(logOf([null, 0]), 0)).toBe(1);
    expect(activeEntryIndex(logOf([null, null, 5, 6]), 10)).toBe(3);
    expect(activeEntryIndex(logOf([null, null, 5, 6]), 5.5)).toBe(2);
    expect(activeEntryIndex(logOf([null, null, 5, 6]), 4)).toBe(-1);
  });

  it('agrees with a linear scan on any sorted log with untimed entries', () => {
    const offsets = fc.array(fc.option(fc.integer({ min: 0, max: 20 }), { nil: null, freq: 3 }), { maxLength: 30 });
    fc.assert(
      fc.property(offsets, fc.double({ min: -1, max: 25, noNaN: true }), (raw, time) => {
        // Timed entries sorted, untimed ones left where they are (what the API client guarantees).
        const timed = raw.filter((o): o is number => o !== null).sort((a, b) => a - b);
        const sorted = raw.map((o) => (o === null ? null : (timed.shift() as number)));
        const log = logOf(sorted);
        let expected = -1;
        log.forEach((entry, i) => {
          if (entry.offsetSeconds !== null && entry.offsetSeconds <= time) expected = i;
        });
        expect(activeEntryIndex(log, time)).toBe(expected);
      }),
    );
  });

  it('looks at a handful of entries of a 5,000-entry log, not all of them (binary search)', () => {
    const log = logOf(Array.from({ length: 5000 }, (_, i) => i * 0.5));
    let reads = 0;
    const counted = new Proxy(log, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    for (const time of [0, 1.2, 1000.25, 2100, 2499.5, 9999]) {
      reads = 0;
      const expected = Math.min(4999, Math.floor(time / 0.5));
      expect(activeEntryIndex(counted, time)).toBe(expected);
      // log2(5000) is about 13 steps, each reading an entry once or twice.
      expect(reads).toBeLessThan(40);
    }
  });
});

describe('TypicalRowHeight', () => {
  it('assumes the initial guess until a row is measured, then the height most rows have', () => {
    const typical = new TypicalRowHeight(52);
    expect(typical.px).toBe(52);
    expect(typical.note(0)).toBe(0);
    expect(typical.px).toBe(52);
    // Speech rows of 44 px, a few taller ones (two lines, a badge): the common height wins.
    for (const px of [44, 44, 88, 44, 55, 44, 66]) expect(typical.note(px)).toBe(px);
    expect(typical.px).toBe(44);
  });

  it('follows the rows measured last (another font size, a resized window)', () => {
    const typical = new TypicalRowHeight(52);
    for (let i = 0; i < 40; i += 1) typical.note(44);
    for (let i = 0; i < 20; i += 1) typical.note(60);
    expect(typical.px).toBe(60);
  });
});
