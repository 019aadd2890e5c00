/**
 * The encoder delay and padding an MP3 declares in its LAME tag, read from its first bytes: what
 * decides where the recording's first sample is in the decoded audio, and where it ends.
 */
import { describe, expect, it } from 'vitest';
import { MP3_DECODER_DELAY, mp3GaplessHeadBytes, readMp3Gapless } from '$shared/mp3-gapless';

/** Layout of the first frame: MPEG version, channel mode and the Xing fields present. */
interface FrameLayout {
  mpeg1?: boolean;
  mono?: boolean;
  tag?: 'Xing' | 'Info' | 'None';
  frames?: number | null;
  delay: number;
  padding: number;
}

/** A first MP3 frame carrying a Xing/Info header with a LAME tag, as LAME and FFmpeg write it. */
function firstFrame({
  mpeg1 = true,
  mono = false,
  tag = 'Info',
  frames = 1000,
  delay,
  padding,
}: FrameLayout): Uint8Array {
  const frame = new Uint8Array(417);
  // Sync, version (MPEG-1: 11, MPEG-2: 10), layer III, no CRC; 128 kbit/s, 44.1 kHz; channel mode.
  frame.set([0xff, mpeg1 ? 0xfb : 0xf3, 0x90, mono ? 0xc0 : 0x00]);
  let at = 4 + (mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17);
  if (tag === 'None') return frame;
  frame.set(new TextEncoder().encode(tag), at);
  const flags = (frames === null ? 0 : 1) | 2 | 4 | 8;
  frame.set([0, 0, 0, flags], at + 4);
  at += 8;
  if (frames !== null) {
    frame.set([(frames >>> 24) & 0xff, (frames >>> 16) & 0xff, (frames >>> 8) & 0xff, frames & 0xff], at);
    at += 4;
  }
  at += 4 + 100 + 4; // bytes, table of contents, quality
  frame.set(new TextEncoder().encode('LAME3.100'), at);
  frame.set([delay >> 4, ((delay & 0x0f) << 4) | (padding >> 8), padding & 0xff], at + 21);
  return frame;
}

describe('the LAME tag of an MP3', () => {
  it('says how many samples to drop at the start and how many are the recording', () => {
    const gapless = readMp3Gapless(firstFrame({ frames: 1131, delay: 576, padding: 751 }));
    expect(gapless).toEqual({ skipSamples: 576 + MP3_DECODER_DELAY, validSamples: 1131 * 1152 - 576 - 751 });
  });

  it('counts 576 samples per frame in MPEG-2 (16, 22.05 and 24 kHz), mono or stereo', () => {
    for (const mono of [true, false]) {
      const gapless = readMp3Gapless(firstFrame({ mpeg1: false, mono, frames: 412, delay: 576, padding: 500 }));
      expect(gapless).toEqual({ skipSamples: 1105, validSamples: 412 * 576 - 576 - 500 });
    }
  });

  it('reads the tag after an ID3v2 tag of any size', () => {
    const id3Size = 300_000;
    const id3 = new Uint8Array(10 + id3Size);
    id3.set([
      0x49,
      0x44,
      0x33,
      4,
      0,
      0,
      (id3Size >> 21) & 0x7f,
      (id3Size >> 14) & 0x7f,
      (id3Size >> 7) & 0x7f,
      id3Size & 0x7f,
    ]);
    const head = new Uint8Array([...id3, ...firstFrame({ delay: 576, padding: 100, tag: 'Xing' })]);
    expect(mp3GaplessHeadBytes(head.subarray(0, 10))).toBe(10 + id3Size + 2048);
    expect(readMp3Gapless(head)?.skipSamples).toBe(1105);
  });

  it('drops only the delay when the Xing header gives no frame count', () => {
    expect(readMp3Gapless(firstFrame({ frames: null, delay: 576, padding: 100 }))).toEqual({
      skipSamples: 1105,
      validSamples: null,
    });
  });

  it('drops nothing without a Xing header, with a tag that declares nothing, or from bytes that are not MP3', () => {
    expect(readMp3Gapless(firstFrame({ tag: 'None', delay: 576, padding: 100 }))).toBeNull();
    expect(readMp3Gapless(firstFrame({ delay: 0, padding: 0 }))).toBeNull();
    expect(readMp3Gapless(new TextEncoder().encode('<html>not audio</html>'))).toBeNull();
    expect(readMp3Gapless(firstFrame({ delay: 576, padding: 100 }).subarray(0, 60))).toBeNull();
  });
});
