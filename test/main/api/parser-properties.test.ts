/**
 * Properties of the response schemas (electron/main/api/schemas.ts) and of the client
 * (electron/main/api/client.ts) on arbitrary input: a parse never throws and any success has the
 * domain shape; a call ends as a value or as an ApiError of a known kind, never as another
 * exception, and its message never contains the API key.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../electron/main/api/client';
import {
  interactionEnvelope,
  phoneEnvelope,
  phonesEnvelope,
  sipTrunkEnvelope,
  sipTrunksEnvelope,
  webhookEnvelope,
  webhooksEnvelope,
  type ParsedInteraction,
} from '../../../electron/main/api/schemas';
import type { Phone, SipTrunk, Webhook } from '../../../electron/shared/domain';
import { ApiError, type ApiErrorKind } from '../../../electron/shared/errors';

/** Runs per in-memory property (each is a parse or a call on an injected fetch). */
const RUNS = 2_000;
/** Runs of the property that goes through real HTTP on 127.0.0.1. */
const HTTP_RUNS = 300;
const KEY = 'sk_live_PropKey7fQ2xZ9w';
const KINDS: readonly ApiErrorKind[] = [
  'unauthorized',
  'not_found',
  'network',
  'timeout',
  'invalid_response',
  'server',
  'bad_input',
  'keychain',
];

// ---------- generators ----------

/** Anything the spec's number fields might carry, with the awkward cases weighted in. */
const numberLike = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer({ min: 0, max: 7_200 }),
  fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }),
  fc.integer({ min: 1_000_000_000_000, max: 2_000_000_000_000 }),
  fc.double(),
  fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, 1e300, -1e300, 0, -0),
  fc.stringMatching(/^-?\d{1,20}(\.\d{1,4})?$/),
  fc.constant('9'.repeat(400)),
  fc.constant(`-${'9'.repeat(400)}`),
);
/** Valid values only: wrong types come from {@link mutated}, so most structured payloads parse. */
const stringLike = fc.oneof(fc.constant(null), fc.constant(undefined), fc.string());
const boolLike = fc.oneof(fc.constant(null), fc.constant(undefined), fc.boolean());
/** A required identifier: mostly valid, sometimes empty or of the wrong type. */
const sidLike = fc.oneof(
  { weight: 10, arbitrary: fc.string({ minLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('', 7, null) },
);
/** A record whose fields are each absent, or present with the given value. */
const partial = <T extends Record<string, unknown>>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
  fc.record(model, { requiredKeys: [] });

const logEntryWire = partial({ role: stringLike, message: stringLike, timestamp: numberLike });
const logEntry = fc.oneof({ weight: 8, arbitrary: logEntryWire }, { weight: 1, arbitrary: mutated(logEntryWire) });
const interactionWire = partial({
  sid: sidLike,
  from_number: stringLike,
  to_number: stringLike,
  direction: stringLike,
  type: stringLike,
  status: stringLike,
  agent_sid: stringLike,
  started_at: numberLike,
  ended_at: numberLike,
  duration: numberLike,
  variables: fc.oneof(fc.constant(null), fc.dictionary(fc.string(), fc.jsonValue())),
  recording_url: stringLike,
  log: fc.oneof(fc.constant(null), fc.array(logEntry, { maxLength: 25 })),
});
const phoneWire = partial({
  sid: stringLike,
  name: stringLike,
  number: sidLike,
  sip_trunk: fc.oneof(fc.constant(null), partial({ sid: stringLike, name: stringLike, system: boolLike })),
  created_at: stringLike,
  updated_at: stringLike,
  inbound_agent_id: stringLike,
  outbound_agent_id: stringLike,
});
const sipTrunkWire = partial({
  sid: sidLike,
  name: stringLike,
  termination_uri: stringLike,
  created_at: stringLike,
  updated_at: stringLike,
  sip_username: stringLike,
  sip_password: stringLike,
});
const webhookWire = partial({
  sid: fc.oneof(sidLike, fc.integer(), fc.double()),
  url: stringLike,
  call_started_event: boolLike,
  call_ended_event: boolLike,
  created_at: stringLike,
  updated_at: stringLike,
  api_key: fc.oneof(fc.constant(null), partial({ sid: stringLike, name: stringLike })),
  phone_number: fc.oneof(fc.constant(null), partial({ sid: stringLike, number: stringLike, name: stringLike })),
});

/** A structured payload with one field (or a new one) set to an arbitrary value: a "mutated valid payload". */
function mutated(base: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(base, fc.string({ maxLength: 20 }), fc.anything(), fc.nat())
    .map(([record, extraKey, value, pick]) => {
      const keys = Object.keys(record);
      const key = keys.length > 0 && pick % 3 !== 0 ? (keys[pick % keys.length] as string) : extraKey;
      return { ...record, [key]: value };
    });
}

/** Generators for the payload under one envelope key: structured, mutated, or anything at all. */
function payloads(wire: fc.Arbitrary<Record<string, unknown>>, list: boolean): fc.Arbitrary<unknown> {
  const one = fc.oneof(wire, mutated(wire));
  return list
    ? fc.oneof({ weight: 4, arbitrary: fc.array(one, { maxLength: 8 }) }, { weight: 1, arbitrary: fc.anything() })
    : one;
}

// ---------- domain shape checks ----------

const isStringOrNull = (v: unknown) => v === null || typeof v === 'string';
const isFiniteOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));

