import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { piiAudioSpans } from '../../../electron/main/exports/clip-spans';
import {
  BLEEP_HZ,
  encodeWav16,
  makeClip,
  widenSpans,
  type DecodedAudio,
} from '../../../electron/main/exports/clip-wav';
import { createWavDecoder } from '../../../electron/main/peaks/wav-decoder';
import { DEFAULT_REDACTION_SETTINGS } from '../../../electron/shared/redaction';
import { hasCommand, soxInfo } from '../../fixtures/audio-fixtures';
import { tempDir } from '../reviews/fixtures/review-temp';

const RATE = 8000;

/** Ten seconds of a 440 Hz tone, left at 0.5 and right at 0.8. */
function tone(seconds = 10): DecodedAudio {
  const frames = seconds * RATE;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i += 1) {
    const s = Math.sin((2 * Math.PI * 440 * i) / RATE + 0.1);
    left[i] = 0.5 * s;
    right[i] = 0.8 * s;
  }
  return { channelData: [left, right], sampleRate: RATE };
}

/** Reads a WAV back with the app's own peaks decoder. */
async function readWav(wav: Uint8Array): Promise<{ channels: Float32Array[]; sampleRate: number }> {
  const decoder = await createWavDecoder();
  const pcm = await decoder.decode(wav);
  decoder.free();
  if (!pcm) throw new Error('no audio decoded');
  return { channels: pcm.channelData.map((c) => c.slice(0, pcm.samplesDecoded)), sampleRate: pcm.sampleRate };
}

/** Stretches of at least 10 consecutive zero samples, in seconds: what the ear hears as silence. */
function silentStretches(samples: Float32Array, sampleRate: number): [number, number][] {
  const out: [number, number][] = [];
  let from = -1;
  for (let i = 0; i <= samples.length; i += 1) {
    const quiet = i < samples.length && samples[i] === 0;
    if (quiet && from === -1) from = i;
    if (!quiet && from !== -1) {
      if (i - from >= 10) out.push([from / sampleRate, i / sampleRate]);
      from = -1;
    }
  }
  return out;
}

/** Upward zero crossings per second between two times: the frequency of a tone. */
function frequencyBetween(samples: Float32Array, sampleRate: number, from: number, to: number): number {
  let crossings = 0;
  const a = Math.ceil(from * sampleRate);
  const b = Math.floor(to * sampleRate);
  for (let i = a + 1; i < b; i += 1) if (samples[i - 1]! < 0 && samples[i]! >= 0) crossings += 1;
  return crossings / ((b - a) / sampleRate);
}

