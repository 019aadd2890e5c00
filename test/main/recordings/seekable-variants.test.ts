/**
 * A recording's seekable variant (electron/main/recordings/seekable-variants.ts) through the
 * recording protocol: an MP3 recording, once downloaded into the run's recording cache, is
 * rewrapped in MP4 once, served at its URL with `?variant=mp4` with ranges as the original is,
 * and announced to listeners; other recordings get none; a failed remux leaves the recording
 * playing as it is, logged without the recording's URL or the key. Real HTTP on 127.0.0.1, a
 * real temporary folder, the real remux (in this thread).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remuxMp3ToMp4, type Mp3Remuxer } from '../../../electron/main/recordings/mp3-remux';
import type { CachedDownload } from '../../../electron/main/recordings/cached-download';
import { createRecordingCache, type RecordingCache } from '../../../electron/main/recordings/recording-cache';
import { playableLocation } from '../../../electron/main/recordings/recording-location';
import { createRecordingHandler, recordingPath } from '../../../electron/main/recordings/recording-protocol';
import {
  createSeekableVariants,
  type SeekableVariantReady,
  type SeekableVariants,
} from '../../../electron/main/recordings/seekable-variants';
import { seekableRecordingSrcOf } from '../../../electron/shared/recording-src';
import { hasCommand } from '../../fixtures/audio-fixtures';
import { encodeCall } from '../../fixtures/call-formats';
import { locationAt } from '../../fixtures/recording-location';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const SID = 'interaction_5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
const OTHER_SID = 'interaction_0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const API_KEY = 'vr_variant_test_key_0123456789abcdef';
/** A signed recording URL's token: never to be logged. */
const URL_TOKEN = 'sig-9f8e7d6c5b4a';
const ORIGIN = 'vr-recording://local';

