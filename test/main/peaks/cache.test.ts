/**
 * The peaks disk cache: one entry per recording, keyed so a changed recording is not served
 * stale (the key comes from the one download's own headers, no HEAD), with a size cap and
 * least-recently-used eviction. Real HTTP on 127.0.0.1, a real temporary folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../../electron/main/demo/server';
import { createPeaksService, type PeaksServiceOptions } from '../../../electron/main/peaks/service';
import { generateAudioFixtures, startRecordingHost, type RecordingHost } from '../../fixtures/audio-fixtures';
import { locationAt } from '../../fixtures/recording-location';
import { RESOURCES_DIR } from '../../fixtures/paths';
import { testRecordingCache } from '../../fixtures/recording-location';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const SID = 'interaction_5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716';
const fixtures = generateAudioFixtures();
const stereo = fs.readFileSync(fixtures.wavPcm16Stereo.file);
const mono = fs.readFileSync(fixtures.wavPcm16Mono.file);

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

const tempDir = () => temporaryFolder('vr-peaks-cache-');

/** A service where interaction `sid` has its recording at `host` path `/r/<sid>`. */
function service(cacheDir: string | null, extra: Partial<PeaksServiceOptions> = {}) {
  return createPeaksService({
    recordings: testRecordingCache(),
    locate: (sid) =>
      Promise.resolve(
        locationAt({ recordingUrl: `${host.origin}/r/${sid}`, baseUrl: `${host.origin}/v1`, apiKey: 'k' }),
      ),
    cacheDir,
    ...extra,
  });
}

function cacheFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
}

function dirBytes(dir: string): number {
  return fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
}

