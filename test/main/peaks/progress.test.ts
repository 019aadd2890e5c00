/**
 * Peaks arrive progressively: snapshots of the accumulator cover more and more of the recording
 * and never disturb the final result, the last audio decoded before the bytes stop coming is
 * reported too, and the peaks service shows them while a download runs (a loopback server sends
 * the first half of a WAV file and holds the rest until the test lets it go).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeToPeaks } from '../../../electron/main/peaks/decode';
import { PeakAccumulator, type ComputedPeaks } from '../../../electron/shared/peaks-reducer';
import { createPeaksService } from '../../../electron/main/peaks/service';
import { locationAt } from '../../fixtures/recording-location';
import { testRecordingCache } from '../../fixtures/recording-location';

const SID = 'interaction_0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SAMPLE_RATE = 8000;
const SECONDS = 40;

/** A mono 16-bit WAV of `seconds` at 8 kHz: a tone whose loudness rises with time (so each part differs). */
function risingToneWav(seconds: number): Uint8Array {
  const samples = seconds * SAMPLE_RATE;
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) {
    const loudness = 0.05 + (0.9 * i) / samples;
    view.setInt16(44 + i * 2, Math.round(Math.sin(i / 3) * loudness * 32767), true);
  }
  return bytes;
}

const wav = risingToneWav(SECONDS);

/** The bytes of `data` in chunks of `size`. */
async function* chunked(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += size) {
    await Promise.resolve();
    yield data.subarray(at, at + size);
  }
}

