/**
 * Decoding caps: a recording whose header or stream goes past what a call can be (more than 8
 * channels, more than 6 hours, more than 1 GiB, a stream that never ends) is refused with a
 * sentence that says why, at once, without allocating what the header announces; a peaks worker
 * that outgrows its heap limits ends with words, not a hang. All fixtures are synthetic bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeToPeaks } from '../../../electron/main/peaks/decode';
import { MAX_RECORDING_BYTES } from '../../../electron/main/api/recording-errors';
import { createWorkerDecoder, WORKER_OUT_OF_MEMORY_MESSAGE } from '../../../electron/main/peaks/worker-decoder';
import { ApiError } from '../../../electron/shared/errors';
import { temporaryFolder } from '../../fixtures/temporary-folder';

/** The layout a synthetic WAV header announces. */
interface WavLayout {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Size of the data chunk in bytes (0xFFFFFFFF: "until the end"). */
  dataBytes: number;
}

/** A 44-byte RIFF/WAVE PCM header with `layout`. */
function wavHeader(layout: WavLayout): Uint8Array {
  const header = Buffer.alloc(44);
  const blockAlign = layout.channels * Math.ceil(layout.bitsPerSample / 8);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(0xffffffff, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(layout.channels, 22);
  header.writeUInt32LE(layout.sampleRate, 24);
  header.writeUInt32LE((layout.sampleRate * blockAlign) >>> 0, 28);
  header.writeUInt16LE(blockAlign & 0xffff, 32);
  header.writeUInt16LE(layout.bitsPerSample, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(layout.dataBytes, 40);
  return new Uint8Array(header);
}

/** Bytes pulled from an endless source so far. */
interface Counted {
  pulled: number;
}

/** `head`, then `filler` again and again, forever; counts the bytes taken in `counter`. */
async function* endless(head: Uint8Array, filler: Uint8Array, counter: Counted): AsyncGenerator<Uint8Array> {
  counter.pulled += head.length;
  yield head;
  for (;;) {
    await Promise.resolve(); // a network stream hands over each chunk in a later turn
    counter.pulled += filler.length;
    yield filler;
  }
}

async function* once(...chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    await Promise.resolve();
    yield chunk;
  }
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('channel cap', () => {
  it('refuses a WAV header with 65,535 channels in words, before any sample is read', async () => {
    const header = wavHeader({ channels: 65_535, sampleRate: 8000, bitsPerSample: 16, dataBytes: 65_535 * 2 * 10 });
    const error = await refusal(decodeToPeaks(once(header, new Uint8Array(4096))));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/65535 audio channels \(at most 8 are drawn\); it may still play/);
  });

  it('draws 8 channels and refuses 9', async () => {
    const eight = wavHeader({ channels: 8, sampleRate: 8000, bitsPerSample: 8, dataBytes: 8 * 800 });
    const peaks = await decodeToPeaks(once(eight, new Uint8Array(8 * 800).fill(200)));
    expect(peaks.channels).toHaveLength(8);
    const nine = wavHeader({ channels: 9, sampleRate: 8000, bitsPerSample: 8, dataBytes: 9 * 800 });
    expect((await refusal(decodeToPeaks(once(nine, new Uint8Array(9 * 800))))).message).toContain('9 audio channels');
  });

  it('refuses an absurd sample rate in words', async () => {
    const header = wavHeader({ channels: 1, sampleRate: 4_000_000_000, bitsPerSample: 8, dataBytes: 100 });
    expect((await refusal(decodeToPeaks(once(header, new Uint8Array(100))))).message).toMatch(/samples per second/);
  });
});

describe('duration and size caps', () => {
  it('refuses a header announcing more than 6 hours before reading its data', async () => {
    // 8 kHz mono 8-bit: 4 GiB is about 149 hours.
    const header = wavHeader({ channels: 1, sampleRate: 8000, bitsPerSample: 8, dataBytes: 0xfffffff0 });
    const error = await refusal(decodeToPeaks(once(header)));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/longer than 6 hours; it may still play/);
  });

  it('ends an endless stream at the duration cap, having read little more than 6 hours of it', async () => {
    // 1 sample per second, mono 8-bit, "until the end": 6 hours is 21,600 bytes.
    const header = wavHeader({ channels: 1, sampleRate: 1, bitsPerSample: 8, dataBytes: 0xffffffff });
    const counter: Counted = { pulled: 0 };
    const error = await refusal(decodeToPeaks(endless(header, new Uint8Array(1000).fill(128), counter)));
    expect(error.message).toMatch(/longer than 6 hours/);
    expect(counter.pulled).toBeLessThan(30_000);
  });

  it('ends an endless stream that never yields audio (one huge skipped chunk) at the byte cap', async () => {
    const fmt = wavHeader({ channels: 1, sampleRate: 8000, bitsPerSample: 8, dataBytes: 0 }).subarray(0, 36);
    const list = new Uint8Array(Buffer.from('LIST\xfe\xff\xff\xff', 'latin1'));
    const head = new Uint8Array([...fmt, ...list]);
    const counter: Counted = { pulled: 0 };
    const error = await refusal(decodeToPeaks(endless(head, new Uint8Array(8 * 1024 * 1024), counter)));
    expect(error.message).toMatch(/larger than 1 GiB or never ends/);
    expect(counter.pulled).toBeLessThan(MAX_RECORDING_BYTES + 16 * 1024 * 1024);
  }, 60_000);
});

describe('worker memory limits', () => {
  it('a worker that outgrows its heap limit ends with words, not a hang', async () => {
    const script = join(temporaryFolder('vr-oom-'), 'greedy-worker.mjs');
    writeFileSync(script, 'const kept = [];\nfor (;;) kept.push(new Array(100_000).fill({ x: kept.length }));\n');
    const decode = createWorkerDecoder(script, { resourceLimits: { maxOldGenerationSizeMb: 16 } });
    const error = await refusal(decode(once(new Uint8Array(16))));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toBe(WORKER_OUT_OF_MEMORY_MESSAGE);
  }, 30_000);
});
