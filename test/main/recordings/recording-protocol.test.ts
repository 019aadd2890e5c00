/**
 * The recording protocol handler (electron/main/recordings/recording-protocol.ts) with real upstreams on
 * 127.0.0.1: the demo service's recordings (which require the API key) and small servers written
 * here (another origin that records what it receives, a redirecting one, a slow one).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../electron/main/api/client';
import { createRecordingTransport } from '../../../electron/main/api/recording-fetcher';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import {
  createRecordingHandler,
  recordingPath,
  RECORDING_SCHEME,
  type RecordingHandlerOptions,
} from '../../../electron/main/recordings/recording-protocol';
import { recordingLocation, type RecordingLocation } from '../../../electron/main/recordings/recording-location';
import { ApiError } from '../../../electron/shared/errors';
import { RESOURCES_DIR } from '../../fixtures/paths';
import { testRecordingCache } from '../../fixtures/recording-location';

const DENTAL_SID = 'interaction_a11be33b-a3c4-45fc-8bb4-fa63399cb100';
const DENTAL_FILE = fs.readFileSync(path.join(RESOURCES_DIR, 'demo', 'recordings', `${DENTAL_SID}.ogg`));

let demo: DemoServer;
const servers: http.Server[] = [];

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
}

/** Starts a loopback server for this file; closed in afterAll. */
async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Another origin serving a few bytes of audio; remembers every request it gets. */
let cdnOrigin: string;
const cdnReceived: Received[] = [];
const CDN_BYTES = Buffer.from('OggS-not-really-audio-but-bytes');

beforeAll(async () => {
  demo = await startDemoServer({ resourcesDir: RESOURCES_DIR });
  cdnOrigin = await serve((req, res) => {
    cdnReceived.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, {
      'Content-Type': 'audio/ogg',
      'Content-Length': CDN_BYTES.length,
      'Set-Cookie': 'tracking=1',
      'X-Internal-Host': 'cdn-7',
    });
    res.end(CDN_BYTES);
  });
});

