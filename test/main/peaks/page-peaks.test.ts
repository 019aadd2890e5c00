/**
 * Peaks the page decoded, kept by main (contract `storePeaks`): for a recording whose format main
 * does not decode (it says so with `detail: 'unsupported_format'`), the page's peaks go into the
 * peaks disk cache under the key of the download main already made, so the call's next view comes
 * from the cache, and the exports end the recording where the page's decoding did (a WebM states
 * no length); peaks main did not ask for, or of the wrong shape, are refused; the method is
 * guarded like every other. Real HTTP on 127.0.0.1, a real temporary folder, main's real stack.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExportsService } from '../../../electron/main/exports/service';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { createMainStack } from '../../../electron/main/main-stack';
import { createPeaksService } from '../../../electron/main/peaks/service';
import { APP_INDEX_URL } from '../../../electron/main/shell/security';
import { ApiError } from '../../../electron/shared/errors';
import type { ComputedPeaks } from '../../../electron/shared/peaks-reducer';
import type { ExportedInteraction } from '../../../electron/shared/transcript-export';
import { generateAudioFixtures, startRecordingHost, type RecordingHost } from '../../fixtures/audio-fixtures';
import { locationAt, testRecordingCache } from '../../fixtures/recording-location';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const SID = 'interaction_5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716';
const fixtures = generateAudioFixtures();
const wav = fs.readFileSync(fixtures.wavPcm16Stereo.file);
/** The start of a WebM file (EBML header magic) and more bytes: a container main does not read. */
const webm = (() => {
  const bytes = new Uint8Array(4096).fill(0x42);
  bytes.set([0x1a, 0x45, 0xdf, 0xa3]);
  return bytes;
})();

let host: RecordingHost;

beforeAll(async () => {
  host = await startRecordingHost();
});
afterEach(() => {
  host.requests.length = 0;
  host.files.clear();
});
afterAll(async () => {
  await host.close();
  fs.rmSync(fixtures.dir, { recursive: true, force: true });
});

/** A peaks service where interaction `sid`'s recording is at `host` path `/r/<sid>`. */
function service(cacheDir: string | null) {
  return createPeaksService({
    recordings: testRecordingCache(),
    locate: (sid) =>
      Promise.resolve(
        locationAt({ recordingUrl: `${host.origin}/r/${sid}`, baseUrl: `${host.origin}/v1`, apiKey: 'k' }),
      ),
    cacheDir,
  });
}

/** Stereo peaks of a 42.25-second call, as the page's decoder gives them. */
function pagePeaks(length = 4): ComputedPeaks {
  const wave = Array.from({ length }, (_, i) => (i % 4) / 4);
  // As the reducer writes them: no -0 (JSON, hence the cache, keeps none).
  const below = (scale: number) => wave.map((v) => (v === 0 ? 0 : -v * scale));
  return {
    durationSeconds: 42.25,
    sampleRate: 48_000,
    length,
    channels: [
      { min: below(1), max: wave },
      { min: below(0.5), max: wave.map((v) => v / 2) },
    ],
  };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the page's peaks of a recording main does not decode", () => {
  it('tells a format main does not read apart from a broken file by a typed detail', async () => {
    host.files.set(`/r/${SID}`, { bytes: webm });
    const refused = await failure(service(null).get(SID));
    expect(refused.kind).toBe('invalid_response');
    expect(refused.detail).toBe('unsupported_format');
    expect(refused.message).toContain('WebM');

    host.files.set(`/r/${SID}`, { bytes: new TextEncoder().encode('not audio at all '.repeat(64)) });
    const broken = await failure(service(null).get(SID));
    expect(broken.kind).toBe('invalid_response');
    expect(broken.detail).toBeUndefined();
  });

  it('keeps them in the disk cache, so the next view comes from it, without downloading again', async () => {
    const dir = temporaryFolder('vr-peaks-cache-');
    host.files.set(`/r/${SID}`, { bytes: webm });
    const peaks = service(dir);

    expect((await failure(peaks.get(SID))).detail).toBe('unsupported_format');
    await peaks.store(SID, pagePeaks());

    const again = await peaks.get(SID);
    expect(again).toEqual({ ...pagePeaks(), fromCache: true });
    // One download for the refusal, the page's hand-over and the second view (the player's too, in the app).
    expect(host.count('GET', `/r/${SID}`)).toBe(1);
    // After a restart the cache still has them.
    expect(await service(dir).get(SID)).toEqual({ ...pagePeaks(), fromCache: true });
  });

  it('refuses peaks main did not leave to the page: not asked for, decoded by main, or handed over twice', async () => {
    const dir = temporaryFolder('vr-peaks-cache-');
    host.files.set(`/r/${SID}`, { bytes: webm });
    const peaks = service(dir);
    expect((await failure(peaks.store(SID, pagePeaks()))).kind).toBe('bad_input');

    await failure(peaks.get(SID));
    await peaks.store(SID, pagePeaks());
    expect((await failure(peaks.store(SID, pagePeaks()))).kind).toBe('bad_input');

    host.files.set(`/r/${SID}`, { bytes: wav });
    const decodedByMain = service(temporaryFolder('vr-peaks-cache-'));
    const own = await decodedByMain.get(SID);
    expect((await failure(decodedByMain.store(SID, pagePeaks()))).kind).toBe('bad_input');
    // Main's own peaks stay what a view gets.
    expect({ ...(await decodedByMain.get(SID)), fromCache: false }).toEqual(own);
  });
});

