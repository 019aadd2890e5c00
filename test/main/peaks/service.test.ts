/**
 * How the peaks service fetches recordings. Same rules as the
 * recording protocol (key only to the workspace's origin, redirects followed without it, http/https
 * only), typed errors a support person can act on, and one download for concurrent requests.
 * Real HTTP on 127.0.0.1.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPeaksService, type PeaksServiceOptions } from '../../../electron/main/peaks/service';
import { ApiError } from '../../../electron/shared/errors';
import { generateAudioFixtures, startRecordingHost, type RecordingHost } from '../../fixtures/audio-fixtures';
import { locationAt } from '../../fixtures/recording-location';
import { testRecordingCache } from '../../fixtures/recording-location';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const SID = 'interaction_0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const API_KEY = 'sk_test_peaks_DO_NOT_LEAK_7f3a';
const fixtures = generateAudioFixtures();
const wav = fs.readFileSync(fixtures.wavPcm16Stereo.file);

let workspaceHost: RecordingHost; // the API's own origin: requires the key
let otherHost: RecordingHost; // a storage host elsewhere: needs no key

beforeAll(async () => {
  workspaceHost = await startRecordingHost(API_KEY);
  otherHost = await startRecordingHost();
});

afterEach(() => {
  workspaceHost.requests.length = 0;
  otherHost.requests.length = 0;
  workspaceHost.files.clear();
  otherHost.files.clear();
});

afterAll(async () => {
  await workspaceHost.close();
  await otherHost.close();
  fs.rmSync(fixtures.dir, { recursive: true, force: true });
});

const tempCacheDir = () => temporaryFolder('vr-peaks-cache-');

/** A service whose only interaction's recording is `recordingUrl`, in a workspace at `workspaceHost`. */
function serviceFor(recordingUrl: string | null, extra: Partial<PeaksServiceOptions> = {}, timeoutMs?: number) {
  const location = locationAt({
    recordingUrl,
    baseUrl: `${workspaceHost.origin}/v1`,
    apiKey: API_KEY,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  return createPeaksService({
    recordings: testRecordingCache(),
    locate: (sid) => Promise.resolve(sid === SID ? location : null),
    cacheDir: null,
    ...extra,
  });
}

/** The ApiError `promise` rejects with; fails the test on anything else, or on a key in the message. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).message).not.toContain(API_KEY);
  return error as ApiError;
}

describe('where the API key goes', () => {
  it('sends the key to the workspace origin, for its one download (no HEAD)', async () => {
    workspaceHost.files.set('/v1/recordings/a.wav', { bytes: wav });
    const peaks = await serviceFor(`${workspaceHost.origin}/v1/recordings/a.wav`, { cacheDir: tempCacheDir() }).get(
      SID,
    );
    expect(peaks.channels).toHaveLength(2);
    expect(workspaceHost.requests.map((r) => r.method)).toEqual(['GET']);
    expect(workspaceHost.requests.every((r) => r.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });

  it('never sends the key to a recording on another origin', async () => {
    otherHost.files.set('/store/a.wav', { bytes: wav });
    const peaks = await serviceFor(`${otherHost.origin}/store/a.wav`, { cacheDir: tempCacheDir() }).get(SID);
    expect(peaks.channels).toHaveLength(2);
    expect(otherHost.requests).toHaveLength(1);
    expect(otherHost.requests.every((r) => r.authorization === null)).toBe(true);
  });

  it('follows a redirect from the workspace origin to another origin, without the key there', async () => {
    otherHost.files.set('/store/a.wav', { bytes: wav });
    workspaceHost.files.set('/v1/recordings/moved.wav', {
      bytes: wav,
      status: 302,
      location: `${otherHost.origin}/store/a.wav`,
    });
    const peaks = await serviceFor(`${workspaceHost.origin}/v1/recordings/moved.wav`).get(SID);
    expect(Math.abs(peaks.durationSeconds - fixtures.wavPcm16Stereo.seconds)).toBeLessThan(0.01);
    expect(otherHost.requests.length).toBeGreaterThan(0);
    expect(otherHost.requests.every((r) => r.authorization === null)).toBe(true);
  });

  it('follows a redirect for a recording on another origin (no key to leak)', async () => {
    otherHost.files.set('/store/a.wav', { bytes: wav });
    otherHost.files.set('/store/old.wav', { bytes: wav, status: 302, location: `${otherHost.origin}/store/a.wav` });
    const peaks = await serviceFor(`${otherHost.origin}/store/old.wav`).get(SID);
    expect(Math.abs(peaks.durationSeconds - fixtures.wavPcm16Stereo.seconds)).toBeLessThan(0.01);
  });
});

describe('errors a support person can act on', () => {
  it('a rejected key is unauthorized (401), without the key in the message', async () => {
    workspaceHost.files.set('/v1/recordings/a.wav', { bytes: wav });
    const wrongKey = createPeaksService({
      recordings: testRecordingCache(),
      locate: () =>
        Promise.resolve(
          locationAt({
            recordingUrl: `${workspaceHost.origin}/v1/recordings/a.wav`,
            baseUrl: `${workspaceHost.origin}/v1`,
            apiKey: 'not-the-key',
          }),
        ),
      cacheDir: tempCacheDir(),
    });
    const error = await failure(wrongKey.get(SID));
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).not.toContain('not-the-key');
  });

  it('an expired link on another origin (403) is unauthorized and says to reload', async () => {
    otherHost.files.set('/store/signed.wav', { bytes: wav, status: 403 });
    const error = await failure(serviceFor(`${otherHost.origin}/store/signed.wav`).get(SID));
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toMatch(/Reload the interaction/);
  });

  it('a missing file is not_found, a failing server is server', async () => {
    expect((await failure(serviceFor(`${otherHost.origin}/store/none.wav`).get(SID))).kind).toBe('not_found');
    otherHost.files.set('/store/broken.wav', { bytes: wav, status: 503 });
    const error = await failure(serviceFor(`${otherHost.origin}/store/broken.wav`).get(SID));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(503);
  });

  it('an interaction without a playable recording is not_found, and nothing is fetched', async () => {
    expect((await failure(serviceFor(null).get(SID))).message).toBe('This interaction has no recording.');
    expect(
      (await failure(serviceFor(`${otherHost.origin}/x.wav`).get('interaction_00000000-0000-4000-8000-000000000000')))
        .kind,
    ).toBe('not_found');
    const fileUrl = await failure(serviceFor('file:///etc/passwd').get(SID));
    expect(fileUrl.kind).toBe('not_found');
    expect(fileUrl.message).toContain('"file:"');
    expect(otherHost.requests).toHaveLength(0);
  });

  it('an error from looking up the interaction passes through as it is', async () => {
    const service = createPeaksService({
      recordings: testRecordingCache(),
      locate: () => Promise.reject(new ApiError({ kind: 'keychain', message: 'The API key is not in the keychain.' })),
      cacheDir: null,
    });
    expect((await failure(service.get(SID))).kind).toBe('keychain');
  });

  it('a server that never answers is a timeout', async () => {
    otherHost.files.set('/store/slow.wav', { bytes: wav, hang: true });
    const error = await failure(serviceFor(`${otherHost.origin}/store/slow.wav`, {}, 300).get(SID));
    expect(error.kind).toBe('timeout');
  });

  it('a server that cannot be reached is a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(serviceFor(`http://127.0.0.1:${port}/a.wav`).get(SID));
    expect(error.kind).toBe('network');
  });
});

describe('concurrent requests', () => {
  it('two requests for the same recording at once share one download', async () => {
    otherHost.files.set('/store/a.wav', { bytes: wav });
    const service = serviceFor(`${otherHost.origin}/store/a.wav`);
    const [first, second] = await Promise.all([service.get(SID), service.get(SID)]);
    expect(otherHost.count('GET', '/store/a.wav')).toBe(1);
    expect(second).toEqual(first);
    // Once finished, a new request is decoded again from the run's recording cache (a file, not
    // memory): still one download.
    expect(await service.get(SID)).toEqual(first);
    expect(otherHost.count('GET', '/store/a.wav')).toBe(1);
  });

  it('with the disk cache, concurrent requests make one download and no HEAD', async () => {
    otherHost.files.set('/store/a.wav', { bytes: wav });
    const service = serviceFor(`${otherHost.origin}/store/a.wav`, { cacheDir: tempCacheDir() });
    await Promise.all([service.get(SID), service.get(SID), service.get(SID)]);
    expect(otherHost.count('HEAD', '/store/a.wav')).toBe(0);
    expect(otherHost.count('GET', '/store/a.wav')).toBe(1);
  });
});
