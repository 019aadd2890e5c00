/**
 * The API client (electron/main/api/client.ts) over real HTTP on 127.0.0.1: against the embedded
 * demo service for the ten endpoints of spec 4, and against a small hostile server written here
 * for every way a server can answer badly.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient, type ClientOptions } from '../../../electron/main/api/client';
import { MAX_BODY_BYTES } from '../../../electron/main/api/http-errors';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import { ApiError } from '../../../electron/shared/errors';
import { textContaining } from '../../fixtures/matchers';
import { selfSignedCertificate } from '../../fixtures/self-signed';
import { RESOURCES_DIR } from '../../fixtures/paths';

const DENTAL_SID = 'interaction_a11be33b-a3c4-45fc-8bb4-fa63399cb100';
const IN_PROGRESS_SID = 'interaction_ce620b66-e2a0-4c13-8abe-08b82f3a7b18';
const MAIN_LINE = '+14155550123';
const HARBOR_TRUNK_SID = 'sip_b4dc1433-bd91-4c37-9f4f-565f0382e1ac';
const DENTAL_WEBHOOK_SID = 'wh_d73197c9-90ca-476f-8ccc-0134c1d9905d';
const AGENT_A = 'agent_11111111-2222-4333-8444-555555555555';
/** A key distinctive enough that finding it in any message is certainly a leak. */
const SECRET_KEY = 'sk_live_Zq8WmXv3SecretKey9917';

let demo: DemoServer;
let hostile: http.Server;
let hostileOrigin: string;
/** Servers that accept a request and never answer (timeout tests). */
let silent: http.Server;
let silentOrigin: string;

type Route = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}
const routes = new Map<string, Route>();
const seen = new Map<string, SeenRequest[]>();

beforeAll(async () => {
  demo = await startDemoServer({ resourcesDir: RESOURCES_DIR });

  hostile = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const name = (req.url ?? '/').split('/')[1] ?? '';
      const list = seen.get(name) ?? [];
      list.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
      seen.set(name, list);
      const route = routes.get(name);
      if (route) route(req, res, body);
      else {
        res.writeHead(500);
        res.end('no route');
      }
    });
  });
  hostileOrigin = await listen(hostile);

  silent = http.createServer(() => {
    // Never answers.
  });
  silentOrigin = await listen(silent);
});

