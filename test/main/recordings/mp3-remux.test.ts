/**
 * An MP3 recording rewrapped in MP4 for exact seeking (electron/main/recordings/mp3-remux.ts):
 * the same frames, byte for byte, each at its exact time, the LAME-declared delay and padding cut
 * by an edit list, so the MP4 lasts exactly as long as the recording's sound.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remuxMp3ToMp4 } from '../../../electron/main/recordings/mp3-remux';
import { hasCommand } from '../../fixtures/audio-fixtures';
import { encodeCall, type EncodedCall } from '../../fixtures/call-formats';

const missing = ['ffmpeg', 'espeak-ng', 'sox'].filter((tool) => !hasCommand(tool));
let dir: string;

/** Every packet of `file`'s audio track: its bytes, time and length (seconds). */
async function packetsOf(file: string): Promise<Array<{ data: Uint8Array; timestamp: number; duration: number }>> {
  const input = new Input({ source: new BufferSource(readFileSync(file)), formats: ALL_FORMATS });
  const out = [];
  for await (const p of new EncodedPacketSink((await input.getPrimaryAudioTrack())!).packets()) {
    out.push({ data: p.data, timestamp: p.timestamp, duration: p.duration });
  }
  input.dispose();
  return out;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vr-remux-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(missing.length > 0)(`MP3 rewrapped in MP4 (skipped: ${missing.join(', ')} missing)`, () => {
  async function remux(call: EncodedCall): Promise<{ mp4: string; result: Awaited<ReturnType<typeof remuxMp3ToMp4>> }> {
    const mp4 = join(dir, `${call.format}-${call.sampleRate}.m4a`);
    return { mp4, result: await remuxMp3ToMp4(call.file, mp4) };
  }

  it('keeps every frame byte for byte, times each by its samples, and cuts the declared delay', async () => {
    const call = await encodeCall({ format: 'mp3-vbr-xing', sampleRate: 22_050, channels: 1 });
    const { mp4, result } = await remux(call);
    const [mp3Frames, mp4Frames] = [await packetsOf(call.file), await packetsOf(mp4)];
    expect(mp4Frames.map((f) => Buffer.from(f.data).toString('hex'))).toEqual(
      mp3Frames.map((f) => Buffer.from(f.data).toString('hex')),
    );
    expect(result.frames).toBe(mp3Frames.length);
    expect(result.skippedSamples).toBe(576 + 529);
    // MPEG-2 layer III: 576 samples per frame, each frame right after the one before.
    for (const [i, frame] of mp4Frames.entries()) {
      if (i > 0) expect(frame.timestamp).toBeCloseTo(mp4Frames[i - 1]!.timestamp + 576 / 22_050, 6);
    }
    // The edit list starts the presentation at the recording's first sample and ends it at its last.
    expect(Math.abs(result.durationSeconds - call.script.durationSeconds)).toBeLessThan(1 / 22_050 + 1e-9);
    const input = new Input({ source: new BufferSource(readFileSync(mp4)), formats: ALL_FORMATS });
    expect(Math.abs((await input.computeDuration()) - call.script.durationSeconds)).toBeLessThan(0.001);
    input.dispose();
  });

  it('keeps the delay of an MP3 that declares none, as every player plays it', async () => {
    const call = await encodeCall({ format: 'mp3-vbr-noxing', sampleRate: 44_100, channels: 2 });
    const { result } = await remux(call);
    expect(result.skippedSamples).toBe(0);
    expect(result.durationSeconds).toBeCloseTo((result.frames * 1152) / 44_100, 6);
  });

  it('refuses bytes that are not an MP3', async () => {
    const notMp3 = join(dir, 'not.mp3');
    writeFileSync(notMp3, '<html>Sign in</html>'.repeat(50));
    await expect(remuxMp3ToMp4(notMp3, join(dir, 'not.m4a'))).rejects.toThrow();
  });
});