afterAll(async () => {
  await demo.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function newSid(): string {
  return `interaction_${randomUUID()}`;
}

/** The URL the renderer would play for `sid`. */
function recordingRequest(sid: string, init?: RequestInit): Request {
  return new Request(`${RECORDING_SCHEME}://local${recordingPath(sid)}`, init);
}

/** Where a test's recording is: its URL, the workspace's base URL and key, the request timeout (ms). */
interface Where {
  recordingUrl: string | null;
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
}

/** The location of `where`, through a real API client whose recording transport records each URL fetched. */
function locationOf(where: Where, fetched: string[] = []): RecordingLocation {
  const timeoutMs = where.timeoutMs ?? 15_000;
  const real = createRecordingTransport(where.baseUrl, timeoutMs);
  const client = createApiClient({
    baseUrl: where.baseUrl,
    apiKey: where.apiKey,
    timeoutMs,
    recordingTransport: (url, init) => {
      fetched.push(url);
      return real(url, init);
    },
  });
  return recordingLocation(client, where.recordingUrl, 'workspace-1');
}

/** A handler whose `locate` knows exactly one interaction; counts upstream fetches. */
function handlerFor(sid: string, where: Where | null, options: Partial<RecordingHandlerOptions> = {}) {
  const fetched: string[] = [];
  const location = where ? locationOf(where, fetched) : null;
  const handle = createRecordingHandler({
    recordings: testRecordingCache(),
    locate: (asked) => Promise.resolve(asked === sid ? location : null),
    ...options,
  });
  return { handle, fetched };
}

function onDemo(file = `${DENTAL_SID}.ogg`, apiKey = demo.apiKey): Where {
  return { recordingUrl: `${demo.baseUrl}/recordings/${file}`, baseUrl: demo.baseUrl, apiKey };
}

async function bytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

describe('serving a recording from the API origin', () => {
  it('the demo service itself refuses a recording request without the key', async () => {
    const response = await fetch(`${demo.baseUrl}/recordings/${DENTAL_SID}.ogg`);
    expect(response.status).toBe(401);
    await response.body?.cancel();
  });

  it('plays the whole file: the key was attached for the API origin', async () => {
    const sid = newSid();
    const { handle } = handlerFor(sid, onDemo());
    const response = await handle(recordingRequest(sid));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/ogg');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await bytes(response);
    expect(body.length).toBe(DENTAL_FILE.length);
    expect(body.equals(DENTAL_FILE)).toBe(true);
  });

  it('forwards a Range request: 206 with Content-Range and exactly those bytes (seeking)', async () => {
    const sid = newSid();
    const { handle } = handlerFor(sid, onDemo());
    const response = await handle(recordingRequest(sid, { headers: { Range: 'bytes=1000-1999' } }));
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 1000-1999/${DENTAL_FILE.length}`);
    expect(response.headers.get('content-length')).toBe('1000');
    expect((await bytes(response)).equals(DENTAL_FILE.subarray(1000, 2000))).toBe(true);
  });

  it('forwards an open-ended Range to the end of the file', async () => {
    const sid = newSid();
    const { handle } = handlerFor(sid, onDemo());
    const from = DENTAL_FILE.length - 500;
    const response = await handle(recordingRequest(sid, { headers: { Range: `bytes=${from}-` } }));
    expect(response.status).toBe(206);
    expect((await bytes(response)).equals(DENTAL_FILE.subarray(from))).toBe(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const sid = newSid();
    const { handle } = handlerFor(sid, onDemo());
    const response = await handle(recordingRequest(sid, { method: 'HEAD' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(DENTAL_FILE.length));
    expect(response.body).toBeNull();
  });

  it("passes the upstream's refusal through when the saved key is no longer valid", async () => {
    const sid = newSid();
    const { handle } = handlerFor(sid, onDemo(`${DENTAL_SID}.ogg`, 'demo_revoked0000'));
    const response = await handle(recordingRequest(sid));
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('demo_revoked0000');
  });
});

describe('the API key stays with the API origin', () => {
  it('does not send the key to a recording on another origin, and only forwards media headers', async () => {
    const sid = newSid();
    const file = `/${sid}.ogg`;
    const { handle } = handlerFor(sid, {
      recordingUrl: `${cdnOrigin}${file}`,
      baseUrl: demo.baseUrl,
      apiKey: demo.apiKey,
    });
    const response = await handle(recordingRequest(sid));
    expect(response.status).toBe(200);
    expect((await bytes(response)).equals(CDN_BYTES)).toBe(true);
    const received = cdnReceived.filter((r) => r.url === file);
    expect(received).toHaveLength(1);
    expect(received[0]!.authorization).toBeUndefined();
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('x-internal-host')).toBeNull();
  });

  it('treats the same host on another port as another origin', async () => {
    const sid = newSid();
    const file = `/${sid}.ogg`;
    const cdnPort = new URL(cdnOrigin).port;
    // Base URL on localhost:<cdn port> would be the same origin; 127.0.0.1:<demo port> is not.
    const { handle } = handlerFor(sid, {
      recordingUrl: `http://127.0.0.1:${cdnPort}${file}`,
      baseUrl: demo.baseUrl,
      apiKey: demo.apiKey,
    });
    await (await handle(recordingRequest(sid))).arrayBuffer();
    expect(cdnReceived.find((r) => r.url === file)?.authorization).toBeUndefined();
  });

  it('follows a redirect from the API origin to another origin, without the key there', async () => {
    const apiReceived: Received[] = [];
    const sid = newSid();
    const cdnFile = `/${sid}-redirected.ogg`;
    const apiOrigin = await serve((req, res) => {
      apiReceived.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(302, { Location: `${cdnOrigin}${cdnFile}` });
      res.end();
    });
    const { handle } = handlerFor(sid, {
      recordingUrl: `${apiOrigin}/v1/recordings/${sid}.ogg`,
      baseUrl: `${apiOrigin}/v1`,
      apiKey: 'sk_redirect_key_123',
    });
    const response = await handle(recordingRequest(sid));
    expect(response.status).toBe(200);
    expect((await bytes(response)).equals(CDN_BYTES)).toBe(true);
    expect(apiReceived).toHaveLength(1);
    expect(apiReceived[0]!.authorization).toBe('Bearer sk_redirect_key_123');
    const atCdn = cdnReceived.filter((r) => r.url === cdnFile);
    expect(atCdn).toHaveLength(1);
    expect(atCdn[0]!.authorization).toBeUndefined();
  });
});