const missing = ['ffmpeg', 'espeak-ng', 'sox'].filter((tool) => !hasCommand(tool));
const files = new Map<string, { bytes: Buffer; type: string }>();
let server: http.Server;
let upstream: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const file = files.get(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': String(file.bytes.length), ETag: '"v1"' });
    res.end(file.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A 16-bit mono PCM WAV of one second of silence at 8 kHz. */
function wav(): Buffer {
  const samples = 8000;
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(8000, 24);
  out.writeUInt32LE(16_000, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(samples * 2, 40);
  return out;
}

interface Rig {
  cache: RecordingCache;
  variants: SeekableVariants;
  /** Variants announced to a listener, in order. */
  announced: SeekableVariantReady[];
  warnings: string[];
  /** How many times the remux ran. */
  remuxes: () => number;
  /** GET (or HEAD) the recording of `sid`, or its variant. */
  play(options?: { sid?: string; variant?: boolean; range?: string; method?: string }): Promise<Response>;
  /** The recording's current download in the cache (opened anew when it left). */
  download(): CachedDownload;
  /** Waits until the recording is downloaded and its variant is ready or known not to come. */
  settled(): Promise<void>;
}

/** The protocol over a cache and variants of its own, every SID's recording at `<upstream><file>`. */
function rig(file: string, remux: Mp3Remuxer = (mp3, mp4) => remuxMp3ToMp4(mp3, mp4)): Rig {
  const cache = createRecordingCache({ root: temporaryFolder('vr-variants-') });
  const location = locationAt({
    recordingUrl: `${upstream}${file}?token=${URL_TOKEN}`,
    baseUrl: upstream,
    apiKey: API_KEY,
  });
  const playable = playableLocation(location);
  if (playable instanceof Error) throw playable;
  const warnings: string[] = [];
  const log = {
    info: () => undefined,
    warn: (...args: unknown[]) => warnings.push(args.map(String).join(' ')),
  };
  let count = 0;
  const variants = createSeekableVariants({
    srcOf: (sid) => seekableRecordingSrcOf(`${ORIGIN}/recording/`, sid),
    remux: (mp3, mp4, signal) => {
      count++;
      return remux(mp3, mp4, signal);
    },
    log,
  });
  const announced: SeekableVariantReady[] = [];
  variants.onReady((ready) => announced.push(ready));
  const handle = createRecordingHandler({ locate: () => Promise.resolve(location), recordings: cache, variants });
  return {
    cache,
    variants,
    announced,
    warnings,
    remuxes: () => count,
    play: ({ sid = SID, variant = false, range, method = 'GET' } = {}) =>
      handle(
        new Request(`${ORIGIN}${recordingPath(sid)}${variant ? '?variant=mp4' : ''}`, {
          method,
          headers: range ? { Range: range } : {},
        }),
      ),
    download: () => cache.open(playable),
    settled: async () => {
      const download = cache.open(playable);
      await download.completed.catch(() => undefined);
      await variants.settled(download);
    },
  };
}

/** Plays the whole recording once (the player's first request), then waits for its variant to settle. */
async function playAndSettle(r: Rig): Promise<void> {
  await (await r.play()).arrayBuffer();
  await r.settled();
}

describe.skipIf(missing.length > 0)(
  `an MP3 recording's seekable variant (skipped: ${missing.join(', ')} missing)`,
  () => {
    let mp3: Buffer;
    beforeAll(async () => {
      const call = await encodeCall({ format: 'mp3-vbr-xing', sampleRate: 22_050, channels: 1 });
      mp3 = fs.readFileSync(call.file);
      files.set('/call.mp3', { bytes: mp3, type: 'audio/mpeg' });
      files.set('/call.wav', { bytes: wav(), type: 'audio/wav' });
      // An ID3 tag and no MPEG frame after it: sniffed as an MP3, but it cannot be remuxed.
      files.set('/broken.mp3', {
        bytes: Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00'), Buffer.alloc(4096, 7)]),
        type: 'audio/mpeg',
      });
    }, 120_000);

    it('is made once per recording, announced with its URL, and served whole as audio/mp4', async () => {
      const r = rig('/call.mp3');
      expect(Buffer.from(await (await r.play()).arrayBuffer()).equals(mp3)).toBe(true);
      await r.settled();
      // More requests, for the recording and its variant, under a second SID too: no second remux.
      await (await r.play({ range: 'bytes=100-' })).arrayBuffer();
      await (await r.play({ sid: OTHER_SID })).arrayBuffer();
      const whole = await r.play({ variant: true });
      await r.settled();

      expect(r.remuxes()).toBe(1);
      const src = `${ORIGIN}/recording/${SID}?variant=mp4`;
      expect(r.announced.map((a) => [a.sid, a.src])).toEqual([
        [SID, src],
        [OTHER_SID, `${ORIGIN}/recording/${OTHER_SID}?variant=mp4`],
      ]);
      expect(r.announced[0]?.durationSeconds).toBeGreaterThan(1);
      expect(r.variants.readySrc(SID)).toBe(src);

      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/mp4');
      expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      // The original's ETag names the MP3's bytes, not these.
      expect(whole.headers.get('etag')).toBeNull();
      const body = Buffer.from(await whole.arrayBuffer());
      expect(body.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect(Number(whole.headers.get('content-length'))).toBe(body.length);
      // The same frames: about the MP3's size.
      expect(Math.abs(body.length - mp3.length) / mp3.length).toBeLessThan(0.1);
      await r.cache.close();
    });

    it('answers ranges of the variant as the original answers its own', async () => {
      const r = rig('/call.mp3');
      await playAndSettle(r);
      const whole = Buffer.from(await (await r.play({ variant: true })).arrayBuffer());
      const size = whole.length;

      for (const [range, from, to] of [
        ['bytes=1000-1999', 1000, 1999],
        [`bytes=${String(size - 300)}-`, size - 300, size - 1],
        ['bytes=-500', size - 500, size - 1],
        [`bytes=${String(size - 10)}-${String(size + 1000)}`, size - 10, size - 1],
      ] as const) {
        const part = await r.play({ variant: true, range });
        expect(part.status, range).toBe(206);
        expect(part.headers.get('content-type')).toBe('audio/mp4');
        expect(part.headers.get('content-range')).toBe(`bytes ${String(from)}-${String(to)}/${String(size)}`);
        expect(part.headers.get('content-length')).toBe(String(to - from + 1));
        expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(from, to + 1)), range).toBe(true);
      }
      const past = await r.play({ variant: true, range: `bytes=${String(size)}-` });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${String(size)}`);
      const head = await r.play({ variant: true, method: 'HEAD' });
      expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(size), '']);
      await r.cache.close();
    });

    it('is a private file of the cache, deleted with the recording when the cache lets it go', async () => {
      const r = rig('/call.mp3');
      await playAndSettle(r);
      const folder = r.cache.folder()!;
      const mp4 = fs.readdirSync(folder).find((name) => name.endsWith('.m4a'));
      expect(mp4).toBeDefined();
      expect(fs.statSync(`${folder}/${mp4 ?? ''}`).mode & 0o777).toBe(0o600);
      await r.cache.clear();
      expect(fs.readdirSync(folder)).toEqual([]);
      expect(r.variants.readySrc(SID)).toBeNull();
      // The variant's URL then plays the recording as it is (downloaded again).
      const again = await r.play({ variant: true });
      expect(again.headers.get('content-type')).toBe('audio/mpeg');
      expect(Buffer.from(await again.arrayBuffer()).equals(mp3)).toBe(true);
      await r.cache.close();
    });

    it('is not made for a recording that is not an MP3, whose variant URL plays it as it is', async () => {
      const r = rig('/call.wav');
      await playAndSettle(r);
      expect(r.remuxes()).toBe(0);
      expect(r.announced).toEqual([]);
      expect(r.variants.readySrc(SID)).toBeNull();
      const asIs = await r.play({ variant: true, range: 'bytes=0-99' });
      expect([asIs.status, asIs.headers.get('content-type')]).toEqual([206, 'audio/wav']);
      expect(Buffer.from(await asIs.arrayBuffer()).equals(wav().subarray(0, 100))).toBe(true);
      expect(fs.readdirSync(r.cache.folder()!).filter((name) => !name.endsWith('.rec'))).toEqual([]);
      await r.cache.close();
    });

    it('leaves the MP3 played as it is when the remux fails, logged without the URL or the key', async () => {
      const r = rig('/broken.mp3');
      await playAndSettle(r);
      expect(r.remuxes()).toBe(1);
      expect(r.announced).toEqual([]);
      expect(r.variants.readySrc(SID)).toBeNull();
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toContain(SID);
      expect(r.warnings[0]).toContain('plays as it is');
      for (const secret of [API_KEY, URL_TOKEN, upstream]) expect(r.warnings[0]).not.toContain(secret);

      const asIs = await r.play({ variant: true });
      expect([asIs.status, asIs.headers.get('content-type')]).toEqual([200, 'audio/mpeg']);
      expect(Buffer.from(await asIs.arrayBuffer()).equals(files.get('/broken.mp3')!.bytes)).toBe(true);
      // No partial or failed MP4 is left in the cache's folder.
      expect(fs.readdirSync(r.cache.folder()!).filter((name) => !name.endsWith('.rec'))).toEqual([]);
      await r.cache.close();
    });

    it('deletes a remux still running when the recording leaves the cache, and announces nothing', async () => {
      let started: () => void = () => undefined;
      const running = new Promise<void>((resolve) => (started = resolve));
      let finish: () => void = () => undefined;
      const r = rig('/call.mp3', async (mp3, mp4) => {
        started();
        await new Promise<void>((resolve) => (finish = resolve));
        return remuxMp3ToMp4(mp3, mp4);
      });
      await (await r.play()).arrayBuffer();
      await running;
      const download = r.download();
      const folder = r.cache.folder()!;
      await r.cache.clear();
      finish();
      await r.variants.settled(download);
      expect(r.announced).toEqual([]);
      expect(r.warnings).toEqual([]);
      expect(fs.readdirSync(folder)).toEqual([]);
      await r.cache.close();
    });
  },
);
