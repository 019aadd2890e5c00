/**
 * The peaks thread's priority: lowered only where a nice value belongs to one thread (Linux), so
 * on macOS and Windows main's own priority is never touched.
 */
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lowerThisThreadsPriority } from '../../electron/main/peaks/thread-priority';

describe('lowerThisThreadsPriority', () => {
  it('leaves the calling thread alone on macOS and Windows', () => {
    const before = getPriority();
    expect(lowerThisThreadsPriority('darwin')).toBe(false);
    expect(lowerThisThreadsPriority('win32')).toBe(false);
    expect(getPriority()).toBe(before);
  });
});