afterAll(async () => {
  await demo.close();
  for (const server of [hostile, silent]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function demoClient(options: Partial<ClientOptions> = {}): ApiClient {
  return createApiClient({ baseUrl: demo.baseUrl, apiKey: demo.apiKey, ...options });
}

/** A client whose base URL is `<hostile>/<name>/v1`; every request it makes is answered by `route`. */
function hostileClient(name: string, route: Route, options: Partial<ClientOptions> = {}): ApiClient {
  routes.set(name, route);
  return createApiClient({ baseUrl: `${hostileOrigin}/${name}/v1`, apiKey: SECRET_KEY, ...options });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendText(res: http.ServerResponse, status: number, body: string, type = 'text/plain'): void {
  res.writeHead(status, { 'Content-Type': type });
  res.end(body);
}

/** A message a support person can read: a sentence, no code-ish leftovers, never the key. */
function expectHumanMessage(message: string, key: string): void {
  expect(message.length).toBeGreaterThan(20);
  expect(message).toMatch(/^[A-Z0-9]/);
  expect(message).toContain(' ');
  expect(message).not.toContain(key);
  expect(message).not.toMatch(/undefined|\[object|TypeError|ZodError|Unexpected token|at \w+ \(/);
}

/** Awaits a call that must fail and returns its ApiError (after checking its message). */
async function failure(promise: Promise<unknown>, key = SECRET_KEY): Promise<ApiError> {
  const outcome = await promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error(`Expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ApiError);
  const error = outcome.error as ApiError;
  expectHumanMessage(error.message, key);
  if (error.serverMessage !== undefined) expect(error.serverMessage).not.toContain(key);
  return error;
}

describe('the ten endpoints against the demo service', () => {
  it('reads an interaction as the review screen needs it (endpoint 1)', async () => {
    const interaction = await demoClient().getInteraction(DENTAL_SID);
    expect(interaction).toMatchObject({
      sid: DENTAL_SID,
      fromNumber: '+14155550172',
      toNumber: MAIN_LINE,
      direction: 'inbound',
      type: 'phone_call',
      status: 'completed',
      agentSid: 'agent_43339db7-ea93-4709-971a-7eafbb3b955d',
      startedAtMs: 1793725928000,
      endedAtMs: 1793726024000,
      durationSeconds: 96,
    });
    expect(interaction.variables.customer_name).toBe('Daniel Reyes');
    expect(interaction.recordingUrl).toBe(`${demo.baseUrl}/recordings/${DENTAL_SID}.ogg`);
    expect(interaction.log).toHaveLength(26);
    expect(interaction.log[0]).toEqual({
      index: 0,
      role: 'agent',
      message: textContaining('Brightsmile Dental'),
      offsetSeconds: 0.35,
    });
  });

  it('reads an interaction still in progress, with no end and no recording', async () => {
    const interaction = await demoClient().getInteraction(IN_PROGRESS_SID);
    expect(interaction.status).toBe('in_progress');
    expect(interaction.endedAtMs).toBeNull();
    expect(interaction.durationSeconds).toBeNull();
    expect(interaction.recordingUrl).toBeNull();
    expect(interaction.log.length).toBeGreaterThan(0);
  });

  it('lists the phones (endpoint 2)', async () => {
    const phones = await demoClient().listPhones();
    expect(phones.length).toBeGreaterThanOrEqual(3);
    const main = phones.find((p) => p.number === MAIN_LINE);
    expect(main).toMatchObject({
      sid: 'phone_407f62af-2e02-4d66-9a7e-d9953d4e81f1',
      sipTrunk: { system: true, sid: 'sip_49011db8-90ca-4e90-b4f5-9716e07d5002', name: 'Platform PSTN' },
      createdAt: '2026-09-14T16:20:45.117Z',
    });
    // A phone with no outbound agent in the seed reads as null, not as a missing key or "undefined".
    expect(phones.find((p) => p.number === '+14155550188')?.outboundAgentId).toBeNull();
  });

  it('reads one phone by its E.164 number: the + survives the path (endpoint 3)', async () => {
    const phone = await demoClient().getPhone(MAIN_LINE);
    expect(phone.number).toBe(MAIN_LINE);
    expect(phone.name).toBe('Main line — Brightsmile Dental');
    expect(phone.inboundAgentId).toBe('agent_43339db7-ea93-4709-971a-7eafbb3b955d');
  });
});

describe('the endpoints that change a phone', () => {
  it('updates only the fields given; the others stay as they were (endpoint 4)', async () => {
    const server = await startDemoServer({ resourcesDir: RESOURCES_DIR });
    try {
      const client = createApiClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
      const before = await client.getPhone('+16175550142');
      const updated = await client.updatePhone('+16175550142', { name: 'Billing line (renamed)' });
      expect(updated.name).toBe('Billing line (renamed)');
      const after = await client.getPhone('+16175550142');
      expect(after.name).toBe('Billing line (renamed)');
      expect(after.inboundAgentId).toBe(before.inboundAgentId);
      expect(after.outboundAgentId).toBe(before.outboundAgentId);
      expect(after.sipTrunk).toEqual(before.sipTrunk);

      const reassigned = await client.updatePhone('+16175550142', { outboundAgentId: AGENT_A });
      expect(reassigned.outboundAgentId).toBe(AGENT_A);
      const final = await client.getPhone('+16175550142');
      expect(final).toMatchObject({
        name: 'Billing line (renamed)',
        inboundAgentId: before.inboundAgentId,
        outboundAgentId: AGENT_A,
      });
    } finally {
      await server.close();
    }
  });

  it('sends exactly the changed fields in the PUT body, with the spec names', async () => {
    const client = hostileClient('put-body', (_req, res) =>
      sendJson(res, 200, { status: 'success', phone: { number: '+14155550123', name: 'New name' } }),
    );
    await client.updatePhone('+14155550123', { name: 'New name' });
    await client.updatePhone('+14155550123', { inboundAgentId: AGENT_A, outboundAgentId: AGENT_A });
    const requests = seen.get('put-body') ?? [];
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ['PUT', '/put-body/v1/phones/%2B14155550123'],
      ['PUT', '/put-body/v1/phones/%2B14155550123'],
    ]);
    expect(JSON.parse(requests[0]!.body)).toEqual({ name: 'New name' });
    expect(JSON.parse(requests[1]!.body)).toEqual({ inbound_agent_id: AGENT_A, outbound_agent_id: AGENT_A });
    expect(requests.every((r) => r.authorization === `Bearer ${SECRET_KEY}`)).toBe(true);
  });
});

describe('the SIP trunk endpoints', () => {
  it('creates a SIP trunk with credentials, then finds it by sid and in the list (endpoints 5, 6, 7)', async () => {
    const client = demoClient();
    const created = await client.createSipTrunk({
      name: 'Test PBX with credentials',
      terminationUri: 'sip:pbx.test.example.com:5061',
      sipUsername: 'tester',
      sipPassword: 'pa55-word',
    });
    expect(created.sid).toMatch(/^sip_[0-9a-f-]{36}$/);
    expect(created).toMatchObject({
      name: 'Test PBX with credentials',
      terminationUri: 'sip:pbx.test.example.com:5061',
      sipUsername: 'tester',
      sipPassword: 'pa55-word',
    });
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await client.getSipTrunk(created.sid)).toEqual(created);
    expect((await client.listSipTrunks()).map((t) => t.sid)).toContain(created.sid);
  });

  it('creates a SIP trunk without credentials: none are sent, none come back', async () => {
    const created = await demoClient().createSipTrunk({ name: 'Open PBX', terminationUri: 'pbx.open.example.org' });
    expect(created).toMatchObject({
      name: 'Open PBX',
      terminationUri: 'pbx.open.example.org',
      sipUsername: null,
      sipPassword: null,
    });

    const spy = hostileClient('trunk-body', (_req, res) =>
      sendJson(res, 201, { status: 'success', sip_trunk: { sid: 'sip_x', name: 'Open PBX' } }),
    );
    await spy.createSipTrunk({ name: 'Open PBX', terminationUri: 'pbx.open.example.org' });
    const [request] = seen.get('trunk-body') ?? [];
    expect(request?.method).toBe('POST');
    expect(JSON.parse(request!.body)).toEqual({ name: 'Open PBX', termination_uri: 'pbx.open.example.org' });
  });

  it('reads a seeded SIP trunk with its credentials', async () => {
    expect(await demoClient().getSipTrunk(HARBOR_TRUNK_SID)).toMatchObject({
      name: 'Harbor Energy PBX',
      terminationUri: 'sip:pbx.harbor-energy.example.com:5061;transport=tls',
      sipUsername: 'harbor-voice',
    });
  });
});

describe('the webhook endpoints', () => {
  it('lists and reads webhooks, with optional api_key and phone_number (endpoints 8, 9)', async () => {
    const client = demoClient();
    const webhooks = await client.listWebhooks();
    expect(webhooks.map((w) => w.sid)).toContain(DENTAL_WEBHOOK_SID);
    const noPhone = webhooks.find((w) => w.sid === 'wh_a4e0d242-2f14-4287-99cb-6401853f56f1');
    expect(noPhone).toMatchObject({ callStartedEvent: false, callEndedEvent: true, phoneNumber: null });
    expect(await client.getWebhook(DENTAL_WEBHOOK_SID)).toMatchObject({
      url: 'https://hooks.brightsmile-dental.example.com/voice/calls',
      callStartedEvent: true,
      callEndedEvent: true,
      createdAt: '2026-09-15T08:02:33Z',
      apiKey: { sid: 'key_ff8044e5-7a2e-47bc-a50b-faaaa953e25e', name: 'Dental CRM' },
      phoneNumber: { number: MAIN_LINE, name: 'Main line — Brightsmile Dental' },
    });
  });

  it('deletes a webhook; reading it afterwards is not_found (endpoint 10)', async () => {
    const server = await startDemoServer({ resourcesDir: RESOURCES_DIR });
    try {
      const client = createApiClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
      await expect(client.deleteWebhook(DENTAL_WEBHOOK_SID)).resolves.toBeUndefined();
      const error = await failure(client.getWebhook(DENTAL_WEBHOOK_SID), server.apiKey);
      expect(error.kind).toBe('not_found');
      expect(error.status).toBe(404);
      expect(error.message).toContain(DENTAL_WEBHOOK_SID);
      expect((await client.listWebhooks()).map((w) => w.sid)).not.toContain(DENTAL_WEBHOOK_SID);
    } finally {
      await server.close();
    }
  });
});

describe('error kinds', () => {
  it('unauthorized: a wrong key is named as the problem, and the key is not repeated', async () => {
    const wrongKey = 'demo_thisKeyIsWrong0000';
    const error = await failure(demoClient({ apiKey: wrongKey }).listPhones(), wrongKey);
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/API key/);
    expect(error.serverMessage).toBe('Invalid or missing API key');
    expect(error.message).not.toContain(demo.apiKey);
  });

  it('not_found: an unknown interaction sid, an unknown number', async () => {
    const sid = 'interaction_00000000-0000-4000-8000-000000000000';
    const error = await failure(demoClient().getInteraction(sid), demo.apiKey);
    expect(error.kind).toBe('not_found');
    expect(error.status).toBe(404);
    expect(error.message).toContain(sid);
    expect(error.serverMessage).toContain(sid);

    const phone = await failure(demoClient().getPhone('+19995550000'), demo.apiKey);
    expect(phone.kind).toBe('not_found');
    expect(phone.message).toContain('+19995550000');
  });

  it("bad_input: the server's 400 for an invalid agent id, with the server's reason", async () => {
    const error = await failure(demoClient().updatePhone(MAIN_LINE, { inboundAgentId: 'not-an-agent' }), demo.apiKey);
    expect(error.kind).toBe('bad_input');
    expect(error.status).toBe(400);
    expect(error.serverMessage).toMatch(/inbound_agent_id must be an agent SID/);
    // Nothing changed on the server.
    expect((await demoClient().getPhone(MAIN_LINE)).inboundAgentId).toBe('agent_43339db7-ea93-4709-971a-7eafbb3b955d');
  });

  it('network: a closed port gives "connection refused" with the host, not a stack trace', async () => {
    const probe = http.createServer();
    const origin = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await failure(createApiClient({ baseUrl: `${origin}/v1`, apiKey: SECRET_KEY }).listPhones());
    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(error.message).toContain(new URL(origin).host);
    expect(error.message).toMatch(/refused/);
  });

  it('timeout: a server that never answers is given up on after timeoutMs', async () => {
    const error = await failure(
      createApiClient({ baseUrl: `${silentOrigin}/v1`, apiKey: SECRET_KEY, timeoutMs: 300 }).listWebhooks(),
    );
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not answer/);
  });

  it('timeout also covers a body that starts and then stalls', async () => {
    const client = hostileClient(
      'stall-body',
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"status":"success","phones":[');
      },
      { timeoutMs: 300 },
    );
    expect((await failure(client.listPhones())).kind).toBe('timeout');
  });
});

describe('error kinds: server errors and answers without a payload', () => {
  it('server: a 500 with an error envelope', async () => {
    const client = hostileClient('http-500', (_req, res) =>
      sendJson(res, 500, { status: 'error', message: 'Database unavailable' }),
    );
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('server');
    expect(error.status).toBe(500);
    expect(error.serverMessage).toBe('Database unavailable');
    expect(error.message).toMatch(/Try again/);
  });

  it('server: a 429 says the service is rate limiting', async () => {
    const client = hostileClient('http-429', (_req, res) =>
      sendJson(res, 429, { status: 'error', message: 'Slow down' }),
    );
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(/rate limiting/);
  });

  it('server: a 200 whose envelope says status "error"', async () => {
    const client = hostileClient('ok-but-error', (_req, res) =>
      sendJson(res, 200, { status: 'error', message: 'Quota exceeded' }),
    );
    const error = await failure(client.getPhone(MAIN_LINE));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(200);
    expect(error.serverMessage).toBe('Quota exceeded');
    expect(error.message).toContain('Quota exceeded');
    expect(error.message).toContain(MAIN_LINE);
  });

  it('names what failed: a refused trunk creation is about the new trunk', async () => {
    const client = hostileClient('trunk-error', (_req, res) =>
      sendJson(res, 200, { status: 'error', message: 'Trunk limit reached' }),
    );
    const error = await failure(client.createSipTrunk({ name: 'PBX', terminationUri: 'sip:pbx.example.com' }));
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(/reported an error for the new SIP trunk: Trunk limit reached/);
  });

  it('invalid_response: a success envelope without the payload', async () => {
    const client = hostileClient('no-payload', (_req, res) => sendJson(res, 200, { status: 'success' }));
    const error = await failure(client.getInteraction(DENTAL_SID));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toContain('"interaction"');
    expect((await failure(client.listWebhooks())).kind).toBe('invalid_response');
  });
});

describe('a hostile server', () => {
  it('an HTML page with 200: the base URL is probably wrong', async () => {
    const client = hostileClient('html-200', (_req, res) =>
      sendText(res, 200, '<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>', 'text/html'),
    );
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/web page/);
    expect(error.message).toMatch(/base URL/);
    expect(error.serverMessage).toBeUndefined();
  });

  it('an HTML 502 from a proxy: a server error, with no HTML in the messages', async () => {
    const client = hostileClient('html-502', (_req, res) =>
      sendText(
        res,
        502,
        '<html><head><title>502 Bad Gateway</title></head><body>bad gateway</body></html>',
        'text/html',
      ),
    );
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('server');
    expect(error.status).toBe(502);
    expect(error.serverMessage).toBeUndefined();
    expect(error.message).not.toContain('<');
  });

  it('wrong types: a numeric sid is refused; a log that is not a list shows the call with the log marked unreadable', async () => {
    const numericSid = hostileClient('sid-42', (_req, res) =>
      sendJson(res, 200, { status: 'success', interaction: { sid: 42 } }),
    );
    const sidError = await failure(numericSid.getInteraction(DENTAL_SID));
    expect(sidError.kind).toBe('invalid_response');
    expect(sidError.message).toContain('interaction.sid');

    const badLog = hostileClient('log-nope', (_req, res) =>
      sendJson(res, 200, { status: 'success', interaction: { sid: DENTAL_SID, log: 'nope' } }),
    );
    const shown = await badLog.getInteraction(DENTAL_SID);
    expect(shown.sid).toBe(DENTAL_SID);
    expect(shown.log).toEqual([]);
    expect(shown.unreadable).toContainEqual({ field: 'log', rawType: 'string' });
  });

  it('truncated JSON', async () => {
    const client = hostileClient('truncated', (_req, res) =>
      sendText(res, 200, '{"status":"success","phones":[{"number":"+1415', 'application/json'),
    );
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/not valid JSON/);
  });

  it('an empty body', async () => {
    const client = hostileClient('empty', (_req, res) => sendText(res, 200, '', 'application/json'));
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/empty answer/);
  });

  it('a JSON array instead of an envelope', async () => {
    const client = hostileClient('array', (_req, res) => sendJson(res, 200, [{ number: MAIN_LINE }]));
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/"status"/);
  });
});

describe('a hostile server: sizes and server messages', () => {
  it(`an endless body is cut off after ${MAX_BODY_BYTES / 1024 / 1024} MB`, async () => {
    let sent = 0;
    let stopped!: () => void;
    const serverStopped = new Promise<void>((resolve) => (stopped = resolve));
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const client = hostileClient('endless', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"status":"success","phones":[');
      let open = true;
      res.on('close', () => {
        open = false;
        stopped();
      });
      const pump = (): void => {
        // Never ends on its own: only the client hanging up stops it.
        while (open) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/larger than 20 MB/);
    await serverStopped;
    expect(sent).toBeGreaterThan(MAX_BODY_BYTES / 2);
    expect(sent).toBeLessThan(MAX_BODY_BYTES * 2);
  });

  it.each([
    ['error object', { error: { message: 'Phone is locked' } }, 'Phone is locked'],
    ['errors list', { errors: [{ detail: 'Field name too long' }] }, 'Field name too long'],
    ['detail', { detail: 'Not allowed for this plan' }, 'Not allowed for this plan'],
    ['error string', { error: 'invalid_grant', error_description: 'ignored when error is a string' }, 'invalid_grant'],
    ['title', { title: 'Conflict', type: 'about:blank' }, 'Conflict'],
  ])('finds the server message in an error body shaped as %s', async (_shape, body, expected) => {
    const name = `shape-${expected.replace(/\W+/g, '-')}`;
    const client = hostileClient(name, (_req, res) => sendJson(res, 409, body));
    const error = await failure(client.getPhone(MAIN_LINE));
    expect(error.kind).toBe('bad_input');
    expect(error.status).toBe(409);
    expect(error.serverMessage).toBe(expected);
  });

  it('takes a short plain-text error body as the server message, whitespace collapsed', async () => {
    const client = hostileClient('plain-text', (_req, res) => sendText(res, 503, '  Service under\n maintenance  '));
    const error = await failure(client.listPhones());
    expect(error.kind).toBe('server');
    expect(error.status).toBe(503);
    expect(error.serverMessage).toBe('Service under maintenance');
  });

  it('caps a long server message at 300 characters', async () => {
    const client = hostileClient('long-message', (_req, res) => sendJson(res, 500, { message: 'x'.repeat(1000) }));
    const error = await failure(client.listPhones());
    expect(error.serverMessage?.length).toBe(300);
    expect(error.serverMessage?.endsWith('…')).toBe(true);
  });

  it('never repeats the API key, even when the server echoes it back', async () => {
    const echo: Route = (req, res) =>
      sendJson(res, req.url?.includes('phones') ? 403 : 200, {
        status: 'error',
        message: `Key ${(req.headers.authorization ?? '').replace(/^Bearer /, '')} is revoked`,
      });
    const client = hostileClient('echo-key', echo);
    const forbidden = await failure(client.listPhones());
    expect(forbidden.kind).toBe('unauthorized');
    expect(forbidden.serverMessage).toBe('Key [API key] is revoked');
    const envelopeError = await failure(client.listWebhooks());
    expect(envelopeError.kind).toBe('server');
    expect(envelopeError.message).toMatch(/is revoked/);
  });

  it('masks the key before shortening: a key cut in half by the 300-character cap does not survive', async () => {
    // The key straddles the cut: masking after shortening would find no whole key and show its first half.
    const echo: Route = (req, res) =>
      sendJson(res, 403, {
        message: `${'x'.repeat(280)} ${(req.headers.authorization ?? '').replace(/^Bearer /, '')} is revoked`,
      });
    const error = await failure(hostileClient('cut-key', echo).listPhones());
    expect(error.serverMessage).toBeDefined();
    expect(error.serverMessage).toContain('[API key]');
    expect(error.serverMessage).not.toContain(SECRET_KEY.slice(0, 8));
    expect(error.message).not.toContain(SECRET_KEY.slice(0, 8));
  });
});

describe('path segments', () => {
  it.each(['.', '..', ''])('refuses %j as an identifier instead of calling another path', async (sid) => {
    const client = hostileClient(`dot-${sid.length}`, (_req, res) =>
      sendJson(res, 200, { status: 'success', webhooks: [] }),
    );
    for (const call of [client.getWebhook(sid), client.deleteWebhook(sid), client.getSipTrunk(sid)]) {
      const error = await failure(call);
      expect(error.kind).toBe('bad_input');
    }
    expect(seen.get(`dot-${sid.length}`)).toBeUndefined();
  });

  it('keeps slashes and query characters inside one segment', async () => {
    const client = hostileClient('slashes', (_req, res) => sendJson(res, 404, { status: 'error', message: 'nope' }));
    await failure(client.deleteWebhook('../phones?x=1#y'));
    expect(seen.get('slashes')?.map((r) => r.url)).toEqual(['/slashes/v1/webhooks/..%2Fphones%3Fx%3D1%23y']);
  });
});

describe('tolerance of what the spec leaves open', () => {
  it('reads an interaction with unknown fields, unknown enum values, nulls and odd variables', async () => {
    const client = hostileClient('tolerant-interaction', (_req, res) =>
      sendJson(res, 200, {
        status: 'success',
        request_id: 'req_123',
        interaction: {
          sid: DENTAL_SID,
          from_number: null,
          direction: 'sideways',
          type: 'video_call',
          status: 'archived',
          agent_sid: null,
          started_at: 1700000000,
          ended_at: 1700000060,
          duration: null,
          sentiment: { score: 0.4 },
          variables: { attempts: 3, vip: true, note: null, order: { id: 7 }, name: 'Ann' },
          recording_url: null,
          log: [
            { role: 'agent', message: 'Hello', timestamp: 1.5, confidence: 0.9 },
            { role: 'supervisor', message: 'Whisper' },
            { role: null, message: null, timestamp: null },
            { role: 'user', message: 'Hi', timestamp: 4 },
          ],
        },
      }),
    );
    const interaction = await client.getInteraction(DENTAL_SID);
    expect(interaction).toMatchObject({
      sid: DENTAL_SID,
      fromNumber: null,
      toNumber: null,
      direction: 'sideways',
      type: 'video_call',
      status: 'archived',
      agentSid: null,
      startedAtMs: 1700000000000,
      endedAtMs: 1700000060000,
      durationSeconds: 60,
      recordingUrl: null,
    });
    expect(interaction.variables).toEqual({ attempts: '3', vip: 'true', note: '', order: '{"id":7}', name: 'Ann' });
    expect(interaction.log).toEqual([
      { index: 0, role: 'agent', message: 'Hello', offsetSeconds: 1.5 },
      { index: 1, role: 'supervisor', message: 'Whisper', offsetSeconds: null },
      { index: 2, role: 'unknown', message: '', offsetSeconds: null },
      { index: 3, role: 'user', message: 'Hi', offsetSeconds: 4 },
    ]);
  });

  it('reads an interaction with nothing but its sid', async () => {
    const client = hostileClient('bare-interaction', (_req, res) =>
      sendJson(res, 200, { status: 'success', interaction: { sid: DENTAL_SID } }),
    );
    expect(await client.getInteraction(DENTAL_SID)).toEqual({
      sid: DENTAL_SID,
      fromNumber: null,
      toNumber: null,
      direction: null,
      type: null,
      status: null,
      agentSid: null,
      startedAtMs: null,
      endedAtMs: null,
      durationSeconds: null,
      variables: {},
      log: [],
      recordingUrl: null,
    });
  });
});

describe('tolerance of what the spec leaves open: phones, webhooks, deletes', () => {
  it('reads phones with absent or null optional fields', async () => {
    const client = hostileClient('tolerant-phones', (_req, res) =>
      sendJson(res, 200, {
        status: 'success',
        phones: [
          { number: '+14155550100' },
          { number: '+14155550101', name: null, sip_trunk: null, inbound_agent_id: null, labels: ['x'] },
          { number: '+14155550102', sip_trunk: { sid: 'sip_1' } },
        ],
      }),
    );
    const phones = await client.listPhones();
    expect(phones[0]).toEqual({
      sid: null,
      name: null,
      number: '+14155550100',
      sipTrunk: null,
      createdAt: null,
      updatedAt: null,
      inboundAgentId: null,
      outboundAgentId: null,
    });
    expect(phones[1]?.sipTrunk).toBeNull();
    expect(phones[2]?.sipTrunk).toEqual({ sid: 'sip_1', name: null, system: false });
  });

  it('reads a webhook whose sid is a number, with null switches and objects', async () => {
    const client = hostileClient('numeric-webhook', (_req, res) =>
      sendJson(res, 200, {
        status: 'success',
        webhooks: [
          { sid: 1234, url: 'https://h.example.com', call_started_event: null, api_key: null, phone_number: null },
        ],
      }),
    );
    expect(await client.listWebhooks()).toEqual([
      {
        sid: '1234',
        url: 'https://h.example.com',
        callStartedEvent: false,
        callEndedEvent: false,
        createdAt: null,
        updatedAt: null,
        apiKey: null,
        phoneNumber: null,
      },
    ]);
  });

  it('accepts a DELETE answer with extra fields and a 204-style empty envelope', async () => {
    const client = hostileClient('delete-extra', (_req, res) =>
      sendJson(res, 200, { status: 'success', deleted: true }),
    );
    await expect(client.deleteWebhook('wh_1')).resolves.toBeUndefined();
    expect(seen.get('delete-extra')?.[0]).toMatchObject({ method: 'DELETE', url: '/delete-extra/v1/webhooks/wh_1' });
  });
});

describe('TLS failures ("TLS error" reported as such, not as unreachable)', () => {
  let tlsServer: https.Server;
  let tlsOrigin: string;
  let tlsConnections = 0;

  beforeAll(async () => {
    // A self-signed certificate made now, so the failure is Node's real certificate check.
    tlsServer = https.createServer(selfSignedCertificate(), (_req, res) =>
      sendJson(res, 200, { status: 'success', phones: [] }),
    );
    tlsServer.on('connection', () => tlsConnections++);
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    tlsOrigin = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    tlsServer.closeAllConnections();
    await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
  });

  it('an untrusted (self-signed) certificate is a network error marked tls, naming the check that failed, not retried', async () => {
    const before = tlsConnections;
    const error = await failure(createApiClient({ baseUrl: `${tlsOrigin}/v1`, apiKey: SECRET_KEY }).listPhones());
    expect(error.toData()).toEqual({
      kind: 'network',
      detail: 'tls',
      message: `The secure connection to ${new URL(tlsOrigin).host} failed (TLS error DEPTH_ZERO_SELF_SIGNED_CERT). Check the base URL; the server's certificate is not trusted.`,
    });
    expect(tlsConnections - before).toBe(1);
  });

  it('https to a port that speaks plain HTTP is a TLS error too', async () => {
    const error = await failure(
      createApiClient({ baseUrl: `${hostileOrigin.replace('http:', 'https:')}/v1`, apiKey: SECRET_KEY }).listPhones(),
    );
    expect(error.kind).toBe('network');
    expect(error.detail).toBe('tls');
    expect(error.message).toMatch(/TLS error ERR_SSL_/);
  });

  it('a refused connection is a network error without the tls mark', async () => {
    const probe = http.createServer();
    const origin = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await failure(
      createApiClient({ baseUrl: `${origin}/v1`, apiKey: SECRET_KEY, retry: { attempts: 1 } }).listPhones(),
    );
    expect(error.kind).toBe('network');
    expect(error.detail).toBeUndefined();
  });
});