function expectInteraction(p: ParsedInteraction): void {
  expect(typeof p.sid === 'string' && p.sid.length > 0).toBe(true);
  for (const v of [p.fromNumber, p.toNumber, p.direction, p.type, p.status, p.agentSid, p.recordingUrl]) {
    expect(isStringOrNull(v)).toBe(true);
  }
  expect(isFiniteOrNull(p.startedAtMs)).toBe(true);
  expect(isFiniteOrNull(p.endedAtMs)).toBe(true);
  expect(isFiniteOrNull(p.durationSeconds)).toBe(true);
  if (p.durationSeconds !== null) expect(p.durationSeconds).toBeGreaterThanOrEqual(0);
  for (const value of Object.values(p.variables)) expect(typeof value).toBe('string');
  expect(p.log.map((e) => e.index).sort((a, b) => a - b)).toEqual(p.log.map((_, i) => i));
  let previous = -Infinity;
  for (const entry of p.log) {
    expect(typeof entry.role).toBe('string');
    expect(typeof entry.message).toBe('string');
    if (entry.offsetSeconds === null) continue;
    expect(Number.isFinite(entry.offsetSeconds)).toBe(true);
    expect(entry.offsetSeconds).toBeGreaterThanOrEqual(0);
    expect(entry.offsetSeconds).toBeGreaterThanOrEqual(previous);
    previous = entry.offsetSeconds;
  }
}

function expectPhone(p: Phone): void {
  expect(typeof p.number === 'string' && p.number.length > 0).toBe(true);
  for (const v of [p.sid, p.name, p.createdAt, p.updatedAt, p.inboundAgentId, p.outboundAgentId])
    expect(isStringOrNull(v)).toBe(true);
  if (p.sipTrunk !== null) {
    expect(isStringOrNull(p.sipTrunk.sid) && isStringOrNull(p.sipTrunk.name)).toBe(true);
    expect(typeof p.sipTrunk.system).toBe('boolean');
  }
}

function expectSipTrunk(t: SipTrunk): void {
  expect(typeof t.sid === 'string' && t.sid.length > 0).toBe(true);
  for (const v of [t.name, t.terminationUri, t.createdAt, t.updatedAt, t.sipUsername, t.sipPassword])
    expect(isStringOrNull(v)).toBe(true);
}

function expectWebhook(w: Webhook): void {
  expect(typeof w.sid === 'string' && w.sid.length > 0).toBe(true);
  for (const v of [w.url, w.createdAt, w.updatedAt]) expect(isStringOrNull(v)).toBe(true);
  expect(typeof w.callStartedEvent).toBe('boolean');
  expect(typeof w.callEndedEvent).toBe('boolean');
  if (w.apiKey !== null) expect(isStringOrNull(w.apiKey.sid) && isStringOrNull(w.apiKey.name)).toBe(true);
  if (w.phoneNumber !== null) {
    const n = w.phoneNumber;
    expect(isStringOrNull(n.sid) && isStringOrNull(n.number) && isStringOrNull(n.name)).toBe(true);
  }
}

interface SchemaCase {
  name: string;
  key: string;
  schema: { safeParse(input: unknown): { success: boolean; data?: unknown } };
  payload: fc.Arbitrary<unknown>;
  check: (data: unknown) => void;
}

