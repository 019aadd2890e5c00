/**
 * The run's recording cache (electron/main/recordings/recording-cache.ts) between the recording protocol and
 * the peaks service: one upstream GET per recording for the player and the waveform together,
 * Range requests answered from the file, a range far ahead sent upstream, eviction and clearing
 * deleting files, private modes, shared worded failures. Real HTTP on 127.0.0.1 (a server that
 * counts requests and can hold its body back), a real temporary folder.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingError } from '../../../electron/main/api/recording-errors';
import { createPeaksService } from '../../../electron/main/peaks/service';
import { createRecordingCache, type RecordingCache } from '../../../electron/main/recordings/recording-cache';
import { createRecordingHandler, recordingPath } from '../../../electron/main/recordings/recording-protocol';
import type { RecordingProblem } from '../../../electron/shared/contract';
import { playableLocation } from '../../../electron/main/recordings/recording-location';
import { locationAt } from '../../fixtures/recording-location';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const SID = 'interaction_0c9b8a7f-6e5d-4c3b-8a19-0f1e2d3c4b5a';
const API_KEY = 'vr_cache_test_key_0123456789abcdef';
/** 3 s of 16-bit mono PCM at 48 kHz: 288 KB. */
const WAV = wav(48_000, 3);
/** 30 s of the same: 2.88 MB, for ranges far ahead of a held download. */
const LONG_WAV = wav(48_000, 30);

interface Served {
  bytes: Buffer;
  /** Bytes sent before the body waits for {@link release} (GETs without Range only). */
  holdAfter?: number;
  /** Answer this status instead. */
  status?: number;
}

