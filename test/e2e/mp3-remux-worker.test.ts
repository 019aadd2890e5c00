/**
 * The built MP3 remux worker (out/main/mp3-remux-worker.js, from
 * electron/main/recordings/mp3-remux-worker.ts) as main runs it for a recording's seekable
 * variant: the MP4 it writes is the one the in-thread remux writes, a recording it cannot remux
 * fails with the remux's own words, and a remux stopped (the recording left the cache) leaves no
 * file behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_FORMATS, BufferSource, Input } from 'mediabunny';
import { beforeAll, describe, expect, it } from 'vitest';
import { remuxMp3ToMp4 } from '../../electron/main/recordings/mp3-remux';
import { createWorkerRemuxer } from '../../electron/main/recordings/mp3-remux-worker-client';
import { encodeCall, type EncodedCall } from '../fixtures/call-formats';
import { ensureBuilt } from './build';
import { MP3_REMUX_WORKER } from './harness';

let dir: string;
let call: EncodedCall;

beforeAll(async () => {
  ensureBuilt();
  call = await encodeCall({ format: 'mp3-vbr-xing', sampleRate: 22_050, channels: 1 });
  dir = mkdtempSync(join(tmpdir(), 'vr-remux-worker-'));
  return () => rmSync(dir, { recursive: true, force: true });
}, 180_000);

/** Length of the audio track of the MP4 at `file`, seconds. */
async function durationOf(file: string): Promise<number> {
  const input = new Input({ source: new BufferSource(readFileSync(file)), formats: ALL_FORMATS });
  try {
    return await input.computeDuration();
  } finally {
    input.dispose();
  }
}

describe('the MP3 remux in its worker thread', () => {
  it('writes the MP4 the in-thread remux writes', async () => {
    const remux = createWorkerRemuxer(MP3_REMUX_WORKER);
    const [inWorker, inThread] = [join(dir, 'worker.m4a'), join(dir, 'thread.m4a')];
    const [fromWorker, fromThread] = [await remux(call.file, inWorker), await remuxMp3ToMp4(call.file, inThread)];
    expect(fromWorker).toEqual(fromThread);
    expect(await durationOf(inWorker)).toBeCloseTo(await durationOf(inThread), 6);
    expect(Math.abs((await durationOf(inWorker)) - call.script.durationSeconds)).toBeLessThan(0.001);
  });

  it("fails with the remux's own words for a file that is not an MP3, leaving no file", async () => {
    const notMp3 = join(dir, 'not-audio.mp3');
    writeFileSync(notMp3, Buffer.alloc(8192, 7));
    const words = await remuxMp3ToMp4(notMp3, join(dir, 'failed-in-thread.m4a')).then(
      () => 'remuxed',
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    expect(words).not.toBe('remuxed');
    const target = join(dir, 'failed.m4a');
    await expect(createWorkerRemuxer(MP3_REMUX_WORKER)(notMp3, target)).rejects.toThrow(words);
    expect(readdirSync(dir).filter((name) => name.startsWith('failed'))).toEqual([]);
  });

  it('stops when asked, leaving no file', async () => {
    const stop = new AbortController();
    const target = join(dir, 'stopped.m4a');
    const remuxing = createWorkerRemuxer(MP3_REMUX_WORKER)(call.file, target, stop.signal);
    stop.abort();
    await expect(remuxing).rejects.toThrow('The MP3 remux was stopped.');
    expect(readdirSync(dir).filter((name) => name.startsWith('stopped'))).toEqual([]);
  });
});