const cases: SchemaCase[] = [
  {
    name: 'interactionEnvelope',
    key: 'interaction',
    schema: interactionEnvelope,
    payload: payloads(interactionWire, false),
    check: (d) => expectInteraction(d as ParsedInteraction),
  },
  {
    name: 'phonesEnvelope',
    key: 'phones',
    schema: phonesEnvelope,
    payload: payloads(phoneWire, true),
    check: (d) => (d as Phone[]).forEach(expectPhone),
  },
  {
    name: 'phoneEnvelope',
    key: 'phone',
    schema: phoneEnvelope,
    payload: payloads(phoneWire, false),
    check: (d) => expectPhone(d as Phone),
  },
  {
    name: 'sipTrunksEnvelope',
    key: 'sip_trunks',
    schema: sipTrunksEnvelope,
    payload: payloads(sipTrunkWire, true),
    check: (d) => (d as SipTrunk[]).forEach(expectSipTrunk),
  },
  {
    name: 'sipTrunkEnvelope',
    key: 'sip_trunk',
    schema: sipTrunkEnvelope,
    payload: payloads(sipTrunkWire, false),
    check: (d) => expectSipTrunk(d as SipTrunk),
  },
  {
    name: 'webhooksEnvelope',
    key: 'webhooks',
    schema: webhooksEnvelope,
    payload: payloads(webhookWire, true),
    check: (d) => (d as Webhook[]).forEach(expectWebhook),
  },
  {
    name: 'webhookEnvelope',
    key: 'webhook',
    schema: webhookEnvelope,
    payload: payloads(webhookWire, false),
    check: (d) => expectWebhook(d as Webhook),
  },
];

describe.each(cases)('$name', ({ key, schema, payload, check }) => {
  const holds = (input: unknown): void => {
    const result = schema.safeParse(input);
    if (result.success) check(result.data);
  };

  it('never throws on fc.anything(), bare or under its key', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => holds(value)),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.anything(), (value) => holds({ status: 'success', [key]: value })),
      { numRuns: RUNS },
    );
  });

  it('never throws on fc.jsonValue() under its key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => holds({ status: 'success', [key]: value })),
      { numRuns: RUNS },
    );
  });

  it('parses structured and mutated payloads into the domain shape, or fails cleanly', () => {
    let successes = 0;
    fc.assert(
      fc.property(payload, (value) => {
        const result = schema.safeParse({ status: 'success', [key]: value });
        if (result.success) {
          successes++;
          check(result.data);
        }
      }),
      { numRuns: RUNS },
    );
    // The generators must reach the success path often, or the shape checks prove nothing.
    expect(successes).toBeGreaterThan(RUNS / 20);
  });
});

