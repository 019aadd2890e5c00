/**
 * The recording fetcher (api/recording-fetcher.ts) and its destination rules (api/destination.ts)
 * against hostile recording servers on 127.0.0.1: two servers are two origins, an "API" origin that
 * wants the key and a "storage" origin that must never see it. Refused destinations outside
 * loopback are named through a resolver stand-in, so no connection to them is ever attempted.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../electron/main/api/client';
import { addressClass, hopProblem, type Resolver } from '../../../electron/main/api/destination';
import { RecordingError } from '../../../electron/main/api/recording-errors';
import type { RecordingTransport } from '../../../electron/main/api/recording-fetcher';
import { createRecordingHandler, recordingPath } from '../../../electron/main/recordings/recording-protocol';
import type { RecordingProblem } from '../../../electron/shared/contract';
import { startHostileServer, type HostileServer } from '../../fixtures/hostile-recording-server';
import { locationAt } from '../../fixtures/recording-location';
import { testRecordingCache } from '../../fixtures/recording-location';

const KEY = 'sk_live_recordings_Hx81Qw0pSECRET';
const AUDIO = Buffer.from('RIFF....WAVEfmt fake-but-bytes');
let api: HostileServer;
let storage: HostileServer;

beforeAll(async () => {
  api = await startHostileServer();
  storage = await startHostileServer();
});
afterEach(() => {
  for (const s of [api, storage]) {
    s.routes.clear();
    s.seen.length = 0;
  }
});
afterAll(async () => {
  await api.close();
  await storage.close();
});

/** Names resolved by the stand-in, and what it answers: test names map to refused addresses. */
const resolved: string[] = [];
const standIn: Resolver = (hostname, callback) => {
  resolved.push(hostname);
  const fake: Record<string, LookupAddress[]> = {
    'private.test': [{ address: '10.0.0.5', family: 4 }],
    'metadata.test': [{ address: '169.254.169.254', family: 4 }],
    'mapped.test': [{ address: '::ffff:192.168.1.20', family: 6 }],
  };
  const answer = fake[hostname];
  if (answer) callback(null, answer);
  else dnsLookup(hostname, { all: true }, callback);
};

function client(timeoutMs = 2_000, transport?: RecordingTransport) {
  return createApiClient({
    baseUrl: `${api.origin}/v1`,
    apiKey: KEY,
    timeoutMs,
    recordingResolver: standIn,
    ...(transport ? { recordingTransport: transport } : {}),
  });
}

