/**
 * The built peaks worker (out/main/peaks-worker.js, from electron/main/peaks/worker.ts), as
 * Electron's main runs it: the waveform a user sees must be the same whether the recording is
 * decoded in the worker or in-process, failures must arrive as the same typed errors, and a
 * failed download must not be mistaken for an undecodable recording.
 */
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeToPeaks } from '../../electron/main/peaks/decode';
import { createWorkerDecoder, type PeaksDecoder } from '../../electron/main/peaks/worker-decoder';
import { ApiError } from '../../electron/shared/errors';
import { generateAudioFixtures, type AudioFixtures } from '../fixtures/audio-fixtures';
import { ensureBuilt } from './build';
import { PEAKS_WORKER } from './harness';

let fixtures: AudioFixtures;
let inWorker: PeaksDecoder;

/** The file (or bytes) as a stream of 4 KiB chunks, as a download would deliver it. */
async function* chunksOf(source: string | Uint8Array, failAfterBytes?: number): AsyncGenerator<Uint8Array> {
  const bytes = typeof source === 'string' ? await readFile(source) : source;
  for (let at = 0; at < bytes.length; at += 4096) {
    if (failAfterBytes !== undefined && at >= failAfterBytes) {
      throw new ApiError({ kind: 'network', message: 'The recording server could not be reached.' });
    }
    yield new Uint8Array(bytes.subarray(at, at + 4096));
  }
}

beforeAll(() => {
  ensureBuilt();
  fixtures = generateAudioFixtures();
  inWorker = createWorkerDecoder(PEAKS_WORKER, { maxBytesInFlight: 4 * 4096 });
  const dir = fixtures.dir;
  return () => rmSync(dir, { recursive: true, force: true });
}, 180_000);

describe('peaks decoded in the worker thread', () => {
  it('draws the same mono and stereo waveforms as in-process decoding', async () => {
    const files = [
      fixtures.wavPcm16Stereo,
      fixtures.wavMuLaw,
      fixtures.flacStereo,
      fixtures.mp3Mono,
      fixtures.oggOpusMono,
    ].filter((f) => f !== null);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const fixture of files) {
      const [worker, local] = await Promise.all([
        inWorker(chunksOf(fixture.file)),
        decodeToPeaks(chunksOf(fixture.file)),
      ]);
      expect(worker.channels).toHaveLength(fixture.channels);
      expect(worker).toEqual(local);
      expect(Math.abs(worker.durationSeconds - fixture.seconds)).toBeLessThan(0.05);
    }
  });

  it('reports bytes that are not audio as undecodable, with the message the player shows', async () => {
    const notAudio = new TextEncoder().encode('<html><body>Sign in</body></html>'.repeat(100));
    const failure = inWorker(chunksOf(notAudio));
    await expect(failure).rejects.toMatchObject({ kind: 'invalid_response' });
    await expect(failure).rejects.toThrow(/could not be decoded/);
  });

  it('refuses a WAV header with 65,535 channels in words from the built worker (with its heap limits)', async () => {
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'ascii');
    header.write('WAVEfmt ', 8, 'ascii');
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20); // PCM
    header.writeUInt16LE(65_535, 22); // channels
    header.writeUInt32LE(8000, 24); // sample rate
    header.writeUInt16LE(16, 34); // bits per sample
    header.write('data', 36, 'ascii');
    header.writeUInt32LE(0xffffffff, 40);
    const failure = inWorker(chunksOf(new Uint8Array([...header, ...new Uint8Array(8192)])));
    await expect(failure).rejects.toMatchObject({ kind: 'invalid_response' });
    await expect(failure).rejects.toThrow(/65535 audio channels \(at most 8 are drawn\)/);
  });

  it('passes a failed download through as that failure, not as an undecodable recording', async () => {
    await expect(inWorker(chunksOf(fixtures.wavPcm16Stereo.file, 8192))).rejects.toMatchObject({ kind: 'network' });
  });

  it('keeps one warm worker: recording after recording, and after a failure, each waveform is right', async () => {
    const decoder = createWorkerDecoder(PEAKS_WORKER);
    try {
      const stereo = fixtures.wavPcm16Stereo;
      const expected = await decodeToPeaks(chunksOf(stereo.file));
      expect(await decoder(chunksOf(stereo.file))).toEqual(expected);
      // The same worker again: nothing of the first recording may leak into the second.
      expect(await decoder(chunksOf(stereo.file))).toEqual(expected);
      await expect(decoder(chunksOf(stereo.file, 8192))).rejects.toMatchObject({ kind: 'network' });
      await expect(decoder(chunksOf(new TextEncoder().encode('not audio'.repeat(200))))).rejects.toMatchObject({
        kind: 'invalid_response',
      });
      // Two at once: the second gets a worker of its own.
      const both = await Promise.all([decoder(chunksOf(stereo.file)), decoder(chunksOf(fixtures.wavMuLaw.file))]);
      expect(both[0]).toEqual(expected);
      expect(both[1]).toEqual(await decodeToPeaks(chunksOf(fixtures.wavMuLaw.file)));
    } finally {
      await decoder.close();
    }
  });
});