describe('interactionEnvelope at the edges of a double', () => {
  // Differences of huge epoch values overflow to Infinity; the domain still promises finite numbers.
  const extreme = fc.oneof(
    fc.constant(null),
    fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, 1e300, -1e300, 1e11, -1e11, 1e9, -1e9, 0, Number.MIN_VALUE),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
  const wire = fc.record({
    sid: fc.constant('interaction_1'),
    started_at: extreme,
    ended_at: extreme,
    duration: extreme,
    log: fc.array(fc.record({ timestamp: extreme }), { maxLength: 6 }),
  });

  it('keeps every time finite and every offset finite, non-negative and in order', () => {
    fc.assert(
      fc.property(wire, (interaction) => {
        const result = interactionEnvelope.safeParse({ status: 'success', interaction });
        expect(result.success).toBe(true);
        if (result.success) expectInteraction(result.data);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------- the client on arbitrary answers ----------

type Call = (client: ApiClient) => Promise<unknown>;
const CALLS: readonly [string, Call][] = [
  ['getInteraction', (c) => c.getInteraction('interaction_1')],
  ['listPhones', (c) => c.listPhones()],
  ['getPhone', (c) => c.getPhone('+14155550123')],
  ['updatePhone', (c) => c.updatePhone('+14155550123', { name: 'Main' })],
  ['createSipTrunk', (c) => c.createSipTrunk({ name: 'PBX', terminationUri: 'sip:pbx.example.com' })],
  ['listSipTrunks', (c) => c.listSipTrunks()],
  ['getSipTrunk', (c) => c.getSipTrunk('sip_1')],
  ['listWebhooks', (c) => c.listWebhooks()],
  ['getWebhook', (c) => c.getWebhook('wh_1')],
  ['deleteWebhook', (c) => c.deleteWebhook('wh_1')],
];
const PAYLOAD_KEYS = ['interaction', 'phones', 'phone', 'sip_trunk', 'sip_trunks', 'webhooks', 'webhook'];
/** Statuses whose Response may not carry a body. */
const NULL_BODY = new Set([204, 205, 304]);

/** JSON.stringify as it behaves: undefined for undefined, functions and symbols (its type says string). */
const jsonText = (value: unknown): string | undefined => JSON.stringify(value);

function stringifyOrEmpty(value: unknown): string {
  try {
    return jsonText(value) ?? '';
  } catch {
    return '';
  }
}

/** Bodies a server might send: text, JSON, bytes, envelopes with odd payloads, the key echoed. */
const body: fc.Arbitrary<string | Uint8Array<ArrayBuffer>> = fc.oneof(
  fc.string(),
  fc.json(),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => new Uint8Array(bytes)),
  fc
    .tuple(
      fc.oneof(fc.constant('success'), fc.constant('error'), fc.string(), fc.anything()),
      fc.constantFrom(...PAYLOAD_KEYS),
      fc.anything(),
    )
    .map(([status, key, value]) => stringifyOrEmpty({ status, [key]: value })),
  fc
    .constantFrom(...cases)
    .chain((c) => c.payload.map((value) => stringifyOrEmpty({ status: 'success', [c.key]: value }))),
  fc
    .tuple(
      fc.constantFrom('message', 'error', 'detail', 'title', 'msg'),
      fc.string({ maxLength: 40 }),
      fc.string({ maxLength: 40 }),
    )
    .map(([field, before, after]) => stringifyOrEmpty({ status: 'error', [field]: `${before}${KEY}${after}` })),
  fc.tuple(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 })).map(([a, b]) => `${a}${KEY}${b}`),
);
const status = fc.oneof(
  fc.constantFrom(200, 201, 204, 400, 401, 404, 429, 500, 502, 503, 504),
  fc.integer({ min: 200, max: 599 }),
);
const retryAfter = fc.option(
  fc.oneof(
    fc.nat({ max: 10_000 }).map(String),
    fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toUTCString())),
    fc.string({ maxLength: 10 }),
  ),
);

/** Any outcome must be a value or an ApiError of a known kind whose messages do not hold the key. */
async function expectValueOrApiError(promise: Promise<unknown>): Promise<void> {
  let error: unknown;
  try {
    await promise;
    return;
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect(KINDS).toContain(apiError.kind);
  expect(typeof apiError.message).toBe('string');
  expect(apiError.message.trim().length).toBeGreaterThan(0);
  expect(apiError.message).not.toContain(KEY);
  if (apiError.serverMessage !== undefined) expect(apiError.serverMessage).not.toContain(KEY);
}

/** Zero backoff: a retried read costs a timer tick, not a wait. */
const NO_WAIT = { baseDelayMs: 0, maxDelayMs: 0 };

/** What the loopback server does with a request. */
type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * A loopback HTTP server on 127.0.0.1 for the enclosing describe (started before its tests, closed
 * after); a test sets `answer` to decide what the next requests get, and `client()` reaches it.
 */
function useLoopbackServer(): { answer: Answer; client: (timeoutMs?: number) => ApiClient } {
  let server: http.Server;
  let origin = '';
  const loopback = {
    answer: ((_req, res) => res.end()) as Answer,
    client: (timeoutMs = 2_000): ApiClient =>
      createApiClient({ baseUrl: `${origin}/v1`, apiKey: KEY, timeoutMs, retry: NO_WAIT }),
  };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        loopback.answer(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return loopback;
}

describe('the client on arbitrary answers', () => {
  it(`ends in a value or a typed ApiError without the key (in memory, ${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLS), status, body, retryAfter, async ([, call], code, text, after) => {
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (after !== null && /^[\t\x20-\x7e]*$/.test(after)) headers['Retry-After'] = after;
        const fakeFetch: typeof fetch = () =>
          Promise.resolve(new Response(NULL_BODY.has(code) ? null : text, { status: code, headers }));
        await expectValueOrApiError(
          call(
            createApiClient({ baseUrl: 'https://api.example.com/v1', apiKey: KEY, fetch: fakeFetch, retry: NO_WAIT }),
          ),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it(`ends in a typed ApiError when fetch itself fails in any way (in memory, ${RUNS} runs)`, async () => {
    const failures = fc.oneof(
      fc.anything(),
      fc.string().map((m) => new Error(m)),
      fc.constantFrom('TimeoutError', 'AbortError', 'TypeError').map((name) => Object.assign(new Error('x'), { name })),
      fc
        .tuple(fc.anything(), fc.anything())
        .map(([code, message]) => new TypeError('fetch failed', { cause: { code, message } })),
      fc.string().map((m) => new TypeError('fetch failed', { cause: m })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLS), failures, async ([, call], thrown) => {
        const fakeFetch: typeof fetch = () =>
          Promise.resolve().then(() => {
            throw thrown;
          });
        await expectValueOrApiError(
          call(
            createApiClient({ baseUrl: 'https://api.example.com/v1', apiKey: KEY, fetch: fakeFetch, retry: NO_WAIT }),
          ),
        );
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the client on arbitrary answers over real HTTP on 127.0.0.1', () => {
  const loopback = useLoopbackServer();

  it(`ends in a value or a typed ApiError on raw bytes, any status, dropped sockets (${HTTP_RUNS} runs)`, async () => {
    const action = fc.oneof(
      { weight: 8, arbitrary: fc.tuple(status, body).map(([code, text]) => ({ kind: 'send' as const, code, text })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'drop' as const }) },
      { weight: 1, arbitrary: body.map((text) => ({ kind: 'cut' as const, text })) },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLS), action, async ([, call], act) => {
        loopback.answer = (req, res) => {
          if (act.kind === 'drop') {
            req.socket.destroy();
          } else if (act.kind === 'cut') {
            // Promises more than it sends, then hangs up mid-body.
            res.writeHead(200, { 'Content-Length': String(Buffer.byteLength(act.text) + 100) });
            res.write(act.text);
            setImmediate(() => res.socket?.destroy());
          } else {
            res.writeHead(act.code, { 'Content-Type': 'application/json' });
            res.end(act.text);
          }
        };
        await expectValueOrApiError(call(loopback.client()));
      }),
      { numRuns: HTTP_RUNS },
    );
  });
});

describe('the client on extreme answers over real HTTP on 127.0.0.1', () => {
  const loopback = useLoopbackServer();

  it('reads a 10 MB string inside valid JSON', async () => {
    const name = 'x'.repeat(10 * 1024 * 1024);
    loopback.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', phones: [{ number: '+14155550123', name }] }));
    };
    const phones = await loopback.client(5_000).listPhones();
    expect(phones[0]?.name).toHaveLength(name.length);
  });

  it.each([
    ['a list of phones', (deep: string) => `{"status":"success","phones":${deep}}`],
    [
      'an interaction variable',
      (deep: string) => `{"status":"success","interaction":{"sid":"i1","variables":{"v":${deep}}}}`,
    ],
    ['an error body', (deep: string) => `{"status":"error","message":${deep}}`],
  ])('ends in a value or a typed error on an array nested 10 000 deep in %s', async (_where, wrap) => {
    const depth = 10_000;
    const text = wrap(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    loopback.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(text);
    };
    const c = loopback.client(5_000);
    await expectValueOrApiError(text.includes('interaction') ? c.getInteraction('i1') : c.listPhones());
  });

  it('reads an interaction variable nested 10 000 deep as text instead of failing', async () => {
    const depth = 10_000;
    loopback.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        `{"status":"success","interaction":{"sid":"i1","variables":{"v":${'['.repeat(depth)}${']'.repeat(depth)},"w":7}}}`,
      );
    };
    const interaction = await loopback.client(5_000).getInteraction('i1');
    expect(typeof interaction.variables.v).toBe('string');
    expect(interaction.variables.w).toBe('7');
  });

  it.each([
    ['offsets', (i: number) => i, ''],
    ['absolute times without a start', (i: number) => 1_700_000_000 + i, ''],
    ['absolute times with a start', (i: number) => 1_700_000_000 + i, '"started_at":1700000000,'],
  ])('ends in a value or a typed error on a log of 200 000 %s', async (_what, timestamp, start) => {
    // timestamps.ts spreads the log into Math.min/Math.max, which overflows the stack at this size.
    const log = `[${Array.from({ length: 200_000 }, (_, i) => `{"timestamp":${timestamp(i)}}`).join(',')}]`;
    loopback.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`{"status":"success","interaction":{"sid":"i1",${start}"log":${log}}}`);
    };
    await expectValueOrApiError(loopback.client(5_000).getInteraction('i1'));
  });
});