/** The RecordingError a fetch of `url` fails with (fails the test if it succeeds). */
async function refusal(url: string, method: 'GET' | 'HEAD' = 'GET', timeoutMs?: number): Promise<RecordingError> {
  const error = await client(timeoutMs)
    .recording(url)
    .fetch(method)
    .then(
      async (a) => {
        await a.body?.cancel();
        return null;
      },
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(RecordingError);
  expect((error as Error).message).not.toContain(KEY);
  return error as RecordingError;
}

async function played(url: string, method: 'GET' | 'HEAD' = 'GET'): Promise<Buffer> {
  const answer = await client().recording(url).fetch(method);
  return Buffer.from(answer.body ? await new Response(answer.body).arrayBuffer() : new ArrayBuffer(0));
}

/** The key reached no server but the API origin. */
function keyStayedHome(): void {
  expect(storage.seen.every((r) => r.authorization === null)).toBe(true);
}

describe('redirects', () => {
  it('same-origin 302 to another origin plays, and that origin never sees Authorization', async () => {
    api.routes.set('/v1/rec/a.wav', {
      kind: 'redirect',
      status: 302,
      location: `${storage.origin}/signed/a.wav?sig=1`,
    });
    storage.routes.set('/signed/a.wav?sig=1', { kind: 'audio', bytes: AUDIO });
    expect((await played(`${api.origin}/v1/rec/a.wav`)).equals(AUDIO)).toBe(true);
    expect(api.seen[0]?.authorization).toBe(`Bearer ${KEY}`);
    expect(storage.seen).toHaveLength(1);
    keyStayedHome();
  });

  it.each([301, 303, 307, 308])(
    'follows %i, keeping the method (303: GET stays GET, HEAD stays HEAD)',
    async (status) => {
      api.routes.set('/v1/rec/b.wav', { kind: 'redirect', status, location: `${storage.origin}/b.wav` });
      storage.routes.set('/b.wav', { kind: 'audio', bytes: AUDIO });
      expect((await played(`${api.origin}/v1/rec/b.wav`)).equals(AUDIO)).toBe(true);
      await played(`${api.origin}/v1/rec/b.wav`, 'HEAD');
      expect(storage.seen.map((r) => r.method)).toEqual(['GET', 'HEAD']);
      keyStayedHome();
    },
  );

  it('never sends the key again after a hop left the origin, even when a later hop comes back', async () => {
    api.routes.set('/v1/rec/c.wav', { kind: 'redirect', status: 302, location: `${storage.origin}/bounce` });
    storage.routes.set('/bounce', { kind: 'redirect', status: 302, location: `${api.origin}/v1/rec/c-final.wav` });
    api.routes.set('/v1/rec/c-final.wav', { kind: 'audio', bytes: AUDIO });
    await played(`${api.origin}/v1/rec/c.wav`);
    expect(api.seen.map((r) => r.authorization)).toEqual([`Bearer ${KEY}`, null]);
    keyStayedHome();
  });

  it('a loop is refused with words', async () => {
    api.routes.set('/v1/rec/loop.wav', { kind: 'redirect', status: 302, location: `${storage.origin}/loop` });
    storage.routes.set('/loop', { kind: 'redirect', status: 307, location: `${api.origin}/v1/rec/loop.wav` });
    const error = await refusal(`${api.origin}/v1/rec/loop.wav`);
    expect(error.problem).toBe('redirect_refused');
    expect(error.message).toMatch(/in a loop/);
    keyStayedHome();
  });

  it('follows 5 hops and refuses a sixth', async () => {
    for (let i = 0; i < 6; i++) {
      storage.routes.set(`/hop${i}`, { kind: 'redirect', status: 302, location: `${storage.origin}/hop${i + 1}` });
    }
    storage.routes.set('/hop6', { kind: 'audio', bytes: AUDIO });
    expect((await played(`${storage.origin}/hop1`)).equals(AUDIO)).toBe(true);
    const error = await refusal(`${storage.origin}/hop0`);
    expect(error.problem).toBe('redirect_refused');
    expect(error.message).toMatch(/more than 5 times/);
  });

  it('a redirect without a Location is refused with words', async () => {
    api.routes.set('/v1/rec/nowhere.wav', { kind: 'redirect', status: 302, location: '' });
    expect((await refusal(`${api.origin}/v1/rec/nowhere.wav`)).message).toMatch(/without saying where/);
  });
});

describe('destination rules', () => {
  it('refuses an https -> http downgrade at the decision, and on a real hop before fetching it', async () => {
    const base = new URL('https://api.example.com/v1');
    expect(hopProblem(new URL('http://cdn.example.com/a'), new URL('https://api.example.com/r'), base)).toMatch(
      /from a secure \(https\) address to plain http/,
    );
    expect(hopProblem(new URL('http://cdn.example.com/a'), null, base)).toMatch(/https is required/);
    expect(hopProblem(new URL('https://cdn.example.com/a'), null, base)).toBeNull();
    const fetched: string[] = [];
    const https = createApiClient({
      baseUrl: 'https://api.example.com/v1',
      apiKey: KEY,
      recordingTransport: (url) => {
        fetched.push(url);
        return Promise.resolve(new Response(null, { status: 302, headers: { Location: `${storage.origin}/a.wav` } }));
      },
    });
    const error = await https
      .recording('https://api.example.com/v1/rec/a.wav')
      .fetch('GET')
      .catch((e: unknown) => e as RecordingError);
    expect(error).toBeInstanceOf(RecordingError);
    expect((error as RecordingError).problem).toBe('unsafe_destination');
    expect(fetched).toEqual(['https://api.example.com/v1/rec/a.wav']);
    expect(storage.seen).toEqual([]);
  });

  it.each([
    ['private.test', /private network/],
    ['metadata.test', /link-local/],
    ['mapped.test', /private network/],
  ])('refuses a redirect to %s (resolved to a refused address) before connecting', async (host, words) => {
    resolved.length = 0;
    api.routes.set('/v1/rec/p.wav', { kind: 'redirect', status: 302, location: `http://${host}:4711/p.wav` });
    const error = await refusal(`${api.origin}/v1/rec/p.wav`);
    expect(error.problem).toBe('unsafe_destination');
    expect(error.message).toMatch(words);
    expect(resolved).toContain(host);
  });

  it('refuses literal link-local, private and unspecified addresses without any request', async () => {
    const fetched: string[] = [];
    const counting = client(2_000, (url) => {
      fetched.push(url);
      return Promise.reject(new Error('must not be called'));
    });
    for (const url of [
      'http://169.254.169.254/latest',
      'http://10.1.2.3/a',
      'http://[fe80::1]/a',
      'http://0.0.0.0/a',
    ]) {
      const error = await counting
        .recording(url)
        .fetch('GET')
        .catch((e: unknown) => e as RecordingError);
      expect((error as RecordingError).problem).toBe('unsafe_destination');
    }
    expect(fetched).toEqual([]);
  });

  it('classifies addresses, IPv4-mapped IPv6 included', () => {
    expect(addressClass('127.0.0.1')).toBe('loopback');
    expect(addressClass('::1')).toBe('loopback');
    expect(addressClass('::ffff:7f00:1')).toBe('loopback');
    expect(addressClass('::ffff:169.254.169.254')).toBe('link-local');
    expect(addressClass('172.20.0.1')).toBe('private');
    expect(addressClass('fd00::1')).toBe('private');
    expect(addressClass('fe80::1')).toBe('link-local');
    expect(addressClass('::')).toBe('unspecified');
    expect(addressClass('0.0.0.0')).toBe('unspecified');
    expect(addressClass('172.32.0.1')).toBe('public');
    expect(addressClass('2606:4700::1111')).toBe('public');
    // Documentation addresses no real server has are refused too.
    expect(addressClass('2001:db8::1')).toBe('documentation');
  });
});

describe('answers that are not the recording', () => {
  it.each([404, 410])('%i: the link no longer exists or has expired', async (status) => {
    storage.routes.set('/gone.wav', { kind: 'status', status });
    const error = await refusal(`${storage.origin}/gone.wav`);
    expect(error.problem).toBe('gone');
    expect(error.message).toMatch(/no longer exists or has expired/);
  });

  it('a 403 on the signed URL: refused, the link may have expired', async () => {
    api.routes.set('/v1/rec/s.wav', { kind: 'redirect', status: 302, location: `${storage.origin}/signed?x=1` });
    storage.routes.set('/signed?x=1', { kind: 'status', status: 403 });
    const error = await refusal(`${api.origin}/v1/rec/s.wav`);
    expect(error.problem).toBe('refused');
    expect(error.message).toMatch(/may have expired/);
    keyStayedHome();
  });

  it('a 2 GB Content-Length is refused with words, without reading it', async () => {
    storage.routes.set('/huge.wav', { kind: 'huge', declaredBytes: 2 * 1024 ** 3 });
    const error = await refusal(`${storage.origin}/huge.wav`);
    expect(error.problem).toBe('too_large');
    expect(error.message).toMatch(/larger than 1 GiB/);
  });

  it('an endless stream that stalls ends with a timeout error', async () => {
    storage.routes.set('/stall.wav', { kind: 'stall', firstBytes: AUDIO });
    const answer = await client(300).recording(`${storage.origin}/stall.wav`).fetch('GET');
    const error = await new Response(answer.body).arrayBuffer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordingError);
    expect((error as RecordingError).problem).toBe('timed_out');
  });

  it('an HTML page is not an audio format', async () => {
    storage.routes.set('/login', { kind: 'text', type: 'text/html; charset=utf-8', body: '<html>Sign in</html>' });
    const error = await refusal(`${storage.origin}/login`);
    expect(error.problem).toBe('not_audio');
    expect(error.message).toMatch(/not an audio format/);
  });
});