describe('the exports of a call the page decoded', () => {
  /** The call of {@link SID}: two timed turns, and a call length (60 s) that is not the recording's. */
  const interaction: ExportedInteraction = {
    sid: SID,
    fromNumber: null,
    toNumber: null,
    direction: 'inbound',
    type: 'phone_call',
    status: 'completed',
    agentSid: null,
    startedAtMs: Date.UTC(2026, 0, 5, 9, 30),
    endedAtMs: Date.UTC(2026, 0, 5, 9, 31),
    durationSeconds: 60,
    variables: {},
    log: [
      { index: 0, role: 'agent', message: 'Hello, how can I help?', offsetSeconds: 1 },
      { index: 1, role: 'user', message: 'My order is late.', offsetSeconds: 30 },
    ],
  };

  /** The SubRip export of the call, through the exports over `peaks`. */
  async function exportedSubtitles(peaks: ReturnType<typeof service>): Promise<string> {
    const folder = temporaryFolder('vr-export-');
    const exports = createExportsService({
      lookUpInteraction: () => Promise.resolve(interaction),
      workspaceName: () => 'Recorded calls',
      locateRecording: () => Promise.reject(new Error('Not asked for a transcript')),
      decodedDurationSeconds: (sid) => peaks.decodedDurationSeconds(sid),
      recordings: testRecordingCache(),
      choosePath: (request) => Promise.resolve(join(folder, request.defaultName)),
    });
    const { saved } = await exports.exportTranscript(SID, 'srt');
    return fs.readFileSync(join(folder, saved ?? ''), 'utf8');
  }

  it('end the last subtitle where the decoded WebM ends, not at the call’s length', async () => {
    host.files.set(`/r/${SID}`, { bytes: webm });
    // No disk cache: the page's peaks are still what main knows of the recording in this run.
    const peaks = service(null);
    expect((await failure(peaks.get(SID))).detail).toBe('unsupported_format');
    expect(peaks.decodedDurationSeconds(SID)).toBeNull();
    // Before the page's peaks, the call's length is all there is.
    expect(await exportedSubtitles(peaks)).toContain('00:00:30,000 --> 00:01:00,000');

    await peaks.store(SID, pagePeaks());

    expect(peaks.decodedDurationSeconds(SID)).toBe(42.25);
    expect(await exportedSubtitles(peaks)).toContain('00:00:30,000 --> 00:00:42,250');
  });
});

describe('storePeaks over IPC', () => {
  const stack = createMainStack({
    userDataDir: temporaryFolder('vr-store-peaks-'),
    secrets: createMemoryStore(),
    resourcesDir: '/nonexistent-resources',
    recordingOrigin: 'vr-recording://local',
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    peaksCacheDir: null,
  });
  afterAll(() => stack.close());

  const call = (...args: unknown[]) => stack.invoke('storePeaks', APP_INDEX_URL, args);
  const SHAPE = "The page's waveform is not in the shape Voice Review keeps, so it was not stored.";

  it('refuses peaks of the wrong shape or past the caps, in one sentence', async () => {
    const valid = pagePeaks();
    const wrong: unknown[] = [
      null,
      'peaks',
      { ...valid, durationSeconds: Number.NaN },
      { ...valid, durationSeconds: 0 },
      { ...valid, durationSeconds: 6 * 3600 + 1 },
      { ...valid, sampleRate: 400_000 },
      { ...valid, length: 3 },
      { ...valid, length: 4.5 },
      { ...valid, channels: [] },
      { ...valid, channels: Array.from({ length: 9 }, () => valid.channels[0]) },
      { ...valid, channels: [{ min: [-2, 0, 0, 0], max: [0, 0, 0, 0] }] },
      { ...valid, channels: [{ min: [0, 0, 0, 0], max: ['0', 0, 0, 0] }] },
      { ...valid, channels: [{ min: [0, 0, 0, 0], max: [0, 0, 0, 0], extra: [] }] },
      { ...valid, fromCache: false },
      // More peaks than main makes for 42 s (8,000), as if a page sent a whole file's worth.
      pagePeaks(8_001),
    ];
    for (const peaks of wrong) {
      expect(await call(SID, peaks), JSON.stringify(peaks).slice(0, 120)).toEqual({
        ok: false,
        error: { kind: 'bad_input', message: SHAPE },
      });
    }
    expect(await call('not-a-sid', valid)).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    expect(await call(SID)).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
  });

  it('hands peaks of the right shape to the peaks service (here: no workspace, so no recording)', async () => {
    const result = await call(SID, pagePeaks(8_000));
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'not_found', message: 'This interaction has no recording.' },
    });
  });

  it('refuses a sender outside the app, like every method', async () => {
    const result = await stack.invoke('storePeaks', 'https://evil.example/page.html', [SID, pagePeaks()]);
    expect(result).toEqual({
      ok: false,
      error: { kind: 'bad_input', message: 'Refused: the request did not come from Voice Review.' },
    });
  });
});