describe('evidence clip', () => {
  it('cuts the range and silences the masked span widened by the margin, as measured from the samples', async () => {
    const clip = makeClip(tone(), {
      range: { startSeconds: 2, endSeconds: 8 },
      maskSpans: [{ startSeconds: 4, endSeconds: 5 }],
      marginSeconds: 0.25,
    });
    expect(clip).toMatchObject({
      sampleRate: RATE,
      channels: 2,
      frames: 6 * RATE,
      durationSeconds: 6,
      startSeconds: 2,
    });
    expect(clip.maskedSpans).toEqual([{ startSeconds: 1.75, endSeconds: 3.25 }]);

    const back = await readWav(clip.wav);
    expect(back.sampleRate).toBe(RATE);
    expect(back.channels).toHaveLength(2);
    expect(back.channels[0]!.length / back.sampleRate).toBe(6);
    for (const channel of back.channels) {
      const [span, ...others] = silentStretches(channel, RATE);
      expect(others).toEqual([]);
      expect(span![0]).toBeCloseTo(1.75, 3);
      expect(span![1]).toBeCloseTo(3.25, 3);
    }
    // Outside the mask the tone is there at its level (16-bit rounding aside).
    const peak = (c: Float32Array, from: number, to: number) =>
      Math.max(...c.subarray(from * RATE, to * RATE).map(Math.abs));
    expect(peak(back.channels[0]!, 0, 1.7)).toBeCloseTo(0.5, 2);
    expect(peak(back.channels[1]!, 3.3, 6)).toBeCloseTo(0.8, 2);
    expect(frequencyBetween(back.channels[0]!, RATE, 0, 1.7)).toBeCloseTo(440, -1);
  });

  it('clamps a span at the clip edges, merges overlapping ones and ignores those outside', () => {
    const clip = makeClip(tone(), {
      range: { startSeconds: 2, endSeconds: 8 },
      maskSpans: [
        { startSeconds: 1, endSeconds: 2.1 },
        { startSeconds: 5, endSeconds: 5.5 },
        { startSeconds: 5.6, endSeconds: 6 },
        { startSeconds: 7.9, endSeconds: 9 },
        { startSeconds: 0, endSeconds: 1 },
      ],
      marginSeconds: 0.25,
    });
    expect(clip.maskedSpans.map((s) => [s.startSeconds, s.endSeconds].map((x) => Number(x.toFixed(6))))).toEqual([
      [0, 0.35],
      [2.75, 4.25],
      [5.65, 6],
    ]);
  });

  it('covers the span with a 1 kHz bleep when asked, keeping the tone elsewhere', async () => {
    const clip = makeClip(tone(), {
      range: { startSeconds: 0, endSeconds: 4 },
      maskSpans: [{ startSeconds: 1, endSeconds: 2 }],
      marginSeconds: 0,
      mask: 'bleep',
    });
    const back = await readWav(clip.wav);
    const left = back.channels[0]!;
    expect(silentStretches(left, RATE)).toEqual([]);
    expect(frequencyBetween(left, RATE, 1.01, 1.99)).toBeCloseTo(BLEEP_HZ, -1);
    expect(frequencyBetween(left, RATE, 2.01, 3.99)).toBeCloseTo(440, -1);
  });

  it('clamps the range to the recording and refuses an empty or inverted one in words', () => {
    expect(makeClip(tone(2), { range: { startSeconds: 1, endSeconds: 60 }, maskSpans: [] }).durationSeconds).toBe(1);
    expect(() => makeClip(tone(2), { range: { startSeconds: 5, endSeconds: 6 }, maskSpans: [] })).toThrow(
      /inside the recording/,
    );
    expect(() => makeClip(tone(2), { range: { startSeconds: 1.5, endSeconds: 1 }, maskSpans: [] })).toThrow(RangeError);
    expect(() =>
      makeClip({ channelData: [], sampleRate: RATE }, { range: { startSeconds: 0, endSeconds: 1 }, maskSpans: [] }),
    ).toThrow(/no audio/);
  });

  it('writes a WAV that sox reads with the same length and channels', (ctx) => {
    if (!hasCommand('sox')) {
      ctx.skip('sox is not installed (apt-get install sox): the WAV is still checked by the app decoder above');
      return;
    }
    const path = join(tempDir(), 'clip.wav');
    writeFileSync(path, makeClip(tone(), { range: { startSeconds: 1, endSeconds: 3.5 }, maskSpans: [] }).wav);
    expect(soxInfo(path)).toEqual({ seconds: 2.5, channels: 2 });
  });

  it('clamps samples beyond full scale instead of wrapping them', async () => {
    const wav = encodeWav16([Float32Array.from([1.5, -1.5, 0.5])], RATE);
    const back = await readWav(wav);
    expect([...back.channels[0]!].map((x) => Number(x.toFixed(3)))).toEqual([1, -1, 0.5]);
  });

  it('widens spans given the wrong way round, and drops those not finite', () => {
    expect(
      widenSpans(
        [
          { startSeconds: 3, endSeconds: 2 },
          { startSeconds: Number.NaN, endSeconds: 1 },
        ],
        0.5,
        10,
      ),
    ).toEqual([{ startSeconds: 1.5, endSeconds: 3.5 }]);
  });
});

describe('audio spans of entries holding PII', () => {
  const log = [
    { index: 0, role: 'agent', message: 'Can I have the card number?', offsetSeconds: 10 },
    { index: 1, role: 'user', message: 'four four seven nine one two three four', offsetSeconds: 12.5 },
    { index: 2, role: 'agent', message: 'Thanks.', offsetSeconds: 20 },
    { index: 3, role: 'user', message: 'my email is jane@example.com', offsetSeconds: null },
    { index: 4, role: 'user', message: 'and my phone is 415-555-0123', offsetSeconds: 25 },
  ];

  it("masks each such entry's whole turn, to the next timed entry or the recording's end, and lists untimed ones", () => {
    expect(piiAudioSpans(log, DEFAULT_REDACTION_SETTINGS, 30, 28)).toEqual({
      spans: [
        { entryIndex: 1, startSeconds: 12.5, endSeconds: 20 },
        { entryIndex: 4, startSeconds: 25, endSeconds: 30 },
      ],
      untimed: [3],
    });
    expect(piiAudioSpans(log, DEFAULT_REDACTION_SETTINGS, null, 28).spans.at(-1)?.endSeconds).toBe(28);
  });

  it('follows the redaction settings', () => {
    const noSpoken = { ...DEFAULT_REDACTION_SETTINGS, spokenDigits: false, phone: false };
    expect(piiAudioSpans(log, noSpoken, 30, 30).spans).toEqual([]);
  });
});