const files = new Map<string, Served>();
const requests: Array<{ path: string; range: string | null }> = [];
let releases: Array<() => void> = [];
let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const p = req.url ?? '/';
    requests.push({ path: p, range: req.headers.range ?? null });
    const file = files.get(p);
    if (!file || file.status) return void res.writeHead(file?.status ?? 404).end('refused');
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const size = file.bytes.length;
    const start = range ? Number(range[1]) : 0;
    const end = range?.[2] ? Number(range[2]) : size - 1;
    res.writeHead(range ? 206 : 200, {
      'Content-Type': 'audio/wav',
      'Content-Length': String(end - start + 1),
      ETag: '"v1"',
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
    });
    const body = file.bytes.subarray(start, end + 1);
    if (range || file.holdAfter === undefined) return void res.end(body);
    res.write(body.subarray(0, file.holdAfter));
    releases.push(() => res.end(body.subarray(file.holdAfter)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A 16-bit mono PCM WAV of a 440 Hz tone. */
function wav(rate: number, seconds: number): Buffer {
  const samples = rate * seconds;
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    out.writeInt16LE(Math.round(Math.sin((i * 2 * Math.PI * 440) / rate) * 20_000), 44 + i * 2);
  return out;
}

function newRoot(): string {
  return path.join(temporaryFolder('vr-recording-cache-'), 'recordings');
}

/** Player and peaks over one cache, the recording at `<origin><file>`. */
function rig(file: string, cache: RecordingCache, options: { timeoutMs?: number } = {}) {
  const problems: Array<RecordingProblem | null> = [];
  const location = locationAt({
    recordingUrl: `${origin}${file}`,
    baseUrl: `${origin}/v1`,
    apiKey: API_KEY,
    report: (p) => problems.push(p),
    ...options,
  });
  const locate = () => Promise.resolve(location);
  const handle = createRecordingHandler({ locate, recordings: cache });
  const peaks = createPeaksService({ locate, cacheDir: null, recordings: cache });
  const play = (range?: string) =>
    handle(new Request(`vr-recording://local${recordingPath(SID)}`, range ? { headers: { Range: range } } : {}));
  return { play, peaks, problems };
}

function upstreamGets(file: string): number {
  return requests.filter((r) => r.path === file).length;
}

/** Every name under `dir`, recursively. */
function namesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

describe('one download per recording', () => {
  it('player and peaks together make one upstream GET, and the bytes played are the file', async () => {
    files.set('/one.wav', { bytes: WAV });
    const cache = createRecordingCache({ root: newRoot() });
    const { play, peaks } = rig('/one.wav', cache);
    const [response, computed] = await Promise.all([play('bytes=0-'), peaks.get(SID)]);
    expect(response.status).toBe(206);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(WAV)).toBe(true);
    expect(Math.abs(computed.durationSeconds - 3)).toBeLessThan(0.01);
    expect(upstreamGets('/one.wav')).toBe(1);
    expect(requests.find((r) => r.path === '/one.wav')?.range).toBeNull();

    // After the download, seeking anywhere (and the waveform again) costs no upstream request.
    for (const [range, from, to] of [
      ['bytes=1000-1999', 1000, 2000],
      ['bytes=200000-', 200000, WAV.length],
      ['bytes=-100', WAV.length - 100, WAV.length],
    ] as const) {
      const part = await play(range);
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes ${from}-${to - 1}/${WAV.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(WAV.subarray(from, to))).toBe(true);
    }
    expect((await play('bytes=999999-')).status).toBe(416);
    await peaks.get(SID);
    expect(upstreamGets('/one.wav')).toBe(1);
    await cache.close();
  });

  it('waits for bytes within reach of the running download, and asks upstream for a range far ahead', async () => {
    files.set('/long.wav', { bytes: LONG_WAV, holdAfter: 64 * 1024 });
    const cache = createRecordingCache({ root: newRoot() });
    const { play } = rig('/long.wav', cache);
    const first = await play();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-length')).toBe(String(LONG_WAV.length));
    const far = await play('bytes=2000000-2000999');
    expect(far.status).toBe(206);
    expect(Buffer.from(await far.arrayBuffer()).equals(LONG_WAV.subarray(2_000_000, 2_001_000))).toBe(true);
    expect(requests.filter((r) => r.path === '/long.wav').map((r) => r.range)).toEqual([null, 'bytes=2000000-2000999']);

    const near = play('bytes=100000-100999');
    releases.forEach((release) => release());
    releases = [];
    const nearBytes = Buffer.from(await (await near).arrayBuffer());
    expect(nearBytes.equals(LONG_WAV.subarray(100_000, 101_000))).toBe(true);
    expect(Buffer.from(await first.arrayBuffer()).equals(LONG_WAV)).toBe(true);
    expect(upstreamGets('/long.wav')).toBe(2);
    await cache.close();
  });
});

describe('files of the cache', () => {
  it('are private (folders 0700, files 0600) and named without the key, SID or URL', async () => {
    files.set('/private.wav', { bytes: WAV });
    const root = newRoot();
    const cache = createRecordingCache({ root });
    await (await rig('/private.wav', cache).play()).arrayBuffer();
    const folder = cache.folder() ?? '';
    expect(fs.statSync(root).mode & 0o777).toBe(0o700);
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    const names = namesUnder(root);
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) {
      for (const secret of [API_KEY, SID, 'private', '127.0.0.1', 'workspace-1']) expect(name).not.toContain(secret);
      const stat = fs.statSync(path.join(root, name));
      expect(stat.mode & 0o777).toBe(stat.isDirectory() ? 0o700 : 0o600);
    }
    await cache.close();
    expect(fs.existsSync(folder)).toBe(false);
  });

  it('deletes the least recently opened recording beyond the cap, and everything on clear', async () => {
    const cache = createRecordingCache({ root: newRoot(), maxViews: 2 });
    for (const name of ['/a.wav', '/b.wav', '/c.wav']) {
      files.set(name, { bytes: WAV });
      await (await rig(name, cache).play()).arrayBuffer();
    }
    const folder = cache.folder() ?? '';
    await expect.poll(() => fs.readdirSync(folder).sort()).toEqual(['2.rec', '3.rec']);
    await cache.clear();
    expect(fs.readdirSync(folder)).toEqual([]);
    await cache.close();
  });

  it('keeps a file made from a recording private, counts it toward the size cap, and deletes it with the recording', async () => {
    // Room for two downloads, not for two and a file as large made from the first.
    const cache = createRecordingCache({ root: newRoot(), maxBytes: WAV.length * 2.5 });
    files.set('/made-a.wav', { bytes: WAV });
    files.set('/made-b.wav', { bytes: WAV });
    const location = playableLocation(
      locationAt({ recordingUrl: `${origin}/made-a.wav`, baseUrl: `${origin}/v1`, apiKey: API_KEY }),
    );
    if (location instanceof Error) throw location;
    const first = cache.open(location);
    await first.completed;
    const made = await first.derive('.copy', async (source, target) => {
      await fs.promises.copyFile(source, target);
      return 'copied';
    });
    expect([made.value, made.bytes, first.stored()]).toEqual(['copied', WAV.length, WAV.length * 2]);
    const folder = cache.folder() ?? '';
    expect(fs.readdirSync(folder).sort()).toEqual(['1.rec', '1.rec.copy']);
    expect(fs.statSync(made.path).mode & 0o777).toBe(0o600);

    await (await rig('/made-b.wav', cache).play()).arrayBuffer();
    await expect.poll(() => fs.readdirSync(folder).sort()).toEqual(['2.rec']);
    expect(first.inCache()).toBe(false);
    await cache.close();
  });

  it("removes a crashed run's folder when the next run starts", async () => {
    const root = newRoot();
    const stale = path.join(root, 'voice-review-recordings-999999999-AbC123');
    fs.mkdirSync(stale, { recursive: true });
    fs.writeFileSync(path.join(stale, '1.rec'), 'call audio');
    files.set('/next.wav', { bytes: WAV });
    const cache = createRecordingCache({ root });
    await (await rig('/next.wav', cache).play()).arrayBuffer();
    expect(fs.existsSync(stale)).toBe(false);
    await cache.close();
  });
});

