/** Notes beside their transcript entry, their labels, typed times and the range of picked entries. */
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../electron/shared/domain';
import { parseClock } from '../../../renderer/src/lib/reviews/clock';
import { noteLabel, notesByEntry, type NoteMark } from '../../../renderer/src/lib/reviews/note-marks';
import { pickedRange } from '../../../renderer/src/lib/reviews/picked-range';

const entry = (index: number, offsetSeconds: number | null): LogEntry => ({
  index,
  role: 'agent',
  message: `entry ${String(index)}`,
  offsetSeconds,
});
const mark = (id: string, startSeconds: number): NoteMark => ({ id, startSeconds, endSeconds: null, label: id });

describe('notes in the transcript', () => {
  it('puts each note beside the entry being spoken at its start', () => {
    const log = [entry(0, 0), entry(1, null), entry(2, 5), entry(3, 12)];
    const byEntry = notesByEntry(log, [mark('late', 30), mark('inside', 7.5), mark('at', 5), mark('first', 1)]);
    expect([...byEntry.entries()].map(([i, ms]) => [i, ms.map((m) => m.id)])).toEqual([
      [0, ['first']],
      [2, ['at', 'inside']],
      [3, ['late']],
    ]);
  });

  it('places nothing in a transcript without times', () => {
    expect(notesByEntry([entry(0, null)], [mark('a', 1)]).size).toBe(0);
  });

  it('labels a note by its time and the start of its text', () => {
    expect(noteLabel(65, null, 'Agent  skipped\nthe ID check')).toBe('Note at 1:05: Agent skipped the ID check');
    expect(noteLabel(5, 9, '')).toBe('Note at 0:05–0:09');
    expect(noteLabel(0, null, 'x'.repeat(200))).toHaveLength('Note at 0:00: '.length + 80);
  });
});

describe('typed times and picked ranges', () => {
  it('reads m:ss, h:mm:ss and seconds, and refuses the rest', () => {
    expect(parseClock('1:05')).toBe(65);
    expect(parseClock('1:02:03')).toBe(3723);
    expect(parseClock('12.5')).toBe(12.5);
    expect(parseClock('1:75')).toBeNull();
    expect(parseClock('soon')).toBeNull();
    expect(parseClock('')).toBeNull();
  });

  it('covers the picked entries up to the next timed entry, or the end of the recording', () => {
    const log = [entry(0, 0), entry(1, 4), entry(2, null), entry(3, 9), entry(4, 15)];
    expect(pickedRange([log[1]!, log[2]!], log, 20)).toEqual({ startSeconds: 4, endSeconds: 9 });
    expect(pickedRange([log[4]!], log, 20)).toEqual({ startSeconds: 15, endSeconds: 20 });
    expect(pickedRange([log[2]!], log, 20)).toBeNull();
  });
});
