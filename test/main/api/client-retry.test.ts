/**
 * Retries of the API client (electron/main/api/client.ts, retry.ts) over real HTTP on 127.0.0.1:
 * each test starts its own server that counts the requests it gets and answers from a script.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClient } from '../../../electron/main/api/client';
import { parseRetryAfterMs, retryDelayMs, resolveRetryOptions } from '../../../electron/main/api/retry';
import { ApiError } from '../../../electron/shared/errors';

const KEY = 'sk_test_RetryKey4242';
/** Fast backoff so a test with two retries takes milliseconds. */
const FAST = { baseDelayMs: 10, maxDelayMs: 50 };
const PHONES_OK = { status: 'success', phones: [{ number: '+14155550123' }] };
const TRUNK_OK = { status: 'success', sip_trunk: { sid: 'sip_1' } };
const PHONE_OK = { status: 'success', phone: { number: '+14155550123' } };

type Step = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface CountingServer {
  origin: string;
  /** Requests received, in order, as "METHOD /path". */
  requests: string[];
}

const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A server answering the n-th request with `steps[n]` (the last step repeats). */
async function countingServer(steps: Step[]): Promise<CountingServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const index = requests.length;
      requests.push(`${req.method} ${req.url}`);
      (steps[Math.min(index, steps.length - 1)] as Step)(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function client(
  server: CountingServer,
  retry: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number } = FAST,
): ApiClient {
  return createApiClient({ baseUrl: `${server.origin}/v1`, apiKey: KEY, retry });
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
/** Drops the connection without any answer. */
const drop: Step = (req) => req.socket.destroy();

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`Expected a failure, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).message).not.toContain(KEY);
  return error as ApiError;
}

describe('reads (GET) are retried', () => {
  it('succeed after one 503', async () => {
    const server = await countingServer([json(503, { status: 'error', message: 'Overloaded' }), json(200, PHONES_OK)]);
    const phones = await client(server).listPhones();
    expect(phones.map((p) => p.number)).toEqual(['+14155550123']);
    expect(server.requests).toEqual(['GET /v1/phones', 'GET /v1/phones']);
  });

  it('succeed after one dropped connection', async () => {
    const server = await countingServer([drop, json(200, PHONES_OK)]);
    expect(await client(server).listPhones()).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it.each([502, 504, 429])('succeed after one %i', async (status) => {
    const server = await countingServer([json(status, { status: 'error' }), json(200, PHONES_OK)]);
    expect(await client(server).listPhones()).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('give up after 3 attempts of 503 with a server error carrying the last answer', async () => {
    const server = await countingServer([json(503, { status: 'error', message: 'Still overloaded' })]);
    const error = await failure(client(server).getPhone('+14155550123'));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(503);
    expect(error.serverMessage).toBe('Still overloaded');
    expect(server.requests).toEqual(Array(3).fill('GET /v1/phones/%2B14155550123'));
  });

  it('give up after 3 dropped connections with a network error', async () => {
    const server = await countingServer([drop]);
    const error = await failure(client(server).listWebhooks());
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/Could not reach 127\.0\.0\.1/);
    expect(server.requests).toHaveLength(3);
  });
});

describe('reads (GET) are retried: waits, Retry-After and timeouts', () => {
  /** A client whose waits between attempts are recorded (in ms) and pass at once: a fake clock. */
  function clientWithClock(server: CountingServer, retry: { baseDelayMs: number; maxDelayMs: number }) {
    const waits: number[] = [];
    const c = createApiClient({
      baseUrl: `${server.origin}/v1`,
      apiKey: KEY,
      retry,
      wait: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    return { client: c, waits };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('back off between attempts: base, then twice the base', async () => {
    const server = await countingServer([json(503, { status: 'error' })]);
    const { client: c, waits } = clientWithClock(server, { baseDelayMs: 100, maxDelayMs: 1_000 });
    await failure(c.listPhones());
    expect(waits).toEqual([100, 200]);
    expect(server.requests).toHaveLength(3);
  });

  it('honour the attempts option (1 = no retry)', async () => {
    const server = await countingServer([json(503, { status: 'error' })]);
    expect((await failure(client(server, { attempts: 1 }).listPhones())).status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it('wait as long as a 429 Retry-After in seconds asks', async () => {
    const server = await countingServer([json(429, { status: 'error' }, { 'Retry-After': '1' }), json(200, PHONES_OK)]);
    const { client: c, waits } = clientWithClock(server, { baseDelayMs: 10, maxDelayMs: 5_000 });
    expect(await c.listPhones()).toHaveLength(1);
    expect(waits).toEqual([1_000]);
  });

  it('wait as long as a 503 Retry-After HTTP-date asks', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const server = await countingServer([
      json(503, { status: 'error' }, { 'Retry-After': 'Thu, 01 Jan 2026 00:00:02 GMT' }),
      json(200, PHONES_OK),
    ]);
    const { client: c, waits } = clientWithClock(server, { baseDelayMs: 10, maxDelayMs: 5_000 });
    expect(await c.listPhones()).toHaveLength(1);
    expect(waits).toEqual([2_000]);
  });

  it('cap a Retry-After of an hour at maxDelayMs', async () => {
    const server = await countingServer([
      json(429, { status: 'error' }, { 'Retry-After': '3600' }),
      json(200, PHONES_OK),
    ]);
    const { client: c, waits } = clientWithClock(server, { baseDelayMs: 10, maxDelayMs: 300 });
    expect(await c.listPhones()).toHaveLength(1);
    expect(waits).toEqual([300]);
  });

  it('do not repeat a timeout: the user already waited the full timeout', async () => {
    const server = await countingServer([() => undefined]);
    const c = createApiClient({ baseUrl: `${server.origin}/v1`, apiKey: KEY, timeoutMs: 200, retry: FAST });
    expect((await failure(c.listPhones())).kind).toBe('timeout');
    expect(server.requests).toHaveLength(1);
  });

  it('give each attempt its own timeout', async () => {
    // Each attempt's fetch gets its own timeout signal, not what is left of the first one's.
    const signals: AbortSignal[] = [];
    const answers = [new Response('{"status":"error"}', { status: 503 }), Response.json(PHONES_OK)];
    const c = createApiClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: KEY,
      timeoutMs: 250,
      retry: FAST,
      wait: () => Promise.resolve(),
      fetch: (_input, init) => {
        signals.push(init!.signal!);
        return Promise.resolve(answers[signals.length - 1]!);
      },
    });
    expect(await c.listPhones()).toHaveLength(1);
    expect(signals).toHaveLength(2);
    expect(signals[1]).not.toBe(signals[0]);
    expect(signals[1]!.aborted).toBe(false);
  });
});

describe('writes are sent exactly once', () => {
  it('PUT on 503', async () => {
    const server = await countingServer([json(503, { status: 'error' }), json(200, PHONE_OK)]);
    const error = await failure(client(server).updatePhone('+14155550123', { name: 'Main' }));
    expect(error.status).toBe(503);
    expect(server.requests).toEqual(['PUT /v1/phones/%2B14155550123']);
  });

  it('POST on 503', async () => {
    const server = await countingServer([json(503, { status: 'error' }), json(200, TRUNK_OK)]);
    const error = await failure(client(server).createSipTrunk({ name: 'PBX', terminationUri: 'sip:pbx.example.com' }));
    expect(error.status).toBe(503);
    expect(server.requests).toEqual(['POST /v1/sip-trunks']);
  });

  it('DELETE on 503', async () => {
    const server = await countingServer([json(503, { status: 'error' }), json(200, { status: 'success' })]);
    const error = await failure(client(server).deleteWebhook('wh_1'));
    expect(error.status).toBe(503);
    expect(server.requests).toEqual(['DELETE /v1/webhooks/wh_1']);
  });

  it('POST on a dropped connection', async () => {
    const server = await countingServer([drop, json(200, TRUNK_OK)]);
    expect((await failure(client(server).createSipTrunk({ name: 'PBX', terminationUri: 'sip:x' }))).kind).toBe(
      'network',
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('answers that are not retried', () => {
  it.each([
    [404, 'not_found'],
    [401, 'unauthorized'],
    [400, 'bad_input'],
    [500, 'server'],
  ] as const)('%i is final (%s)', async (status, kind) => {
    const server = await countingServer([json(status, { status: 'error' }), json(200, PHONES_OK)]);
    const error = await failure(client(server).listPhones());
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });
});

describe('retry arithmetic', () => {
  it('reads Retry-After as seconds or as an HTTP-date, and ignores anything else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs('7', now)).toBe(7_000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
    expect(parseRetryAfterMs('-5', now)).toBeUndefined();
    expect(parseRetryAfterMs('1.5', now)).toBeUndefined();
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
  });

  it('doubles the base and caps at the maximum, Retry-After included', () => {
    const options = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 350 });
    expect([1, 2, 3].map((n) => retryDelayMs(n, options))).toEqual([100, 200, 350]);
    expect(retryDelayMs(1, options, 3_600_000)).toBe(350);
    expect(retryDelayMs(1, options, 0)).toBe(0);
  });

  it('defaults to 3 attempts, 300 ms base, 5 s cap, and clamps nonsense', () => {
    expect(resolveRetryOptions(undefined)).toEqual({ attempts: 3, baseDelayMs: 300, maxDelayMs: 5_000 });
    expect(resolveRetryOptions({ attempts: 0, baseDelayMs: -1, maxDelayMs: Number.NaN })).toEqual({
      attempts: 1,
      baseDelayMs: 0,
      maxDelayMs: 5_000,
    });
  });
});
