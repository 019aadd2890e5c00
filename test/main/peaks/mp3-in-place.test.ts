/**
 * MP3 decoding for peaks reads mpg123's output buffer in place instead of through the package's
 * copying `decode`: the peaks, duration and the mono/stereo verdict must be exactly those the
 * package's own `decode` gives, for a clean file and for one with damage in the middle.
 */
import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createMp3Decoder } from '../../../electron/main/peaks/mp3-decoder';
import type { PcmChunk } from '../../../electron/main/peaks/pcm';
import { PeakAccumulator } from '../../../electron/shared/peaks-reducer';
import { generateAudioFixtures, type AudioFixture } from '../../fixtures/audio-fixtures';

const fixtures = generateAudioFixtures();
afterAll(() => {
  fs.rmSync(fixtures.dir, { recursive: true, force: true });
});

/** Decodes `bytes` in 16 KiB slices, in place or through the package's `decode`, and reduces them. */
async function peaksOf(bytes: Uint8Array, inPlace: boolean) {
  const decoder = await createMp3Decoder(inPlace);
  const into = decoder.decodeInto?.bind(decoder);
  expect(into !== undefined).toBe(inPlace);
  const reduced: { accumulator: PeakAccumulator | null } = { accumulator: null };
  const add = (pcm: PcmChunk | null) => {
    if (!pcm) return;
    reduced.accumulator ??= new PeakAccumulator(pcm.channelData.length, pcm.sampleRate);
    reduced.accumulator.add(pcm.channelData, pcm.samplesDecoded);
  };
  for (let at = 0; at < bytes.length; at += 16 * 1024) {
    const slice = bytes.subarray(at, at + 16 * 1024);
    if (into) into(slice, add);
    else add(await decoder.decode(slice));
  }
  decoder.free();
  if (!reduced.accumulator) throw new Error('nothing decoded');
  return { peaks: reduced.accumulator.finish(), mono: decoder.channelsIdentical };
}

function mp3(fixture: AudioFixture | null): Uint8Array {
  if (!fixture) throw new Error('No MP3 fixture');
  return fs.readFileSync(fixture.file);
}

const noMp3 = !fixtures.mp3Mono || !fixtures.mp3Stereo;
if (noMp3) console.warn('MP3 peaks read in place: skipped, this sox build cannot write MP3 (see `sox -h`).');

describe.skipIf(noMp3)('MP3 peaks read in place', () => {
  it.each([
    ['mono', fixtures.mp3Mono, true],
    ['stereo', fixtures.mp3Stereo, false],
  ] as const)('gives the same peaks as the package decode for a %s file', async (_, fixture, mono) => {
    const bytes = mp3(fixture);
    const inPlace = await peaksOf(bytes, true);
    const copied = await peaksOf(bytes, false);
    expect(inPlace.peaks).toEqual(copied.peaks);
    expect(inPlace.peaks.durationSeconds).toBeGreaterThan(1);
    expect(inPlace.mono).toBe(mono);
    expect(copied.mono).toBe(mono);
  });

  it('gives the same peaks for a file with garbage in the middle, and ends', async () => {
    const bytes = mp3(fixtures.mp3Mono);
    const damaged = new Uint8Array(bytes);
    const middle = Math.floor(damaged.length / 2);
    for (let i = middle; i < middle + 4096 && i < damaged.length; i++) damaged[i] = (i * 131) & 0xff;
    const inPlace = await peaksOf(damaged, true);
    const copied = await peaksOf(damaged, false);
    expect(inPlace.peaks).toEqual(copied.peaks);
    expect(inPlace.peaks.durationSeconds).toBeGreaterThan(0);
  });
});
