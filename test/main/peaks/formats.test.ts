/**
 * Peaks computed in main: every format a call recording comes in is decoded in main and drawn
 * where the sound is. Fixtures are generated with sox/opusenc and served over loopback HTTP.
 */
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../electron/main/api/client';
import { decodeToPeaks } from '../../../electron/main/peaks/decode';
import { createPeaksService, type PeaksService } from '../../../electron/main/peaks/service';
import { recordingLocation } from '../../../electron/main/recordings/recording-location';
import { ApiError } from '../../../electron/shared/errors';
import {
  generateAudioFixtures,
  loudestBetween,
  startRecordingHost,
  STEREO_LEFT_AMPLITUDE,
  STEREO_RIGHT_AMPLITUDE,
  TONE_AMPLITUDE,
  type AudioFixture,
  type RecordingHost,
} from '../../fixtures/audio-fixtures';
import { testRecordingCache } from '../../fixtures/recording-location';

const SID = 'interaction_6f1d8a2e-3b4c-4d5e-8f60-718293a4b5c6';
const fixtures = generateAudioFixtures();

let host: RecordingHost;
let service: PeaksService;
let servedPath = '/recordings/current';

beforeAll(async () => {
  host = await startRecordingHost();
  service = createPeaksService({
    recordings: testRecordingCache(),
    locate: () =>
      Promise.resolve(
        recordingLocation(
          createApiClient({ baseUrl: `${host.origin}/v1`, apiKey: 'k' }),
          `${host.origin}${servedPath}`,
          'w',
        ),
      ),
    cacheDir: null,
  });
});

afterAll(async () => {
  await host.close();
  fs.rmSync(fixtures.dir, { recursive: true, force: true });
});

/** Serves `bytes` at a fresh path and returns the peaks the service computes for it. */
async function peaksOf(bytes: Uint8Array) {
  servedPath = `/recordings/${host.files.size}`;
  host.files.set(servedPath, { bytes });
  return service.get(SID);
}

async function peaksOfFile(fixture: AudioFixture) {
  return peaksOf(fs.readFileSync(fixture.file));
}

/** Silence reads as (nearly) flat; lossy codecs leave a little noise. */
const SILENCE = 0.03;

interface MonoCase {
  name: string;
  fixture: AudioFixture | null;
  /** How far the loud section's peak may be from the tone's amplitude. */
  tolerance: number;
  /** Why the fixture could not be made here. */
  missing?: string;
}

const monoCases: MonoCase[] = [
  { name: 'WAV PCM 16-bit', fixture: fixtures.wavPcm16Mono, tolerance: 0.001 },
  { name: 'WAV mu-law', fixture: fixtures.wavMuLaw, tolerance: 0.02 },
  { name: 'WAV A-law', fixture: fixtures.wavALaw, tolerance: 0.02 },
  { name: 'WAV PCM 24-bit 16 kHz', fixture: fixtures.wavPcm24Mono, tolerance: 0.001 },
  { name: 'WAV 32-bit float', fixture: fixtures.wavFloat32Mono, tolerance: 0.001 },
  { name: 'WAV PCM 8-bit', fixture: fixtures.wavPcm8Mono, tolerance: 0.01 },
  { name: 'AIFF PCM 24-bit', fixture: fixtures.aiffPcm24Mono, tolerance: 0.001 },
  { name: 'AIFF-C 32-bit float', fixture: fixtures.aifcFloat32Mono, tolerance: 0.001 },
  { name: 'Ogg/Vorbis', fixture: fixtures.oggVorbisMono, tolerance: 0.1 },
  { name: 'MP3', fixture: fixtures.mp3Mono, tolerance: 0.1, missing: 'this sox build cannot write MP3 (see `sox -h`)' },
  { name: 'Ogg/Opus', fixture: fixtures.oggOpusMono, tolerance: 0.1, missing: 'opusenc is not installed' },
];

