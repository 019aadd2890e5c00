import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { limitTransfer, TransferLimitError, type TransferLimits } from '../../../electron/main/network/transfer-limits';

const clock = { now: () => Date.now() };

/** A server body that sends `chunkBytes` every `everyMs` (on the fake clock), `count` times. */
function drip(everyMs: number, chunkBytes: number, count = Infinity) {
  let sent = 0;
  let cancelled: unknown = null;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise((done) => {
        setTimeout(() => {
          if (sent >= count) controller.close();
          else controller.enqueue(new Uint8Array(chunkBytes));
          sent++;
          done();
        }, everyMs);
      });
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  return { stream, cancelledWith: () => cancelled };
}

/** Reads `stream` to its end, advancing the fake clock; resolves with the bytes or the error. */
async function drain(stream: ReadableStream<Uint8Array>): Promise<{ bytes: number; error: unknown; atMs: number }> {
  const started = Date.now();
  const reader = stream.getReader();
  let bytes = 0;
  for (;;) {
    const read = reader.read();
    const state = { settled: false };
    read.then(
      () => (state.settled = true),
      () => (state.settled = true),
    );
    while (!state.settled) await vi.advanceTimersByTimeAsync(500);
    try {
      const { done, value } = await read;
      if (done) return { bytes, error: null, atMs: Date.now() - started };
      bytes += value.byteLength;
    } catch (error) {
      return { bytes, error, atMs: Date.now() - started };
    }
  }
}

const limits: TransferLimits = { stallMs: 30_000, minBytesPerSecond: 1024, windowMs: 30_000, deadlineMs: 600_000 };

describe('a download that trickles', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends a body that sends 1 byte every 14 s, which the stall timeout alone lets through', async () => {
    const server = drip(14_000, 1);
    const result = await drain(limitTransfer(server.stream, limits, 'The recording server', clock));
    expect(result.error).toBeInstanceOf(TransferLimitError);
    expect(result.error).toMatchObject({ kind: 'too_slow' });
    expect((result.error as Error).message).toMatch(/^The recording server sent 3 bytes in 42 s \(less than 1 KB\/s\)/);
    expect(result.atMs).toBeLessThanOrEqual(42_500);
    expect(server.cancelledWith()).toBe(result.error);
  });

  it('lets a steady download through to its end', async () => {
    const server = drip(1_000, 64 * 1024, 120);
    const result = await drain(limitTransfer(server.stream, limits, 'The recording server', clock));
    expect(result).toMatchObject({ error: null, bytes: 120 * 64 * 1024 });
  });

  it('ends a body that sends nothing for the stall timeout', async () => {
    const server = drip(31_000, 1);
    const result = await drain(limitTransfer(server.stream, limits, 'The recording server', clock));
    expect(result.error).toMatchObject({ kind: 'stalled' });
    expect((result.error as Error).message).toMatch(/sent nothing for 30 s/);
    expect(result.atMs).toBe(30_000);
  });

  it('ends a body that is fast enough but outlasts the deadline', async () => {
    const server = drip(1_000, 2048);
    const result = await drain(
      limitTransfer(server.stream, { ...limits, deadlineMs: 100_000 }, 'The recording server', clock),
    );
    expect(result.error).toMatchObject({ kind: 'deadline' });
    // The fake clock advances in 500 ms steps while the test reads.
    expect(result.atMs).toBeGreaterThanOrEqual(100_000);
    expect(result.atMs).toBeLessThanOrEqual(100_500);
  });

  it('does not count time the reader spends not asking (a paused player)', async () => {
    const server = drip(100, 4096, 1000);
    const reader = limitTransfer(server.stream, limits, 'The recording server', clock).getReader();
    const first = reader.read();
    await vi.advanceTimersByTimeAsync(100);
    expect((await first).value?.byteLength).toBe(4096);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    for (let i = 0; i < 400; i++) {
      const next = reader.read();
      await vi.advanceTimersByTimeAsync(100);
      expect((await next).done).toBe(false);
    }
    await reader.cancel();
    expect(server.cancelledWith()).toBeUndefined();
  });

  it('turns the rate check off with a floor of 0', async () => {
    const server = drip(14_000, 1, 5);
    const result = await drain(
      limitTransfer(server.stream, { stallMs: 30_000, minBytesPerSecond: 0, windowMs: 30_000 }, 'x', clock),
    );
    expect(result).toMatchObject({ error: null, bytes: 5 });
  });
});
