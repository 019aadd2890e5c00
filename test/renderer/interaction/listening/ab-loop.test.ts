/**
 * The A–B loop: mark A, mark B, and playback reaching B goes back to A until the loop is cleared.
 */
import { describe, expect, it } from 'vitest';
import {
  describeLoop,
  loopJump,
  loopOver,
  NO_LOOP,
  pressLoop,
} from '../../../../renderer/src/lib/interaction/listening/ab-loop';

describe('the A–B loop', () => {
  it('marks A, then B, then clears on the third press', () => {
    const marked = pressLoop(NO_LOOP, 12);
    expect(marked).toEqual({ kind: 'marked', aSeconds: 12 });
    const looping = pressLoop(marked, 15.5);
    expect(looping).toEqual({ kind: 'looping', aSeconds: 12, bSeconds: 15.5 });
    expect(pressLoop(looping, 14)).toEqual(NO_LOOP);
  });

  it('takes B before A as the same range, and waits for a B far enough from A', () => {
    expect(pressLoop({ kind: 'marked', aSeconds: 20 }, 18)).toEqual({ kind: 'looping', aSeconds: 18, bSeconds: 20 });
    expect(pressLoop({ kind: 'marked', aSeconds: 20 }, 20.1)).toEqual({ kind: 'marked', aSeconds: 20 });
    expect(loopOver(5, 5.1)).toBeNull();
  });

  it('goes back to A when playback reaches B, and only then', () => {
    const loop = loopOver(30, 10)!;
    expect(loopJump(loop, 29.9, 30.1)).toBe(10);
    expect(loopJump(loop, 20, 20.25)).toBeNull();
    // A seek out of the loop, or playing on past it after such a seek, is left alone.
    expect(loopJump(loop, 12, 45)).toBeNull();
    expect(loopJump(loop, 40, 40.25)).toBeNull();
    // A loop whose B is past the end of the recording goes back at the end.
    expect(loopJump(loopOver(10, 99)!, 59.9, 60, 60)).toBe(10);
    expect(loopJump(NO_LOOP, 29.9, 30.1)).toBeNull();
  });

  it('says what it does', () => {
    const clock = (s: number) => `0:${String(s).padStart(2, '0')}`;
    expect(describeLoop({ kind: 'marked', aSeconds: 12 }, clock)).toBe('Loop from 0:12: press again at its end');
    expect(describeLoop(loopOver(12, 15)!, clock)).toBe('Looping 0:12–0:15');
  });
});
