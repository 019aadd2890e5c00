/**
 * The long-call fixture (test/fixtures/long-call.ts) that the end-to-end tests and the benchmark
 * rely on: generated recordings really have the requested length and channels, and the service
 * serves the interaction and the recording (with Range, behind the key, optionally throttled).
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../electron/main/api/client';
import {
  buildTranscript,
  generateRecording,
  recordingDurationSeconds,
  startLongCallServer,
  toLogEntries,
  type LongCallServer,
} from '../fixtures/long-call';

const run = promisify(execFile);

describe('generateRecording', () => {
  it('makes a 40-minute 8 kHz mono MP3 of the requested length (about 9.6 MB) and reuses it', async () => {
    const file = await generateRecording({ seconds: 2400, format: 'mp3' });
    const duration = await recordingDurationSeconds(file);
    // MP3 adds the encoder's padding (a few frames), never less than asked.
    expect(duration).toBeGreaterThanOrEqual(2400);
    expect(duration).toBeLessThan(2400.5);
    const { stdout } = await run('soxi', ['-r', file]);
    expect(Number(stdout.trim())).toBe(8000);
    expect(statSync(file).size).toBeGreaterThan(9_000_000);
    expect(statSync(file).size).toBeLessThan(10_500_000);

    const modified = statSync(file).mtimeMs;
    expect(await generateRecording({ seconds: 2400, format: 'mp3' })).toBe(file);
    expect(statSync(file).mtimeMs).toBe(modified);
  }, 60_000);

  it('is not silent: the recording has speech and pauses', async () => {
    const file = await generateRecording({ seconds: 60, format: 'wav' });
    // Whole-file RMS well above silence, and the quietest 50 ms windows are silence (the pauses).
    const { stderr } = await run('sox', [file, '-n', 'stat']);
    const rms = Number(/RMS\s+amplitude:\s+([\d.]+)/.exec(stderr)?.[1]);
    expect(rms).toBeGreaterThan(0.02);
    const { stdout } = await run('sox', [file, '-t', 'raw', '-e', 'signed-integer', '-b', '16', '-c', '1', '-'], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    const samples = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.byteLength / 2);
    const window = 400; // 50 ms at 8 kHz
    let quietWindows = 0;
    for (let start = 0; start + window <= samples.length; start += window) {
      let peak = 0;
      for (let i = start; i < start + window; i++) peak = Math.max(peak, Math.abs(samples[i]!));
      if (peak < 100) quietWindows++;
    }
    const windows = Math.floor(samples.length / window);
    expect(quietWindows).toBeGreaterThan(windows * 0.1);
    expect(quietWindows).toBeLessThan(windows * 0.7);
  });

  it('makes stereo WAV with the exact length, and G.711 mu-law WAV', async () => {
    const stereo = await generateRecording({ seconds: 90, format: 'wav', channels: 2 });
    expect(await recordingDurationSeconds(stereo)).toBe(90);
    expect((await run('soxi', ['-c', stereo])).stdout.trim()).toBe('2');
    const ulaw = await generateRecording({ seconds: 30, format: 'wav', wavEncoding: 'mu-law' });
    expect(await recordingDurationSeconds(ulaw)).toBe(30);
    expect((await run('soxi', ['-e', ulaw])).stdout).toMatch(/u-law/i);
  });

  it('makes Ogg/Opus of the requested length', async () => {
    const file = await generateRecording({ seconds: 45, format: 'opus' });
    expect(file.endsWith('.ogg')).toBe(true);
    expect(await recordingDurationSeconds(file)).toBeCloseTo(45, 2);
  });
});

describe('buildTranscript', () => {
  it('spreads alternating agent/user entries over the call in increasing order', () => {
    const log = buildTranscript(2400, 5000);
    expect(log).toHaveLength(5000);
    expect(log[0]!.role).toBe('agent');
    expect(log[1]!.role).toBe('user');
    for (let i = 1; i < log.length; i++) expect(log[i]!.timestamp).toBeGreaterThan(log[i - 1]!.timestamp);
    expect(log[0]!.timestamp).toBeGreaterThanOrEqual(0);
    expect(log.at(-1)!.timestamp).toBeLessThan(2400);
    expect(log.at(-1)!.timestamp).toBeGreaterThan(2390);
    expect(new Set(log.map((e) => e.message)).size).toBe(5000);
    expect(toLogEntries(log)[4999]).toEqual({
      index: 4999,
      role: 'user',
      message: log[4999]!.message,
      offsetSeconds: log[4999]!.timestamp,
    });
  });

  it('refuses more entries than the call can hold', () => {
    expect(() => buildTranscript(10, 5000)).toThrow(/do not fit/);
  });
});

describe('startLongCallServer', () => {
  let file: string;
  let server: LongCallServer;
  let throttled: LongCallServer;
  beforeAll(async () => {
    file = await generateRecording({ seconds: 60, format: 'mp3' });
    server = await startLongCallServer({ recordings: [{ seconds: 60, file, entries: 40 }] });
    throttled = await startLongCallServer({
      recordings: [{ seconds: 60, file, entries: 40 }],
      bytesPerSecond: 200_000,
    });
  });
  afterAll(async () => {
    await server.close();
    await throttled.close();
  });

  it('serves the interaction through the real demo service, parsed by the app client', async () => {
    const [call] = server.interactions;
    const client = createApiClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    const interaction = await client.getInteraction(call!.sid);
    expect(interaction.log).toHaveLength(40);
    expect(interaction.log.map((e) => e.offsetSeconds)).toEqual(call!.entries.map((e) => e.timestamp));
    expect(interaction.recordingUrl).toBe(call!.recordingUrl);
    expect(
      await createApiClient({ baseUrl: server.baseUrl, apiKey: 'wrong' })
        .getInteraction(call!.sid)
        .catch((e: unknown) => e),
    ).toMatchObject({ kind: 'unauthorized' });
  });

  it('serves the recording by byte range, only with the key', async () => {
    const [call] = server.interactions;
    const bytes = readFileSync(file);
    const noKey = await fetch(call!.recordingUrl, { headers: { Range: 'bytes=1000-1999' } });
    expect(noKey.status).toBe(401);
    await noKey.body?.cancel();

    const response = await fetch(call!.recordingUrl, {
      headers: { Range: 'bytes=1000-1999', Authorization: `Bearer ${server.apiKey}` },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('etag')).toMatch(/^".+"$/);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);

    const whole = await fetch(call!.recordingUrl, { headers: { Authorization: `Bearer ${server.apiKey}` } });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('paces recording bodies at bytesPerSecond when throttled', async () => {
    const [call] = throttled.interactions;
    const started = performance.now();
    const response = await fetch(call!.recordingUrl, {
      headers: { Range: 'bytes=0-99999', Authorization: `Bearer ${throttled.apiKey}` },
    });
    expect((await response.arrayBuffer()).byteLength).toBe(100_000);
    // 100 kB at 200 kB/s cannot arrive in less than half a second.
    expect(performance.now() - started).toBeGreaterThanOrEqual(490);
  });
});
