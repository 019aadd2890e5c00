import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRange } from '../../../electron/main/exports/clip-decode';
import { encodeWav16, makeClip } from '../../../electron/main/exports/clip-wav';
import { ApiError } from '../../../electron/shared/errors';
import {
  generateAudioFixtures,
  hasCommand,
  STEREO_LEFT_AMPLITUDE,
  STEREO_RIGHT_AMPLITUDE,
  type AudioFixtures,
} from '../../fixtures/audio-fixtures';

const RATE = 8000;

/** `bytes` in chunks of `size`, counting how many were read. */
function chunked(
  bytes: Uint8Array,
  size: number,
): { chunks: AsyncIterable<Uint8Array>; read: () => number; total: number } {
  let read = 0;
  async function* gen() {
    for (let at = 0; at < bytes.length; at += size) {
      read += 1;
      yield await Promise.resolve(bytes.subarray(at, at + size));
    }
  }
  return { chunks: gen(), read: () => read, total: Math.ceil(bytes.length / size) };
}

/** A ramp 0..1 over ten seconds on the left, its negative on the right: each sample tells its time. */
function rampWav(): { wav: Uint8Array; left: Float32Array } {
  const frames = 10 * RATE;
  const left = new Float32Array(frames).map((_, i) => i / frames);
  const right = left.map((x) => -x);
  return { wav: encodeWav16([left, right], RATE), left };
}

const rms = (c: Float32Array, from: number, to: number, rate: number) => {
  const part = c.subarray(Math.round(from * rate), Math.round(to * rate));
  return Math.sqrt(part.reduce((s, x) => s + x * x, 0) / part.length);
};

describe('decoding a clip range', () => {
  it('keeps exactly the samples of the range, and stops reading once past it', async () => {
    const { wav, left } = rampWav();
    const source = chunked(wav, 3000);
    const range = await decodeRange(source.chunks, { startSeconds: 2, endSeconds: 4 });
    expect(range.sampleRate).toBe(RATE);
    expect(range.startSeconds).toBe(2);
    expect(range.channelData).toHaveLength(2);
    expect(range.channelData[0]!.length).toBe(2 * RATE);
    for (const i of [0, 1, 8000, 15999]) {
      expect(range.channelData[0]![i]).toBeCloseTo(left[2 * RATE + i]!, 4);
      expect(range.channelData[1]![i]).toBeCloseTo(-left[2 * RATE + i]!, 4);
    }
    expect(source.read()).toBeLessThan(source.total * 0.5);
  });

  it('refuses bytes that are not audio, and an empty or over-long range, in words', async () => {
    const junk = chunked(new TextEncoder().encode('<html>not a recording</html>'.repeat(40)), 100);
    await expect(decodeRange(junk.chunks, { startSeconds: 0, endSeconds: 1 })).rejects.toMatchObject({
      kind: 'invalid_response',
      message: expect.stringMatching(/could not be decoded/) as string,
    });
    const { wav } = rampWav();
    await expect(decodeRange(chunked(wav, 4096).chunks, { startSeconds: 3, endSeconds: 3 })).rejects.toBeInstanceOf(
      ApiError,
    );
    await expect(decodeRange(chunked(wav, 4096).chunks, { startSeconds: 0, endSeconds: 3600 })).rejects.toMatchObject({
      kind: 'bad_input',
    });
  });

  describe('from compressed recordings', () => {
    let fixtures: AudioFixtures | null = null;
    beforeAll(() => {
      if (hasCommand('sox')) fixtures = generateAudioFixtures();
    });
    afterAll(() => {
      if (fixtures) rmSync(fixtures.dir, { recursive: true, force: true });
    });

    it('decodes a range of an Ogg/Opus stereo call and cuts a masked clip of it', async (ctx) => {
      if (!fixtures?.oggOpusStereo) {
        ctx.skip('sox or opusenc is not installed (apt-get install sox opus-tools)');
        return;
      }
      // Left: silent 0–2 s, then 440 Hz; right: 660 Hz 0–2 s, then silent.
      const bytes = new Uint8Array(readFileSync(fixtures.oggOpusStereo.file));
      const range = await decodeRange(chunked(bytes, 4096).chunks, { startSeconds: 1, endSeconds: 3 });
      expect(range.channelData).toHaveLength(2);
      expect(range.channelData[0]!.length / range.sampleRate).toBeCloseTo(2, 2);
      const [left, right] = range.channelData;
      const local = (t: number) => t - range.startSeconds;
      expect(rms(left!, local(1.1), local(1.9), range.sampleRate)).toBeLessThan(0.02);
      expect(rms(left!, local(2.1), local(2.9), range.sampleRate)).toBeCloseTo(STEREO_LEFT_AMPLITUDE / Math.SQRT2, 1);
      expect(rms(right!, local(1.1), local(1.9), range.sampleRate)).toBeCloseTo(STEREO_RIGHT_AMPLITUDE / Math.SQRT2, 1);

      const clip = makeClip(range, {
        range: { startSeconds: 1, endSeconds: 3 },
        maskSpans: [{ startSeconds: 2.4, endSeconds: 2.6 }],
        marginSeconds: 0.1,
      });
      expect(clip.startSeconds).toBe(1);
      expect(clip.maskedSpans).toEqual([
        { startSeconds: expect.closeTo(1.3, 6) as number, endSeconds: expect.closeTo(1.7, 6) as number },
      ]);
      const masked = clip.wav.subarray(44);
      const at = (seconds: number) => Math.round(seconds * clip.sampleRate) * clip.channels * 2;
      expect(masked.subarray(at(1.31), at(1.69)).every((b) => b === 0)).toBe(true);
      expect(masked.subarray(at(1.75), at(1.9)).some((b) => b !== 0)).toBe(true);
    });
  });
});