describe('refusals', () => {
  it.each([
    ['file:', 'file:///etc/passwd'],
    ['data:', 'data:audio/ogg;base64,T2dnUw=='],
    ['javascript:', 'javascript:alert(1)'],
    ['ftp:', 'ftp://files.example.com/a.ogg'],
  ])('does not open a %s recording address (404, says why, fetches nothing)', async (scheme, recordingUrl) => {
    const sid = newSid();
    const { handle, fetched } = handlerFor(sid, { recordingUrl, baseUrl: demo.baseUrl, apiKey: demo.apiKey });
    const response = await handle(recordingRequest(sid));
    expect(response.status).toBe(404);
    const message = await response.text();
    expect(message).toContain(scheme);
    expect(message).toMatch(/only http and https/);
    expect(fetched).toEqual([]);
  });

  it('says so when the interaction has no recording, or its address is not a URL', async () => {
    const none = newSid();
    const a = handlerFor(none, { recordingUrl: null, baseUrl: demo.baseUrl, apiKey: demo.apiKey });
    const noRecording = await a.handle(recordingRequest(none));
    expect(noRecording.status).toBe(404);
    expect(await noRecording.text()).toBe('This interaction has no recording.');

    const broken = newSid();
    const b = handlerFor(broken, { recordingUrl: 'recordings/x.ogg', baseUrl: demo.baseUrl, apiKey: demo.apiKey });
    const relative = await b.handle(recordingRequest(broken));
    expect(relative.status).toBe(404);
    expect(await relative.text()).toMatch(/not a valid URL/);
    expect([...a.fetched, ...b.fetched]).toEqual([]);
  });

  it.each([
    ['a path that is not a recording', `${RECORDING_SCHEME}://local/other/${DENTAL_SID}`],
    ['a SID of another kind', `${RECORDING_SCHEME}://local/recording/agent_43339db7-ea93-4709-971a-7eafbb3b955d`],
    ['an extra segment', `${RECORDING_SCHEME}://local/recording/${DENTAL_SID}/extra`],
    ['a path climbing out', `${RECORDING_SCHEME}://local/recording/${DENTAL_SID}/../../etc`],
    ['broken percent-encoding', `${RECORDING_SCHEME}://local/recording/%E0%A4%A`],
    ['an empty SID', `${RECORDING_SCHEME}://local/recording/`],
  ])('answers 400 for %s, without looking anything up', async (_what, url) => {
    let located = 0;
    const handle = createRecordingHandler({
      recordings: testRecordingCache(),
      locate: () => {
        located++;
        return Promise.resolve(locationOf(onDemo()));
      },
    });
    const response = await handle(new Request(url));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Not a recording address.');
    expect(located).toBe(0);
  });

  it('answers 404 for an interaction the workspace does not know', async () => {
    const { handle, fetched } = handlerFor(newSid(), onDemo());
    const response = await handle(recordingRequest(newSid()));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Unknown interaction.');
    expect(fetched).toEqual([]);
  });

  it('answers 405 to POST', async () => {
    const sid = newSid();
    const { handle, fetched } = handlerFor(sid, onDemo());
    const response = await handle(recordingRequest(sid, { method: 'POST', body: 'x' }));
    expect(response.status).toBe(405);
    expect(fetched).toEqual([]);
  });

  it('answers 502 with the reason when the interaction cannot be loaded', async () => {
    const handle = createRecordingHandler({
      recordings: testRecordingCache(),
      locate: () =>
        Promise.reject(new ApiError({ kind: 'unauthorized', message: 'The service rejected the API key (HTTP 401).' })),
    });
    const response = await handle(recordingRequest(newSid()));
    expect(response.status).toBe(502);
    expect(await response.text()).toBe('The service rejected the API key (HTTP 401).');
  });

  it('answers 404 with the reason when the interaction does not exist', async () => {
    const handle = createRecordingHandler({
      recordings: testRecordingCache(),
      locate: () => Promise.reject(new ApiError({ kind: 'not_found', status: 404, message: 'Interaction not found.' })),
    });
    const response = await handle(recordingRequest(newSid()));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Interaction not found.');
  });
});

describe('upstream failures and streaming', () => {
  it('answers 502 when the recording server cannot be reached', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedOrigin = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const sid = newSid();
    const { handle } = handlerFor(sid, {
      recordingUrl: `${closedOrigin}/a.ogg`,
      baseUrl: demo.baseUrl,
      apiKey: demo.apiKey,
    });
    const response = await handle(recordingRequest(sid));
    expect(response.status).toBe(502);
    expect(await response.text()).toMatch(/could not be reached/);
  });

  it('answers 504 when the recording server accepts but never answers', async () => {
    const silentOrigin = await serve(() => {
      // Never answers.
    });
    const sid = newSid();
    const { handle } = handlerFor(sid, {
      recordingUrl: `${silentOrigin}/a.ogg`,
      baseUrl: demo.baseUrl,
      apiKey: demo.apiKey,
      timeoutMs: 200,
    });
    const response = await handle(recordingRequest(sid));
    expect(response.status).toBe(504);
    expect(await response.text()).toMatch(/did not answer/);
  });

  it('streams: the first chunk is playable while the upstream is still sending', async () => {
    const first = Buffer.from('first-chunk-of-audio');
    const rest = Buffer.from('-and-the-rest');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let upstreamFinished = false;
    const slowOrigin = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'audio/ogg', 'Content-Length': first.length + rest.length });
      res.write(first);
      void released.then(() => {
        upstreamFinished = true;
        res.end(rest);
      });
    });
    const sid = newSid();
    // The slow server is also given as the API origin, so the key path streams too.
    const { handle } = handlerFor(sid, {
      recordingUrl: `${slowOrigin}/a.ogg`,
      baseUrl: `${slowOrigin}/v1`,
      apiKey: 'k',
    });
    const response = await handle(recordingRequest(sid));
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const chunk = await reader.read();
    expect(upstreamFinished).toBe(false);
    expect(Buffer.from(chunk.value!).toString()).toBe(first.toString());
    release();
    const received: Buffer[] = [Buffer.from(chunk.value!)];
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      received.push(Buffer.from(next.value));
    }
    expect(Buffer.concat(received).toString()).toBe(`${first.toString()}${rest.toString()}`);
    // A handler that buffered would wait for the upstream, which waits for this test: fail fast.
  }, 5_000);
});