describe('through the recording protocol', () => {
  it('reports each problem in words for the player, never the upstream body, and clears it once it plays', async () => {
    const problems: (RecordingProblem | null)[] = [];
    const sid = 'interaction_6f1d8a2e-3b4c-4d5e-8f60-718293a4b5c6';
    const location = (url: string) =>
      locationAt({ recordingUrl: url, baseUrl: `${api.origin}/v1`, apiKey: KEY, report: (p) => problems.push(p) });
    storage.routes.set('/dead.wav', { kind: 'status', status: 404 });
    storage.routes.set('/ok.wav', { kind: 'audio', bytes: AUDIO, type: 'application/ogg' });
    const dead = createRecordingHandler({
      recordings: testRecordingCache(),
      locate: () => Promise.resolve(location(`${storage.origin}/dead.wav`)),
    });
    const response = await dead(new Request(`vr-recording://local${recordingPath(sid)}`));
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).toMatch(/no longer exists or has expired/);
    expect(text).not.toMatch(/you sent/);
    expect(problems.at(-1)?.kind).toBe('gone');
    const ok = createRecordingHandler({
      recordings: testRecordingCache(),
      locate: () => Promise.resolve(location(`${storage.origin}/ok.wav`)),
    });
    const good = await ok(new Request(`vr-recording://local${recordingPath(sid)}`));
    expect(good.headers.get('content-type')).toBe('application/ogg');
    expect(good.headers.get('x-content-type-options')).toBe('nosniff');
    await good.arrayBuffer();
    expect(problems.at(-1)).toBeNull();
  });
});