describe('disk cache of peaks', () => {
  it('answers a second view from the cache with the same peaks, without decoding again', async () => {
    const dir = tempDir();
    host.files.set(`/r/${SID}`, { bytes: stereo });
    const first = await service(dir).get(SID);
    // A new service (as after restarting the app) still finds it on disk.
    const second = await service(dir).get(SID);
    expect(first.fromCache).toBe(false);
    expect(second.fromCache).toBe(true);
    expect({ ...second, fromCache: false }).toEqual(first);
    // One GET per run: the second run's is the view's one download (the player plays it), whose
    // headers validate the cached peaks; no HEAD.
    expect(host.count('GET', `/r/${SID}`)).toBe(2);
    expect(host.count('HEAD', `/r/${SID}`)).toBe(0);
  });

  it('recomputes a recording that changed (new ETag) instead of serving the old waveform', async () => {
    const dir = tempDir();
    host.files.set(`/r/${SID}`, { bytes: stereo, etag: '"v1"' });
    expect((await service(dir).get(SID)).channels).toHaveLength(2);
    host.files.set(`/r/${SID}`, { bytes: mono, etag: '"v2"' });
    const changed = await service(dir).get(SID);
    expect(changed.fromCache).toBe(false);
    expect(changed.channels).toHaveLength(1);
    expect(Math.abs(changed.durationSeconds - fixtures.wavPcm16Mono.seconds)).toBeLessThan(0.01);
  });

  it('recomputes when only Last-Modified changes (same size, no ETag)', async () => {
    const dir = tempDir();
    host.files.set(`/r/${SID}`, { bytes: stereo, etag: null, lastModified: 'Mon, 03 Mar 2025 10:00:00 GMT' });
    await service(dir).get(SID);
    expect((await service(dir).get(SID)).fromCache).toBe(true);
    host.files.set(`/r/${SID}`, { bytes: stereo, etag: null, lastModified: 'Tue, 04 Mar 2025 10:00:00 GMT' });
    expect((await service(dir).get(SID)).fromCache).toBe(false);
  });

  it('does not cache when the server sends no ETag, Last-Modified or Content-Length', async () => {
    const dir = tempDir();
    host.files.set(`/r/${SID}`, { bytes: stereo, etag: null, lastModified: null, contentLength: false });
    await service(dir).get(SID);
    const again = await service(dir).get(SID);
    expect(again.fromCache).toBe(false);
    expect(host.count('GET', `/r/${SID}`)).toBe(2);
    expect(cacheFiles(dir)).toEqual([]);
  });

  it('caches when the server refuses HEAD: the key comes from the download, with no HEAD or probe', async () => {
    const dir = tempDir();
    host.files.set(`/r/${SID}`, { bytes: stereo, headStatus: 405 });
    await service(dir).get(SID);
    const again = await service(dir).get(SID);
    expect(again.fromCache).toBe(true);
    expect(host.requests.filter((r) => r.method === 'HEAD' || r.range !== null)).toHaveLength(0);
    expect(host.requests.filter((r) => r.method === 'GET' && r.range === null)).toHaveLength(2);
  });

  it('keeps the folder under its size cap, evicting the least recently used recording', async () => {
    const dir = tempDir();
    const sids = [0, 1, 2, 3].map((n) => `interaction_5e4d3c2b-1a09-4f8e-9d7c-6b5a4938271${n}`);
    for (const sid of sids) host.files.set(`/r/${sid}`, { bytes: stereo });
    // Measure one entry, then allow room for two and a half.
    const probeDir = tempDir();
    const probe = service(probeDir);
    await probe.get(sids[0]!);
    await probe.flush();
    const entryBytes = dirBytes(probeDir);
    const capBytes = Math.floor(entryBytes * 2.5);
    const capped = service(dir, { cacheMaxBytes: capBytes });

    await capped.get(sids[0]!);
    await capped.get(sids[1]!);
    expect((await capped.get(sids[0]!)).fromCache).toBe(true); // sids[0] is now the most recently used
    await capped.get(sids[2]!); // over the cap: sids[1], least recently used, goes
    await capped.flush();
    expect(dirBytes(dir)).toBeLessThanOrEqual(capBytes);
    expect(cacheFiles(dir)).toHaveLength(2);
    expect((await capped.get(sids[0]!)).fromCache).toBe(true);
    expect((await capped.get(sids[2]!)).fromCache).toBe(true);
    expect((await capped.get(sids[1]!)).fromCache).toBe(false);
    await capped.get(sids[3]!);
    await capped.flush();
    expect(dirBytes(dir)).toBeLessThanOrEqual(capBytes);
  });

  it('deletes a corrupt cache file and recomputes the peaks', async () => {
    const dir = tempDir();
    host.files.set(`/r/${SID}`, { bytes: stereo });
    const first = service(dir);
    const original = await first.get(SID);
    await first.flush();
    const [file] = cacheFiles(dir);
    fs.writeFileSync(path.join(dir, file!), '{"format":1,"durationSeconds":4,"channels":[{"min":[0.1');
    const recomputed = await service(dir).get(SID);
    expect(recomputed.fromCache).toBe(false);
    expect(recomputed).toEqual(original);
    expect((await service(dir).get(SID)).fromCache).toBe(true);
  });

  it('still answers when the cache folder cannot be written', async () => {
    const blocker = path.join(tempDir(), 'not-a-folder');
    fs.writeFileSync(blocker, 'a file where the cache folder should be');
    host.files.set(`/r/${SID}`, { bytes: stereo });
    const peaks = await service(blocker).get(SID);
    expect(peaks.channels).toHaveLength(2);
    expect(peaks.fromCache).toBe(false);
  });

  it('caches a demo workspace recording (the demo server sends ETag and Last-Modified and answers HEAD with the key)', async () => {
    const demo = await startDemoServer({ resourcesDir: RESOURCES_DIR });
    try {
      const [interaction] = demo.interactions;
      const recording = {
        recordingUrl: `${demo.baseUrl}/recordings/${interaction!.sid}.ogg`,
        baseUrl: demo.baseUrl,
        apiKey: demo.apiKey,
      };
      const locate = () => Promise.resolve(locationAt(recording));
      const head = await fetch(recording.recordingUrl, {
        method: 'HEAD',
        headers: { Authorization: `Bearer ${demo.apiKey}` },
      });
      const stat = fs.statSync(path.resolve(RESOURCES_DIR, 'demo/recordings', `${interaction!.sid}.ogg`));
      expect(head.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/);
      expect(head.headers.get('last-modified')).toBe(stat.mtime.toUTCString());
      const dir = tempDir();
      const first = await createPeaksService({ recordings: testRecordingCache(), locate, cacheDir: dir }).get(
        interaction!.sid,
      );
      const second = await createPeaksService({ recordings: testRecordingCache(), locate, cacheDir: dir }).get(
        interaction!.sid,
      );
      expect(first.fromCache).toBe(false);
      expect(first.durationSeconds).toBeGreaterThan(40);
      expect(second.fromCache).toBe(true);
      expect(second.channels).toEqual(first.channels);
    } finally {
      await demo.close();
    }
  });
});