describe('a mono call (1 s silence, 1 s tone, 1 s silence)', () => {
  for (const c of monoCases) {
    if (!c.fixture) {
      it.skip(`${c.name}: skipped because ${c.missing}`, () => undefined);
      console.warn(`peaks-formats: ${c.name} skipped because ${c.missing}`);
      continue;
    }
    const fixture = c.fixture;
    it(`${c.name}: exact duration, one lane, the tone drawn where it sounds`, async () => {
      const peaks = await peaksOfFile(fixture);
      expect(Math.abs(peaks.durationSeconds - fixture.seconds)).toBeLessThan(0.01);
      expect(peaks.channels).toHaveLength(1);
      expect(peaks.fromCache).toBe(false);
      const [lane] = peaks.channels;
      expect(lane!.min).toHaveLength(peaks.length);
      expect(lane!.max).toHaveLength(peaks.length);
      // MP3 starts late by the encoder delay (about 0.14 s at 8 kHz): the windows keep clear of the edges.
      expect(loudestBetween(lane!, peaks.durationSeconds, 1.35, 1.75)).toBeGreaterThan(TONE_AMPLITUDE - c.tolerance);
      expect(loudestBetween(lane!, peaks.durationSeconds, 1.35, 1.75)).toBeLessThan(TONE_AMPLITUDE + c.tolerance);
      expect(loudestBetween(lane!, peaks.durationSeconds, 0.1, 0.8)).toBeLessThan(SILENCE);
      expect(loudestBetween(lane!, peaks.durationSeconds, 2.45, 2.9)).toBeLessThan(SILENCE);
      // A tone swings both ways: the lane is drawn above and below the centre line.
      const middle = Math.floor(peaks.length / 2);
      expect(lane!.min[middle]).toBeLessThan(-0.5);
      expect(lane!.max[middle]).toBeGreaterThan(0.5);
    });
  }

  it('reports the sample rate of the decoded audio (Opus decodes at 48 kHz)', async () => {
    expect((await peaksOfFile(fixtures.wavPcm24Mono)).sampleRate).toBe(16_000);
    expect((await peaksOfFile(fixtures.wavPcm16Mono)).sampleRate).toBe(8_000);
    if (fixtures.oggOpusMono) expect((await peaksOfFile(fixtures.oggOpusMono)).sampleRate).toBe(48_000);
  });

  it('gives the same peaks whatever the chunk boundaries (headers and sample frames split across chunks)', async () => {
    for (const fixture of [
      fixtures.wavPcm24Mono,
      fixtures.wavPcm16Stereo,
      fixtures.wavALaw,
      fixtures.aiffPcm16Stereo,
      fixtures.aifcFloat32Mono,
    ]) {
      const bytes = new Uint8Array(fs.readFileSync(fixture.file));
      const pieces = async function* (size: number) {
        for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
        await Promise.resolve();
      };
      const whole = await decodeToPeaks(pieces(bytes.length), { pause: () => Promise.resolve() });
      const split = await decodeToPeaks(pieces(7), { pause: () => Promise.resolve() });
      expect(split).toEqual(whole);
      expect(whole.durationSeconds).toBeGreaterThan(0);
    }
  });

  it('rounds amplitudes to 4 decimals (small answers over IPC and on disk)', async () => {
    const peaks = await peaksOfFile(fixtures.oggVorbisMono);
    const all = peaks.channels.flatMap((c) => [...c.min, ...c.max]);
    expect(all.every((v) => Math.round(v * 10_000) / 10_000 === v)).toBe(true);
  });
});

const stereoCases: MonoCase[] = [
  { name: 'WAV PCM 16-bit stereo', fixture: fixtures.wavPcm16Stereo, tolerance: 0.001 },
  { name: 'FLAC stereo', fixture: fixtures.flacStereo, tolerance: 0.001 },
  { name: 'AIFF PCM 16-bit stereo', fixture: fixtures.aiffPcm16Stereo, tolerance: 0.001 },
  {
    name: 'MP3 stereo',
    fixture: fixtures.mp3Stereo,
    tolerance: 0.1,
    missing: 'this sox build cannot write MP3 (see `sox -h`)',
  },
  { name: 'Ogg/Opus stereo', fixture: fixtures.oggOpusStereo, tolerance: 0.1, missing: 'opusenc is not installed' },
];

describe('a dual-channel call (caller and agent lanes)', () => {
  for (const c of stereoCases) {
    if (!c.fixture) {
      it.skip(`${c.name}: skipped because ${c.missing}`, () => undefined);
      console.warn(`peaks-formats: ${c.name} skipped because ${c.missing}`);
      continue;
    }
    const fixture = c.fixture;
    it(`${c.name}: two lanes that differ where the audio differs`, async () => {
      const peaks = await peaksOfFile(fixture);
      expect(Math.abs(peaks.durationSeconds - fixture.seconds)).toBeLessThan(0.01);
      expect(peaks.channels).toHaveLength(2);
      const [left, right] = peaks.channels as [{ min: number[]; max: number[] }, { min: number[]; max: number[] }];
      const d = peaks.durationSeconds;
      // First half: left silent, right loud. Second half: the other way round.
      expect(loudestBetween(left, d, 0.2, 1.7)).toBeLessThan(SILENCE);
      expect(Math.abs(loudestBetween(right, d, 0.2, 1.7) - STEREO_RIGHT_AMPLITUDE)).toBeLessThan(c.tolerance);
      expect(Math.abs(loudestBetween(left, d, 2.3, 3.7) - STEREO_LEFT_AMPLITUDE)).toBeLessThan(c.tolerance);
      expect(loudestBetween(right, d, 2.3, 3.7)).toBeLessThan(SILENCE);
    });
  }
});

describe('audio that cannot be drawn', () => {
  async function failureOf(bytes: Uint8Array): Promise<ApiError> {
    const error = await peaksOf(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  it('garbage bytes are an invalid_response saying the recording may still play', async () => {
    const error = await failureOf(new TextEncoder().encode('<html><body>Not a recording</body></html>'.repeat(40)));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/could not be decoded for the waveform; it may still play/);
  });

  it('a container Chromium plays but no decoder here reads (WebM) is named in the message', async () => {
    const webm = new Uint8Array(256);
    webm.set([0x1a, 0x45, 0xdf, 0xa3]);
    const error = await failureOf(webm);
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toContain('WebM');
  });

  it('a WAV cut off inside its header, or with a codec it does not decode (IMA ADPCM), is an invalid_response', async () => {
    const wav = fs.readFileSync(fixtures.wavPcm16Mono.file);
    expect((await failureOf(wav.subarray(0, 30))).kind).toBe('invalid_response');
    const adpcm = Buffer.from(wav);
    adpcm.writeUInt16LE(0x11, 20); // wFormatTag of the fmt chunk
    expect((await failureOf(adpcm)).kind).toBe('invalid_response');
  });

  it('an empty file, and an MP3 that is only its ID3 tag, are invalid_response, not a crash', async () => {
    expect((await failureOf(new Uint8Array(0))).kind).toBe('invalid_response');
    const tagOnly = new Uint8Array(10 + 100);
    tagOnly.set([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 100]); // "ID3" v2.3, 100-byte tag, then no audio
    expect((await failureOf(tagOnly)).kind).toBe('invalid_response');
  });
});
