import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { z } from 'zod';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import { RESOURCES_DIR } from '../../fixtures/paths';

const SEED_FILE = path.join(RESOURCES_DIR, 'demo', 'seed.json');
const RECORDINGS_DIR = path.join(RESOURCES_DIR, 'demo', 'recordings');

const DENTAL_SID = 'interaction_a11be33b-a3c4-45fc-8bb4-fa63399cb100';
const DENTAL_NUMBER = '+14155550123';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const sidPattern = (prefix: string): RegExp => new RegExp(`^${prefix}_${UUID}$`);
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ISO_WHOLE_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

// The wire shapes of spec 2 as the tests read them: the fields they look at are typed, every other
// field is kept (loose objects), so comparisons with the seed see whole records.
const wireInteraction = z.looseObject({
  sid: z.string(),
  direction: z.string(),
  type: z.string(),
  status: z.string(),
  started_at: z.number(),
  ended_at: z.number().nullish(),
  duration: z.number().nullish(),
  recording_url: z.string().nullish(),
  variables: z.record(z.string(), z.unknown()),
  log: z.array(z.looseObject({ role: z.string(), message: z.string(), timestamp: z.number() })),
});
const wirePhone = z.looseObject({
  sid: z.string(),
  number: z.string(),
  name: z.string(),
  inbound_agent_id: z.string().optional(),
  outbound_agent_id: z.string().optional(),
  sip_trunk: z.looseObject({ sid: z.string(), system: z.unknown() }),
  created_at: z.string(),
  updated_at: z.string(),
});
const wireSipTrunk = z.looseObject({
  sid: z.string(),
  termination_uri: z.unknown(),
  sip_username: z.string().optional(),
  sip_password: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
const wireWebhook = z.looseObject({
  sid: z.string(),
  url: z.unknown(),
  call_started_event: z.unknown(),
  call_ended_event: z.unknown(),
  api_key: z.looseObject({}).optional(),
  phone_number: z.looseObject({}).optional(),
  created_at: z.string(),
});
/** Every JSON reply: the spec 5 envelope and whichever records it carries. */
const replyBody = z.looseObject({
  status: z.string(),
  message: z.string().optional(),
  errors: z.array(z.looseObject({ field: z.string(), message: z.string() })).optional(),
  interaction: wireInteraction.optional(),
  phone: wirePhone.optional(),
  phones: z.array(wirePhone).optional(),
  sip_trunk: wireSipTrunk.optional(),
  sip_trunks: z.array(wireSipTrunk).optional(),
  webhook: wireWebhook.optional(),
  webhooks: z.array(wireWebhook).optional(),
});
const seedSchema = z.object({
  interactions: z.array(wireInteraction),
  interaction_labels: z.record(z.string(), z.string()),
  phones: z.array(wirePhone),
  sip_trunks: z.array(wireSipTrunk),
  webhooks: z.array(wireWebhook),
});
const seed = seedSchema.parse(JSON.parse(fs.readFileSync(SEED_FILE, 'utf8')));

interface Reply {
  status: number;
  headers: Headers;
  body: z.infer<typeof replyBody>;
}

/** Calls the demo API; checks that every reply is JSON with a `status` field. */
async function call(
  server: DemoServer,
  pathAndQuery: string,
  init: RequestInit & { key?: string | null } = {},
): Promise<Reply> {
  const { key = server.apiKey, headers, ...rest } = init;
  const response = await fetch(`${server.baseUrl}${pathAndQuery}`, {
    ...rest,
    headers: {
      ...(key === null ? {} : { Authorization: `Bearer ${key}` }),
      ...(headers as Record<string, string> | undefined),
    },
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = await response.json();
  expect(body).toHaveProperty('status');
  return { status: response.status, headers: response.headers, body: replyBody.parse(body) };
}

function sendJson(method: string, body: unknown): RequestInit {
  return {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function expectError(reply: Reply, status: number, messagePart?: string): void {
  expect(reply.status).toBe(status);
  expect(reply.body.status).toBe('error');
  expect(typeof reply.body.message).toBe('string');
  if (messagePart !== undefined) expect(reply.body.message).toContain(messagePart);
}

/** Seconds of audio in an Ogg/Opus file: last page's granule position minus the pre-skip, at 48 kHz. */
function oggOpusSeconds(file: string): number {
  const bytes = fs.readFileSync(file);
  const head = bytes.indexOf('OpusHead');
  const lastPage = bytes.lastIndexOf('OggS');
  expect(head).toBeGreaterThan(0);
  const preSkip = bytes.readUInt16LE(head + 10);
  const granule = Number(bytes.readBigInt64LE(lastPage + 6));
  return (granule - preSkip) / 48000;
}

/** The app's rule: epoch values >= 1e11 are milliseconds, else seconds. */
const epochSeconds = (value: number): number => (value >= 1e11 ? value / 1000 : value);
/** The app's rule: a log timestamp on the epoch clock is absolute, otherwise an offset in seconds. */
const offsetSeconds = (timestamp: number, startedAt: number): number =>
  timestamp >= 1e9 ? epochSeconds(timestamp) - epochSeconds(startedAt) : timestamp;

describe('demo server', () => {
  let server: DemoServer;

  beforeAll(async () => {
    server = await startDemoServer({ resourcesDir: RESOURCES_DIR });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A server of its own for a test that changes data. */
  async function freshServer(): Promise<DemoServer> {
    return startDemoServer({ resourcesDir: RESOURCES_DIR, apiKey: 'demo_test_key' });
  }

  it('listens on 127.0.0.1 under /v1 with a generated demo_ key', () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.apiKey).toMatch(/^demo_[0-9a-f]{24}$/);
  });

  describe('authentication (spec 5)', () => {
    it('answers 401 with an error envelope when the key is missing', async () => {
      const reply = await call(server, '/phones', { key: null });
      expect(reply.body).toEqual({ status: 'error', message: 'Invalid or missing API key' });
      expect(reply.status).toBe(401);
    });

    it('answers 401 for a wrong key, of any length', async () => {
      expectError(await call(server, '/phones', { key: 'demo_000000000000000000000000' }), 401);
      expectError(await call(server, '/phones', { key: 'x' }), 401);
      expectError(await call(server, `/interactions/${DENTAL_SID}`, { key: `${server.apiKey}0` }), 401);
    });

    it('protects recordings too', async () => {
      const reply = await call(server, `/recordings/${DENTAL_SID}.ogg`, { key: null });
      expectError(reply, 401);
    });

    it('protects unknown paths before saying they do not exist', async () => {
      expectError(await call(server, '/nowhere', { key: null }), 401);
    });
  });

  describe('endpoint 1: GET /interactions/{sid}', () => {
    it('returns the interaction with an absolute recording URL under the base URL', async () => {
      const reply = await call(server, `/interactions/${DENTAL_SID}`);
      expect(reply.status).toBe(200);
      expect(reply.body.status).toBe('success');
      const interaction = reply.body.interaction!;
      expect(interaction.sid).toBe(DENTAL_SID);
      expect(interaction.direction).toBe('inbound');
      expect(interaction.type).toBe('phone_call');
      expect(interaction.log.length).toBeGreaterThanOrEqual(10);
      expect(interaction.recording_url).toBe(`${server.baseUrl}/recordings/${DENTAL_SID}.ogg`);
    });

    it('returns an in-progress interaction without end, duration or recording', async () => {
      const inProgress = seed.interactions.find((i) => i.status === 'in_progress')!;
      const reply = await call(server, `/interactions/${inProgress.sid}`);
      expect(reply.status).toBe(200);
      expect(reply.body.interaction!.status).toBe('in_progress');
      expect(reply.body.interaction!.ended_at ?? null).toBeNull();
      expect(reply.body.interaction!.duration ?? null).toBeNull();
      expect(reply.body.interaction!.recording_url ?? null).toBeNull();
    });

    it('answers 404 naming an unknown sid', async () => {
      const sid = 'interaction_00000000-0000-4000-8000-000000000000';
      expectError(await call(server, `/interactions/${sid}`), 404, sid);
    });
  });

  describe('endpoints 2 and 3: GET /phones, GET /phones/{phone}', () => {
    it('lists the phones in wire format', async () => {
      const reply = await call(server, '/phones');
      expect(reply.status).toBe(200);
      expect(reply.body.status).toBe('success');
      const phones = reply.body.phones!;
      expect(phones.length).toBeGreaterThanOrEqual(4);
      for (const phone of phones) {
        expect(phone.sid).toMatch(sidPattern('phone'));
        expect(phone.number).toMatch(/^\+[1-9]\d{1,14}$/);
        expect(phone.sip_trunk.sid).toMatch(sidPattern('sip'));
        expect(typeof phone.sip_trunk.system).toBe('boolean');
        expect(phone.created_at).toMatch(ISO_MS);
        expect(phone.updated_at).toMatch(ISO_MS);
      }
      expect(phones.some((p) => p.sip_trunk.system === true)).toBe(true);
      expect(phones.some((p) => p.outbound_agent_id === undefined)).toBe(true);
    });

    it('finds a phone by its number, percent-encoded or with a raw +', async () => {
      const encoded = await call(server, `/phones/${encodeURIComponent(DENTAL_NUMBER)}`);
      expect(encoded.status).toBe(200);
      expect(encoded.body.phone!.number).toBe(DENTAL_NUMBER);
      const raw = await call(server, `/phones/${DENTAL_NUMBER}`);
      expect(raw.body.phone).toEqual(encoded.body.phone);
    });

    it('answers 404 for an unknown number and 400 for something that is not E.164', async () => {
      expectError(await call(server, '/phones/%2B19995550100'), 404, '+19995550100');
      expectError(await call(server, '/phones/not-a-number'), 400, 'E.164');
    });
  });

  describe('endpoint 4: PUT /phones/{phone}', () => {
    it('updates name and agents, keeps omitted fields, and the change shows on later GETs', async () => {
      const own = await freshServer();
      try {
        const before = (await call(own, `/phones/${encodeURIComponent(DENTAL_NUMBER)}`)).body.phone!;
        const agent = 'agent_5b966250-0bcd-41d3-a233-cd4788fe2e77';
        const reply = await call(
          own,
          `/phones/${encodeURIComponent(DENTAL_NUMBER)}`,
          sendJson('PUT', { name: '  Front desk  ', inbound_agent_id: agent, color: 'ignored' }),
        );
        expect(reply.status).toBe(200);
        expect(reply.body.status).toBe('success');
        expect(reply.body.phone!.name).toBe('Front desk');
        expect(reply.body.phone!.inbound_agent_id).toBe(agent);
        expect(reply.body.phone!.outbound_agent_id).toBe(before.outbound_agent_id);
        expect(reply.body.phone).not.toHaveProperty('color');
        expect(reply.body.phone!.updated_at).toMatch(ISO_MS);
        expect(Date.parse(reply.body.phone!.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));

        const after = await call(own, `/phones/${DENTAL_NUMBER}`);
        expect(after.body.phone).toEqual(reply.body.phone);
        const listed = (await call(own, '/phones')).body.phones!.find((p) => p.number === DENTAL_NUMBER);
        expect(listed?.name).toBe('Front desk');
      } finally {
        await own.close();
      }
    });

    it('keeps changes per server instance', async () => {
      const own = await freshServer();
      try {
        await call(own, `/phones/${encodeURIComponent(DENTAL_NUMBER)}`, sendJson('PUT', { name: 'Only here' }));
        const elsewhere = await call(server, `/phones/${encodeURIComponent(DENTAL_NUMBER)}`);
        expect(elsewhere.body.phone!.name).not.toBe('Only here');
      } finally {
        await own.close();
      }
    });

    it('rejects invalid bodies with 400 and field errors', async () => {
      const target = `/phones/${encodeURIComponent(DENTAL_NUMBER)}`;
      expectError(await call(server, target, sendJson('PUT', '{"name": ')), 400, 'not valid JSON');
      expectError(await call(server, target, sendJson('PUT', ['name'])), 400, 'JSON object');
      expectError(await call(server, target, sendJson('PUT', {})), 400, 'at least one');
      expectError(await call(server, target, { method: 'PUT' }), 400, 'JSON object');

      const emptyName = await call(server, target, sendJson('PUT', { name: '   ' }));
      expectError(emptyName, 400);
      expect(emptyName.body.errors).toEqual([{ field: 'name', message: expect.any(String) as unknown }]);

      const badAgents = await call(
        server,
        target,
        sendJson('PUT', { inbound_agent_id: 42, outbound_agent_id: 'agent_nope' }),
      );
      expectError(badAgents, 400);
      expect(badAgents.body.errors!.map((e) => e.field)).toEqual(['inbound_agent_id', 'outbound_agent_id']);

      // Nothing was changed by the rejected requests.
      const phone = (await call(server, target)).body.phone!;
      expect(phone).toEqual(seed.phones.find((p) => p.number === DENTAL_NUMBER));
    });

    it('answers 404 for an unknown number', async () => {
      expectError(await call(server, '/phones/%2B19995550100', sendJson('PUT', { name: 'x' })), 404, '+19995550100');
    });
  });

  describe('endpoints 5, 6 and 7: SIP trunks', () => {
    it('lists externally managed trunks, one without credentials', async () => {
      const reply = await call(server, '/sip-trunks');
      expect(reply.status).toBe(200);
      expect(reply.body.status).toBe('success');
      const trunks = reply.body.sip_trunks!;
      expect(trunks).toHaveLength(3);
      for (const trunk of trunks) {
        expect(trunk.sid).toMatch(sidPattern('sip'));
        expect(typeof trunk.termination_uri).toBe('string');
        expect(trunk.created_at).toMatch(ISO_MS);
      }
      expect(trunks.filter((t) => t.sip_username === undefined && t.sip_password === undefined)).toHaveLength(1);
    });

    it('gets one trunk by sid, and 404 for an unknown sid', async () => {
      const sid = seed.sip_trunks[0]!.sid;
      const reply = await call(server, `/sip-trunks/${sid}`);
      expect(reply.status).toBe(200);
      expect(reply.body.sip_trunk).toEqual(seed.sip_trunks[0]);
      expectError(
        await call(server, '/sip-trunks/sip_00000000-0000-4000-8000-000000000000'),
        404,
        'sip_00000000-0000-4000-8000-000000000000',
      );
    });

    it('creates a trunk (201) that later GETs return', async () => {
      const own = await freshServer();
      try {
        const input = {
          name: 'Branch office',
          termination_uri: 'sip:branch.example.com',
          sip_username: 'branch',
          sip_password: 's3cret',
        };
        const created = await call(own, '/sip-trunks', sendJson('POST', input));
        expect(created.status).toBe(201);
        expect(created.body.status).toBe('success');
        const trunk = created.body.sip_trunk!;
        expect(trunk).toMatchObject(input);
        expect(trunk.sid).toMatch(sidPattern('sip'));
        expect(trunk.created_at).toMatch(ISO_MS);
        expect(trunk.updated_at).toBe(trunk.created_at);

        const listed = (await call(own, '/sip-trunks')).body.sip_trunks!;
        expect(listed).toHaveLength(4);
        expect(listed).toContainEqual(trunk);
        expect((await call(own, `/sip-trunks/${trunk.sid}`)).body.sip_trunk).toEqual(trunk);

        const bare = await call(
          own,
          '/sip-trunks',
          sendJson('POST', { name: 'No auth', termination_uri: 'sip:ip-auth.example.com' }),
        );
        expect(bare.status).toBe(201);
        expect(bare.body.sip_trunk).not.toHaveProperty('sip_username');
        expect(bare.body.sip_trunk).not.toHaveProperty('sip_password');
      } finally {
        await own.close();
      }
    });

    it('rejects invalid trunks with 400', async () => {
      const missing = await call(server, '/sip-trunks', sendJson('POST', { sip_username: 'u', sip_password: 'p' }));
      expectError(missing, 400);
      expect(missing.body.errors!.map((e) => e.field)).toEqual(['name', 'termination_uri']);
      const halfCredentials = await call(
        server,
        '/sip-trunks',
        sendJson('POST', { name: 'x', termination_uri: 'sip:x.example.com', sip_username: 'u' }),
      );
      expectError(halfCredentials, 400, 'sip_password');
      expectError(await call(server, '/sip-trunks', sendJson('POST', 'not json')), 400, 'not valid JSON');
      expect((await call(server, '/sip-trunks')).body.sip_trunks).toHaveLength(3);
    });
  });

  describe('endpoints 8, 9 and 10: webhooks', () => {
    it('lists webhooks and gets one by sid', async () => {
      const list = await call(server, '/webhooks');
      expect(list.status).toBe(200);
      expect(list.body.status).toBe('success');
      const webhooks = list.body.webhooks!;
      expect(webhooks).toHaveLength(3);
      for (const webhook of webhooks) {
        expect(typeof webhook.url).toBe('string');
        expect(typeof webhook.call_started_event).toBe('boolean');
        expect(typeof webhook.call_ended_event).toBe('boolean');
        expect(webhook.created_at).toMatch(ISO_WHOLE_SECONDS);
      }
      expect(webhooks.some((w) => w.api_key && w.phone_number)).toBe(true);
      expect(webhooks.some((w) => w.api_key && !w.phone_number)).toBe(true);
      expect(webhooks.some((w) => !w.api_key && w.phone_number)).toBe(true);

      const one = await call(server, `/webhooks/${webhooks[0]!.sid}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ status: 'success', webhook: webhooks[0] });
    });

    it('deletes a webhook: status only, then 404 on GET and DELETE', async () => {
      const own = await freshServer();
      try {
        const sid = seed.webhooks[1]!.sid;
        const deleted = await call(own, `/webhooks/${sid}`, { method: 'DELETE' });
        expect(deleted.status).toBe(200);
        expect(deleted.body).toEqual({ status: 'success' });
        expectError(await call(own, `/webhooks/${sid}`), 404, sid);
        expectError(await call(own, `/webhooks/${sid}`, { method: 'DELETE' }), 404, sid);
        const remaining = (await call(own, '/webhooks')).body.webhooks!;
        expect(remaining.map((w) => w.sid)).toEqual(seed.webhooks.filter((w) => w.sid !== sid).map((w) => w.sid));
      } finally {
        await own.close();
      }
    });
  });

  describe('other paths and methods', () => {
    it('answers 404 for unknown paths and 405 for a wrong method', async () => {
      expectError(await call(server, '/agents'), 404, '/v1/agents');
      expectError(await call(server, '/interactions'), 404);
      const wrongMethod = await call(server, '/webhooks', { method: 'POST', body: '{}' });
      expectError(wrongMethod, 405, 'POST');
      expect(wrongMethod.headers.get('allow')).toContain('GET');
    });

    it('waits latencyMs before answering', async () => {
      const slow = await startDemoServer({ resourcesDir: RESOURCES_DIR, latencyMs: 120 });
      try {
        const started = performance.now();
        await call(slow, '/phones');
        expect(performance.now() - started).toBeGreaterThanOrEqual(110);
      } finally {
        await slow.close();
      }
    });
  });

  describe('GET /recordings/{file}', () => {
    const file = path.join(RECORDINGS_DIR, `${DENTAL_SID}.ogg`);
    const bytes = fs.readFileSync(file);
    const fetchRecording = (headers: Record<string, string> = {}, method = 'GET'): Promise<Response> =>
      fetch(`${server.baseUrl}/recordings/${DENTAL_SID}.ogg`, {
        method,
        headers: { Authorization: `Bearer ${server.apiKey}`, ...headers },
      });

    it('serves the whole file as audio/ogg', async () => {
      const response = await fetchRecording();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/ogg');
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('serves byte ranges with 206 and Content-Range', async () => {
      const first = await fetchRecording({ Range: 'bytes=0-99' });
      expect(first.status).toBe(206);
      expect(first.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
      expect(Buffer.from(await first.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);

      const open = await fetchRecording({ Range: `bytes=${bytes.length - 10}-` });
      expect(open.status).toBe(206);
      expect(open.headers.get('content-range')).toBe(`bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`);
      expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);

      const suffix = await fetchRecording({ Range: 'bytes=-50' });
      expect(suffix.status).toBe(206);
      expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 50))).toBe(true);
    });

    it('answers 416 for a range past the end', async () => {
      const response = await fetchRecording({ Range: `bytes=${bytes.length}-` });
      expect(response.status).toBe(416);
      expect(response.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
      expect(replyBody.parse(await response.json()).status).toBe('error');
    });

    it('answers HEAD with the headers only', async () => {
      const response = await fetchRecording({}, 'HEAD');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(bytes.length));
    });

    it('answers 404 for unknown files and path tricks', async () => {
      expectError(
        await call(server, '/recordings/interaction_00000000-0000-4000-8000-000000000000.ogg'),
        404,
        'interaction_00000000',
      );
      expectError(await call(server, '/recordings/..%2Fseed.json'), 404);
    });
  });

  describe('seed', () => {
    const finished = seed.interactions.filter((i) => i.status !== 'in_progress');

    it('holds at least six interactions with well-formed sids, one in progress without a recording', () => {
      expect(seed.interactions.length).toBeGreaterThanOrEqual(6);
      for (const interaction of seed.interactions) {
        expect(interaction.sid).toMatch(sidPattern('interaction'));
        expect(interaction.agent_sid).toMatch(sidPattern('agent'));
        expect(interaction.from_number).toMatch(/^\+[1-9]\d{1,14}$/);
        expect(interaction.to_number).toMatch(/^\+[1-9]\d{1,14}$/);
        expect(Object.values(interaction.variables).every((v) => typeof v === 'string')).toBe(true);
      }
      const inProgress = seed.interactions.filter((i) => i.status === 'in_progress');
      expect(inProgress).toHaveLength(1);
      expect(inProgress[0]!.recording_url ?? null).toBeNull();
      expect(inProgress[0]!.ended_at ?? null).toBeNull();
      expect(new Set(seed.interactions.map((i) => i.direction))).toEqual(new Set(['inbound', 'outbound']));
    });

    it('labels every interaction, and the server offers them in seed order', () => {
      expect(server.interactions).toEqual(
        seed.interactions.map((i) => ({ sid: i.sid, label: seed.interaction_labels[i.sid] })),
      );
      expect(server.interactions.every((i) => i.label.length > 0)).toBe(true);
    });

    it('has a recording under 1 MB for each finished interaction', () => {
      for (const interaction of finished) {
        expect(interaction.recording_url).toBe(`recordings/${interaction.sid}.ogg`);
        const file = path.join(RECORDINGS_DIR, `${interaction.sid}.ogg`);
        expect(fs.statSync(file).size).toBeLessThan(1024 * 1024);
      }
    });

    it('has logs of 10 to 80 entries, at least one of 60 or more', () => {
      for (const interaction of seed.interactions) {
        expect(interaction.log.length).toBeGreaterThanOrEqual(10);
        expect(interaction.log.length).toBeLessThanOrEqual(80);
      }
      expect(seed.interactions.some((i) => i.log.length >= 60)).toBe(true);
    });

    it('mixes timestamp encodings (seconds and milliseconds, offsets and absolute log times)', () => {
      expect(seed.interactions.some((i) => i.started_at >= 1e11)).toBe(true);
      expect(seed.interactions.some((i) => i.started_at < 1e11)).toBe(true);
      expect(seed.interactions.some((i) => i.log[0]!.timestamp >= 1e9)).toBe(true);
      expect(seed.interactions.some((i) => i.log[0]!.timestamp < 1e9)).toBe(true);
    });

    it('times every log entry within its recording, in increasing order', () => {
      for (const interaction of finished) {
        const recordingSeconds = oggOpusSeconds(path.join(RECORDINGS_DIR, `${interaction.sid}.ogg`));
        expect(recordingSeconds).toBeGreaterThan(40);
        expect(recordingSeconds).toBeLessThan(240);
        const callSeconds = epochSeconds(interaction.ended_at!) - epochSeconds(interaction.started_at);
        expect(Math.abs(callSeconds - recordingSeconds)).toBeLessThan(1);

        const offsets = interaction.log.map((entry) => offsetSeconds(entry.timestamp, interaction.started_at));
        offsets.forEach((offset, i) => {
          expect(offset).toBeGreaterThanOrEqual(0);
          expect(offset).toBeLessThanOrEqual(recordingSeconds);
          if (i > 0) expect(offset).toBeGreaterThan(offsets[i - 1]!);
        });
      }
    });
  });
});
