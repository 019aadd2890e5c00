/**
 * PlaybackGate (electron/main/peaks/playback-gate.ts): a peaks download waits for the player's
 * recording to be streaming, at most `maxWaitMs`. Fake timers (and a fake performance.now): no
 * real waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPlaybackGate } from '../../electron/main/peaks/playback-gate';

const SID = 'interaction_0b9a1e52-5f7c-4c59-9d36-2f0d2b8f6a11';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled after the pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('PlaybackGate', () => {
  it('lets a recording that is never played through after the longest hold, not before', async () => {
    const waiting = createPlaybackGate(30, 50).wait('interaction_never-played');
    await vi.advanceTimersByTimeAsync(29);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
  });

  it('releases a waiting download the grace period after playback started, not at once', async () => {
    const gate = createPlaybackGate(10_000, 50);
    const waiting = gate.wait(SID);
    await vi.advanceTimersByTimeAsync(100);
    gate.opened(SID);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(49);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
  });

  it('shortly after an opening (same view), waits only what is left of the grace', async () => {
    const gate = createPlaybackGate(10_000, 50);
    gate.opened(SID);
    await vi.advanceTimersByTimeAsync(20);
    const waiting = gate.wait(SID);
    await vi.advanceTimersByTimeAsync(29);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    // Past the grace there is nothing left to wait for.
    expect(await settled(gate.wait(SID))).toBe(true);
  });

  it('does not count an opening from an earlier view: a new view waits for its own player', async () => {
    const gate = createPlaybackGate(60, 0);
    gate.opened(SID);
    await vi.advanceTimersByTimeAsync(80);
    const waiting = gate.wait(SID);
    await vi.advanceTimersByTimeAsync(20);
    expect(await settled(waiting)).toBe(false);
    gate.opened(SID);
    expect(await settled(waiting)).toBe(true);
  });

  it('releases every download waiting for the same recording, and only those', async () => {
    const gate = createPlaybackGate(10_000, 0);
    const first = gate.wait(SID);
    const second = gate.wait(SID);
    const other = gate.wait('interaction_other');
    gate.opened(SID);
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
    expect(await settled(other)).toBe(false);
  });
});