describe('progress snapshots', () => {
  it('cover more and more of the recording, and the final peaks equal a decode without them', async () => {
    const snapshots: ComputedPeaks[] = [];
    const progressive = await decodeToPeaks(chunked(wav, 8 * 1024), {
      onProgress: (peaks) => snapshots.push(peaks),
      progressEveryMs: 0,
    });
    const plain = await decodeToPeaks(chunked(wav, 64 * 1024));
    expect(progressive).toEqual(plain);
    expect(snapshots.length).toBeGreaterThan(10);
    const covered = snapshots.map((s) => s.durationSeconds);
    for (let i = 1; i < covered.length; i++) expect(covered[i]).toBeGreaterThanOrEqual(covered[i - 1]!);
    expect(covered[0]).toBeGreaterThan(0);
    expect(covered.at(-1)).toBeLessThanOrEqual(SECONDS);
    expect(covered.some((c) => c < SECONDS / 2)).toBe(true);
    // A snapshot draws the part it covers as the final peaks do (the same loudness at the same time).
    const half = snapshots.find((s) => s.durationSeconds >= SECONDS / 2)!;
    const finalMaxAt = (seconds: number) => plain.channels[0]!.max[Math.floor((seconds / SECONDS) * plain.length)]!;
    const halfMaxAt = (seconds: number) =>
      half.channels[0]!.max[Math.floor((seconds / half.durationSeconds) * half.length)]!;
    expect(Math.abs(halfMaxAt(10) - finalMaxAt(10))).toBeLessThan(0.01);
  });

  it('a snapshot leaves the open bucket open: finish gives what it gives without snapshots', () => {
    const withSnapshots = new PeakAccumulator(1, 8000);
    const without = new PeakAccumulator(1, 8000);
    const chunk = Float32Array.from({ length: 333 }, (_, i) => Math.sin(i) * 0.5);
    for (let i = 0; i < 100; i++) {
      withSnapshots.add([chunk], chunk.length);
      without.add([chunk], chunk.length);
      const snapshot = withSnapshots.snapshot();
      expect(snapshot.durationSeconds).toBeLessThanOrEqual(withSnapshots.samples / 8000);
      expect(snapshot.durationSeconds).toBeGreaterThan(withSnapshots.samples / 8000 - 0.011);
    }
    expect(withSnapshots.finish()).toEqual(without.finish());
  });

  it('are at most one per interval of wall time', async () => {
    let count = 0;
    await decodeToPeaks(chunked(wav, 8 * 1024), { onProgress: () => (count += 1), progressEveryMs: 60_000 });
    expect(count).toBe(1);
  });

  it('report all the audio that arrived once the interval is over, when the bytes stop coming', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const half = 44 + (wav.length - 44) / 2;
      let held: () => void = () => undefined;
      const reachedHold = new Promise<void>((resolve) => (held = resolve));
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      // The first half in small chunks, then nothing until the test lets the rest go (a held download).
      async function* heldHalfWay(): AsyncGenerator<Uint8Array> {
        yield* chunked(wav.subarray(0, half), 8 * 1024);
        held();
        await released;
        yield* chunked(wav.subarray(half), 8 * 1024);
      }
      const covered: number[] = [];
      const result = decodeToPeaks(heldHalfWay(), {
        onProgress: (peaks) => covered.push(peaks.durationSeconds),
        progressEveryMs: 250,
      });
      // The next chunk is asked for once the last one is decoded: the first half is decoded now,
      // within one interval (the clock stands still), so only the first snapshot has been given.
      await reachedHold;
      expect(covered).toHaveLength(1);
      expect(covered[0]).toBeLessThan(SECONDS / 4);

      await vi.advanceTimersByTimeAsync(250);
      expect(covered).toHaveLength(2);
      expect(covered[1]).toBeCloseTo(SECONDS / 2, 1);
      // Nothing new decoded: no more snapshots while the bytes are held.
      await vi.advanceTimersByTimeAsync(1000);
      expect(covered).toHaveLength(2);

      release();
      const peaks = await result;
      expect(peaks.durationSeconds).toBe(SECONDS);
      // None after the final peaks.
      const given = covered.length;
      await vi.advanceTimersByTimeAsync(1000);
      expect(covered).toHaveLength(given);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the peaks service during a download', () => {
  let server: http.Server;
  let origin: string;
  /** Lets the server send the second half of the file. */
  let releaseSecondHalf: () => void = () => undefined;

  beforeAll(async () => {
    // Sends the first half of the file at once and the rest only once the test releases it.
    server = http.createServer((req, res) => {
      if (req.url === '/gone.wav') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': String(wav.length) });
      const half = Math.floor(wav.length / 2);
      res.write(wav.subarray(0, half));
      const gate = new Promise<void>((resolve) => (releaseSecondHalf = resolve));
      void gate.then(() => res.end(wav.subarray(half)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('shows the peaks so far while the download runs, then the final ones, complete', async () => {
    const location = locationAt({ recordingUrl: `${origin}/rec.wav`, baseUrl: `${origin}/v1`, apiKey: 'sk_test_x' });
    const service = createPeaksService({
      recordings: testRecordingCache(),
      locate: (sid) => Promise.resolve(sid === SID ? location : null),
      cacheDir: null,
    });
    expect(service.progress(SID)).toBeNull();
    const result = service.get(SID);
    // While the second half is held back, the peaks so far cover the first half that arrived
    // (within a progress interval of it being decoded), and no more.
    const partial = await vi.waitFor(
      () => {
        const progress = service.progress(SID);
        expect(progress?.coveredSeconds).toBeCloseTo(SECONDS / 2, 1);
        return progress!;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(partial.complete).toBe(false);
    expect(partial.coveredSeconds).toBeLessThanOrEqual(SECONDS / 2);
    expect(partial.peaks.durationSeconds).toBe(partial.coveredSeconds);
    releaseSecondHalf();
    const peaks = await result;
    expect(service.progress(SID)).toEqual({ peaks, coveredSeconds: peaks.durationSeconds, complete: true });
    expect(peaks.durationSeconds).toBe(SECONDS);
  });

  it('shows nothing for a computation that failed', async () => {
    const location = locationAt({ recordingUrl: `${origin}/gone.wav`, baseUrl: `${origin}/v1`, apiKey: 'sk_test_x' });
    const service = createPeaksService({
      recordings: testRecordingCache(),
      locate: () => Promise.resolve(location),
      cacheDir: null,
    });
    await expect(service.get(SID)).rejects.toMatchObject({ kind: 'not_found' });
    expect(service.progress(SID)).toBeNull();
  });
});