describe('the default folder', () => {
  it('is a private mkdtemp folder that a folder of a guessable name, made first, does not block', async () => {
    const tmp = temporaryFolder('vr-shared-tmp-');
    const elsewhere = temporaryFolder('vr-other-user-');
    const uid = String(process.getuid?.() ?? 'user');
    // What another local user could have made first under a fixed name: a link to their folder.
    fs.symlinkSync(elsewhere, path.join(tmp, `voice-review-recordings-${uid}`));
    fs.mkdirSync(path.join(tmp, `voice-review-recordings-${String(process.pid)}-`), { mode: 0o777 });
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      files.set('/default-root.wav', { bytes: WAV });
      const cache = createRecordingCache();
      const played = Buffer.from(await (await rig('/default-root.wav', cache).play()).arrayBuffer());
      expect(played.equals(WAV)).toBe(true);
      const folder = cache.folder() ?? '';
      expect(path.dirname(folder)).toBe(tmp);
      expect(path.basename(folder)).toMatch(/^voice-review-recordings-\d+-[A-Za-z0-9]{6}$/);
      const info = fs.lstatSync(folder);
      expect(info.isDirectory()).toBe(true);
      expect(info.mode & 0o777).toBe(0o700);
      expect(fs.readdirSync(elsewhere)).toEqual([]);
      await cache.close();
      expect(fs.existsSync(folder)).toBe(false);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });
});

describe('a failed download', () => {
  it('gives the same worded problem to the player and the waveform', async () => {
    files.set('/gone.wav', { bytes: WAV, status: 410 });
    const cache = createRecordingCache({ root: newRoot() });
    const { play, peaks, problems } = rig('/gone.wav', cache);
    const [response, error] = await Promise.all([play(), peaks.get(SID).catch((e: unknown) => e)]);
    expect(response.status).toBe(410);
    expect(error).toBeInstanceOf(RecordingError);
    expect(await response.text()).toBe((error as RecordingError).message);
    expect(problems.at(-1)?.kind).toBe('gone');
    expect(upstreamGets('/gone.wav')).toBe(1);
    await cache.close();
  });

  it('a stalled download ends the player and the waveform with the timeout in words, and Retry downloads again', async () => {
    files.set('/stall.wav', { bytes: LONG_WAV, holdAfter: 4096 });
    const cache = createRecordingCache({ root: newRoot() });
    const { play, peaks, problems } = rig('/stall.wav', cache, { timeoutMs: 300 });
    const response = await play();
    const [played, error] = await Promise.all([
      response.arrayBuffer().catch((e: unknown) => e),
      peaks.get(SID).catch((e: unknown) => e),
    ]);
    expect(played).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(RecordingError);
    expect((error as RecordingError).problem).toBe('timed_out');
    expect(problems.at(-1)).toEqual({ kind: 'timed_out', message: (error as RecordingError).message });
    releases = [];
    files.set('/stall.wav', { bytes: WAV });
    expect(Buffer.from(await (await play()).arrayBuffer()).equals(WAV)).toBe(true);
    expect(upstreamGets('/stall.wav')).toBe(2);
    await cache.close();
  });
});
