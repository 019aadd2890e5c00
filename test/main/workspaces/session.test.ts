/**
 * Workspaces through the session (electron/main/workspaces/session.ts) and its handler table, over
 * real HTTP on 127.0.0.1: two embedded demo services standing in for two accounts, a small
 * configurable API server (key rotation, HTML pages, 404s, silence), a closed port, and an https
 * server with a self-signed certificate made by openssl for this run. Settings are in a temp
 * folder; keys are in an in-memory secret store that records what is written and deleted.
 */
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import type { HandlerTable } from '../../../electron/main/shell/handlers';
import { createMemoryStore, type SecretStore } from '../../../electron/main/keys/keychain';
import type { KeyStorage } from '../../../electron/main/keys/secret-storage';
import { keyAccount } from '../../../electron/main/keys/workspace-keys';
import type { Session } from '../../../electron/main/workspaces/session';
import { createSettingsStore, type Settings } from '../../../electron/main/workspaces/settings';
import { createSessionRig, RESOURCES_DIR } from '../../fixtures/session-rig';
import type { ApiMethod, ConnectInput, SecretStorageStatus, SessionInfo } from '../../../electron/shared/contract';
import { ApiError } from '../../../electron/shared/errors';
import { textMatching } from '../../fixtures/matchers';
import { selfSignedCertificate } from '../../fixtures/self-signed';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const PROD_KEY = 'vr_prod_key_5b1e8f0c2d4a6e88aa01';
const STAGING_KEY = 'vr_staging_key_77c0d9e1f2a3b4c5';
const ROTATED_KEY = 'vr_rotated_key_0f1e2d3c4b5a6978';
const WRONG_KEY = 'vr_wrong_key_deadbeefdeadbeef00';
/** Every key used here: none may ever show up in a result, an error or settings.json. */
const ALL_KEYS = [PROD_KEY, STAGING_KEY, ROTATED_KEY, WRONG_KEY];
const LOCKED_MESSAGE = 'Unlock your login keyring, then try again.';

let prod: DemoServer;
let staging: DemoServer;
/** The body of GET /v1/phones from a real (demo) service, served by the fake API below. */
let phonesBody: string;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  prod = await startDemoServer({ resourcesDir: RESOURCES_DIR, apiKey: PROD_KEY });
  staging = await startDemoServer({ resourcesDir: RESOURCES_DIR, apiKey: STAGING_KEY });
  const response = await fetch(`${prod.baseUrl}/phones`, { headers: { Authorization: `Bearer ${PROD_KEY}` } });
  phonesBody = await response.text();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await prod.close();
  await staging.close();
});

const tempDir = temporaryFolder;

/** How the fake API answers every request. */
type Mode = 'ok' | 'html' | 'not_found' | 'other_json' | 'server_error' | 'silent';

/** A small v1 API on 127.0.0.1 whose accepted keys and behaviour a test changes as it goes. */
interface FakeApi {
  baseUrl: string;
  /** Keys accepted in `ok` mode. */
  keys: Set<string>;
  mode: Mode;
  /** The Authorization header of every request, in order. */
  authorizations: string[];
  close(): Promise<void>;
}

async function listen(server: http.Server | https.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: http.Server | https.Server): () => Promise<void> {
  let closed = false;
  return async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

/** What the fake API answers `req` in its current mode; null for 'silent' (no answer at all). */
function fakeReply(
  api: Pick<FakeApi, 'mode' | 'keys'>,
  req: http.IncomingMessage,
): { status: number; type: string; body: string } | null {
  const json = (status: number, body: unknown) => ({ status, type: 'application/json', body: JSON.stringify(body) });
  switch (api.mode) {
    case 'silent':
      return null;
    case 'html':
      return {
        status: 200,
        type: 'text/html',
        body: '<!doctype html><html><body><h1>Welcome to our status page</h1></body></html>',
      };
    case 'not_found':
      return { status: 404, type: 'text/html', body: '<html><body>Cannot GET /v1/phones</body></html>' };
    case 'other_json':
      return json(200, { status: 'success', items: [{ id: 1 }] });
    case 'server_error':
      return json(500, { status: 'error', message: 'Database unavailable' });
    case 'ok': {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!api.keys.has(key)) return json(401, { status: 'error', message: 'Invalid API key' });
      if (req.url === '/v1/phones') return { status: 200, type: 'application/json', body: phonesBody };
      return json(404, { status: 'error', message: 'Not found' });
    }
  }
}

async function startFakeApi(keys: string[]): Promise<FakeApi> {
  const api: Omit<FakeApi, 'baseUrl' | 'close'> = { keys: new Set(keys), mode: 'ok', authorizations: [] };
  const server = http.createServer((req, res) => {
    api.authorizations.push(req.headers.authorization ?? '');
    const reply = fakeReply(api, req);
    if (!reply) return; // 'silent': never answers.
    res.writeHead(reply.status, { 'Content-Type': reply.type });
    res.end(reply.body);
  });
  const host = await listen(server);
  const close = closer(server);
  cleanups.push(close);
  return Object.assign(api, { baseUrl: `http://${host}/v1`, close });
}

/** An https server on 127.0.0.1 with a self-signed certificate generated now by openssl. */
async function startSelfSignedServer(): Promise<string> {
  const server = https.createServer(selfSignedCertificate(), (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(phonesBody);
  });
  const host = await listen(server);
  cleanups.push(closer(server));
  return `https://${host}/v1`;
}

/** A secret store (in memory) that records writes and deletes, and can be made to fail. */
interface TestStore extends SecretStore {
  writes: [account: string, secret: string][];
  deletes: string[];
  /** When set, get/delete throw this (as a locked keyring would). */
  failWith: ApiError | null;
}

function testStore(): TestStore {
  const memory = createMemoryStore();
  const store: TestStore = {
    writes: [],
    deletes: [],
    failWith: null,
    async get(account) {
      if (store.failWith) throw store.failWith;
      return memory.get(account);
    },
    async set(account, secret) {
      store.writes.push([account, secret]);
      await memory.set(account, secret);
    },
    async delete(account) {
      if (store.failWith) throw store.failWith;
      store.deletes.push(account);
      return memory.delete(account);
    },
  };
  return store;
}

interface Rig {
  session: Session;
  handlers: HandlerTable;
  secrets: SecretStore;
  dir: string;
  settingsPath: string;
  /** Every request the session's clients made, as "METHOD URL". */
  requests: string[];
}

function rig(
  options: { dir?: string; secrets?: SecretStore | KeyStorage; confirmWeakKeyStorage?: () => Promise<boolean> } = {},
): Rig {
  const dir = options.dir ?? tempDir('vr-session-');
  const secrets = options.secrets ?? testStore();
  const { confirmWeakKeyStorage } = options;
  const { session, handlers, settings, requests } = createSessionRig({
    dir,
    secrets,
    ...(confirmWeakKeyStorage ? { confirmWeakKeyStorage } : {}),
  });
  cleanups.push(() => session.close());
  return { session, handlers, secrets, dir, settingsPath: settings.path, requests };
}

/** Rejection of `promise` as an ApiError (fails the test if it resolves or throws anything else). */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('Expected a rejection');
}

function settingsFile(r: Rig): Settings {
  return JSON.parse(readFileSync(r.settingsPath, 'utf8')) as Settings;
}

/** What main says when a workspace's key is not stored for its base URL's origin. */
function missingKeyMessage(name: string, baseUrl: string): string {
  return `The API key for ${name} is not in the keychain for ${new URL(baseUrl).origin} (a key is only sent to the address it was saved for; it may also have been removed, or the keyring is locked). Enter the key again.`;
}

function expectNoKey(value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const key of ALL_KEYS) expect(text).not.toContain(key);
}

async function connectProdAndStaging(r: Rig): Promise<{ prodId: string; stagingId: string; info: SessionInfo }> {
  const first = await r.session.connect({ name: 'Production', baseUrl: prod.baseUrl, apiKey: PROD_KEY });
  const info = await r.session.connect({ name: 'Staging', baseUrl: staging.baseUrl, apiKey: STAGING_KEY });
  return { prodId: first.workspace!.id, stagingId: info.workspace!.id, info };
}

describe('adding and switching workspaces', () => {
  it('two added workspaces are listed in the order added; the last one added is active and used', async () => {
    const r = rig();
    const { prodId, stagingId, info } = await connectProdAndStaging(r);
    expect(info.workspaces).toEqual([
      { id: prodId, name: 'Production', baseUrl: prod.baseUrl, isDemo: false },
      { id: stagingId, name: 'Staging', baseUrl: staging.baseUrl, isDemo: false },
    ]);
    expect(info.workspace).toEqual(info.workspaces[1]);
    expect(info.restoreProblem).toBeNull();
    expect(await r.secrets.get(keyAccount({ id: prodId, baseUrl: prod.baseUrl }))).toBe(PROD_KEY);
    expect(await r.secrets.get(keyAccount({ id: stagingId, baseUrl: staging.baseUrl }))).toBe(STAGING_KEY);
    // Only under its workspace and origin: the bare id finds nothing.
    expect(await r.secrets.get(prodId)).toBeNull();

    r.requests.length = 0;
    await (await r.session.activeWorkspace.client()).listPhones();
    expect(r.requests).toEqual([`GET ${staging.baseUrl}/phones`]);
  });

  it('switching makes the other workspace active, uses its URL and key, and is saved', async () => {
    const r = rig();
    const { prodId } = await connectProdAndStaging(r);
    const switched = await r.session.switchWorkspace(prodId);
    expect(switched.workspace).toMatchObject({ id: prodId, name: 'Production' });
    expect(r.session.activeWorkspace.workspace()?.name).toBe('Production');
    expect(settingsFile(r).activeWorkspaceId).toBe(prodId);

    r.requests.length = 0;
    expect((await (await r.session.activeWorkspace.client()).listPhones()).length).toBeGreaterThan(0);
    expect(r.requests).toEqual([`GET ${prod.baseUrl}/phones`]);
  });

  it('switching to an unknown workspace is bad_input and changes nothing', async () => {
    const r = rig();
    const { stagingId } = await connectProdAndStaging(r);
    const error = await rejection(r.session.switchWorkspace('no-such-workspace'));
    expect(error.kind).toBe('bad_input');
    expect((await r.session.info()).workspace?.id).toBe(stagingId);
  });

  it('the demo workspace is one of the list once opened, and can be switched to and back', async () => {
    const r = rig();
    const { prodId } = await connectProdAndStaging(r);
    const demo = await r.session.openDemo();
    expect(demo.workspaces.map((w) => [w.name, w.isDemo])).toEqual([
      ['Production', false],
      ['Staging', false],
      ['Demo workspace', true],
    ]);
    expect(demo.demoInteractions.length).toBeGreaterThan(0);
    const back = await r.session.switchWorkspace(prodId);
    expect(back.workspace?.id).toBe(prodId);
    expect(back.demoInteractions).toEqual([]);
    const again = await r.session.switchWorkspace('demo');
    expect(again.workspace).toMatchObject({ id: 'demo', isDemo: true });
    expect(again.demoInteractions.length).toBeGreaterThan(0);
  });
});

describe('the same base URL again, a lost key', () => {
  it('connecting again to the same base URL updates that workspace instead of adding another', async () => {
    const r = rig();
    const first = await r.session.connect({ name: 'Production', baseUrl: prod.baseUrl, apiKey: PROD_KEY });
    const again = await r.session.connect({ name: 'Production (EU)', baseUrl: `${prod.baseUrl}/`, apiKey: PROD_KEY });
    expect(again.workspaces).toEqual([
      { id: first.workspace!.id, name: 'Production (EU)', baseUrl: prod.baseUrl, isDemo: false },
    ]);
    const blankName = await r.session.connect({ name: '  ', baseUrl: prod.baseUrl, apiKey: PROD_KEY });
    expect(blankName.workspaces.map((w) => w.name)).toEqual(['Production (EU)']);
  });

  it('switching to a workspace whose key is gone is a keychain error naming it; the current one stays active', async () => {
    const store = testStore();
    const r = rig({ secrets: store });
    const { prodId, stagingId } = await connectProdAndStaging(r);
    await store.delete(keyAccount({ id: prodId, baseUrl: prod.baseUrl }));
    const error = await rejection(r.session.switchWorkspace(prodId));
    expect(error.kind).toBe('keychain');
    expect(error.message).toBe(missingKeyMessage('Production', prod.baseUrl));
    expect((await r.session.info()).workspace?.id).toBe(stagingId);
    expect(settingsFile(r).activeWorkspaceId).toBe(stagingId);
  });
});

describe('changes made at the same moment', () => {
  it('are all kept: none overwrites another in settings.json', async () => {
    const r = rig();
    const { prodId, stagingId } = await connectProdAndStaging(r);
    await Promise.all([
      r.session.renameWorkspace(prodId, 'Prod'),
      r.session.switchWorkspace(prodId),
      r.session.setPreferences({ requestTimeoutSeconds: 20 }),
      r.session.renameWorkspace(stagingId, 'Stage'),
    ]);
    const expected = {
      version: 1,
      workspaces: [
        { id: prodId, name: 'Prod', baseUrl: prod.baseUrl },
        { id: stagingId, name: 'Stage', baseUrl: staging.baseUrl },
      ],
      activeWorkspaceId: prodId,
      preferences: { requestTimeoutSeconds: 20 },
    };
    expect(settingsFile(r)).toEqual(expected);
    expect((await r.session.info()).workspace).toMatchObject({ id: prodId, name: 'Prod' });
  });
});

describe('renaming', () => {
  it('trims the name, shows it at once on the active workspace, and saves it', async () => {
    const r = rig();
    const { stagingId } = await connectProdAndStaging(r);
    const renamed = await r.session.renameWorkspace(stagingId, '  Staging (EU)  ');
    expect(renamed.workspace?.name).toBe('Staging (EU)');
    expect(renamed.workspaces.map((w) => w.name)).toEqual(['Production', 'Staging (EU)']);
    expect(r.session.activeWorkspace.workspace()?.name).toBe('Staging (EU)');
    expect(settingsFile(r).workspaces.map((w) => w.name)).toEqual(['Production', 'Staging (EU)']);
  });

  it('refuses a blank, over-long or unprintable name and an unknown workspace, changing nothing', async () => {
    const r = rig();
    const { prodId } = await connectProdAndStaging(r);
    const before = readFileSync(r.settingsPath, 'utf8');
    expect((await rejection(r.session.renameWorkspace(prodId, '   '))).message).toBe(
      'Enter a name, e.g. Production or Staging.',
    );
    expect((await rejection(r.session.renameWorkspace(prodId, 'x'.repeat(201)))).message).toMatch(/at most 200/);
    expect((await rejection(r.session.renameWorkspace(prodId, 'Staging\u202E'))).message).toMatch(/U\+202E/);
    expect((await rejection(r.session.renameWorkspace('no-such-workspace', 'X'))).kind).toBe('bad_input');
    expect(readFileSync(r.settingsPath, 'utf8')).toBe(before);
    expect((await r.session.renameWorkspace(prodId, 'y'.repeat(200))).workspaces[0]!.name).toHaveLength(200);
  });

  it('the demo workspace can be renamed, and keeps its name when opened again', async () => {
    const r = rig();
    await r.session.openDemo();
    await r.session.renameWorkspace('demo', 'Training');
    await r.session.disconnect();
    expect((await r.session.openDemo()).workspace).toMatchObject({ id: 'demo', name: 'Training', isDemo: true });
  });
});

describe('changing a key', () => {
  it('a key the server refuses is not stored, and the old one keeps working', async () => {
    const api = await startFakeApi([PROD_KEY]);
    const store = testStore();
    const r = rig({ secrets: store });
    const { workspace } = await r.session.connect({ name: 'Acme', baseUrl: api.baseUrl, apiKey: PROD_KEY });
    const writes = store.writes.length;

    const error = await rejection(r.session.changeWorkspaceKey(workspace!.id, WRONG_KEY));
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expectNoKey(error.message);
    expect(store.writes.length).toBe(writes);
    expect(await store.get(keyAccount(workspace!))).toBe(PROD_KEY);

    api.authorizations.length = 0;
    expect((await (await r.session.activeWorkspace.client()).listPhones()).length).toBeGreaterThan(0);
    expect(api.authorizations).toEqual([`Bearer ${PROD_KEY}`]);
  });

  it('after a 401 the workspace stays; a new key that works is stored and used at once, nothing else changes', async () => {
    const api = await startFakeApi([PROD_KEY]);
    const store = testStore();
    const r = rig({ secrets: store });
    await r.session.connect({ name: 'Staging', baseUrl: staging.baseUrl, apiKey: STAGING_KEY });
    const { workspace } = await r.session.connect({ name: 'Acme', baseUrl: api.baseUrl, apiKey: PROD_KEY });
    await r.session.setPreferences({ requestTimeoutSeconds: 30 });
    const id = workspace!.id;

    // The key is revoked on the server: reads are refused with 401 ...
    api.keys = new Set([ROTATED_KEY]);
    const refused = await rejection((await r.session.activeWorkspace.client()).listPhones());
    expect(refused.kind).toBe('unauthorized');
    // ... and nothing was cleared: still active, still listed.
    const before = await r.session.info();
    expect(before.workspace?.id).toBe(id);
    const settingsBefore = settingsFile(r);

    const after = await r.session.changeWorkspaceKey(id, `  ${ROTATED_KEY}  `);
    expect(after).toEqual(before);
    expectNoKey(after);
    expect(settingsFile(r)).toEqual(settingsBefore);
    expect(await store.get(keyAccount({ id, baseUrl: api.baseUrl }))).toBe(ROTATED_KEY);

    api.authorizations.length = 0;
    expect((await (await r.session.activeWorkspace.client()).listPhones()).length).toBeGreaterThan(0);
    expect(api.authorizations).toEqual([`Bearer ${ROTATED_KEY}`]);
    // The other workspace's key is untouched.
    expect(await store.get(keyAccount(before.workspaces[0]!))).toBe(STAGING_KEY);
  });

  it('the key of a workspace that is not active is tested against that workspace, stored, and it stays inactive', async () => {
    const api = await startFakeApi([PROD_KEY, ROTATED_KEY]);
    const r = rig();
    const { workspace } = await r.session.connect({ name: 'Acme', baseUrl: api.baseUrl, apiKey: PROD_KEY });
    await r.session.connect({ name: 'Staging', baseUrl: staging.baseUrl, apiKey: STAGING_KEY });
    api.authorizations.length = 0;
    const after = await r.session.changeWorkspaceKey(workspace!.id, ROTATED_KEY);
    expect(api.authorizations).toEqual([`Bearer ${ROTATED_KEY}`]);
    expect(after.workspace?.name).toBe('Staging');
    expect(await r.secrets.get(keyAccount(workspace!))).toBe(ROTATED_KEY);
  });

  it('refuses an empty key and the demo workspace without any request', async () => {
    const r = rig();
    const { prodId } = await connectProdAndStaging(r);
    await r.session.openDemo();
    r.requests.length = 0;
    expect((await rejection(r.session.changeWorkspaceKey(prodId, '  '))).kind).toBe('bad_input');
    expect((await rejection(r.session.changeWorkspaceKey('demo', PROD_KEY))).kind).toBe('bad_input');
    expect(r.requests).toEqual([]);
  });
});

describe('testing a connection', () => {
  it('reports a working workspace with the round-trip time', async () => {
    const r = rig();
    const { prodId } = await connectProdAndStaging(r);
    const result = await r.session.testWorkspace(prodId);
    expect(result).toMatchObject({ ok: true });
    expect(result.problem).toBeUndefined();
    expect(result.message).toMatch(
      /^Connected to 127\.0\.0\.1:\d+: the key works \(\d+ phone numbers? in this workspace\)\.$/,
    );
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(result.elapsedMs).toBeLessThan(5_000);
  });

  it('reports key_rejected, not_v1 (HTML page, 404, another JSON), server, then unreachable, each in words', async () => {
    const api = await startFakeApi([PROD_KEY]);
    const r = rig();
    const { workspace } = await r.session.connect({ name: 'Acme', baseUrl: api.baseUrl, apiKey: PROD_KEY });
    const id = workspace!.id;
    const host = new URL(api.baseUrl).host;

    api.keys = new Set();
    expect(await r.session.testWorkspace(id)).toMatchObject({
      ok: false,
      problem: 'key_rejected',
      message: `${host} rejected the API key (HTTP 401). Enter the key again from the API Keys page of the account settings.`,
    });

    api.mode = 'html';
    const html = await r.session.testWorkspace(id);
    expect(html).toMatchObject({ ok: false, problem: 'not_v1' });
    expect(html.message).toBe(
      `${host} answered with a web page instead of data. Check that the base URL is the service's /v1 address.`,
    );
    expect(html.elapsedMs).toBeGreaterThanOrEqual(0);

    api.mode = 'not_found';
    expect(await r.session.testWorkspace(id)).toMatchObject({
      ok: false,
      problem: 'not_v1',
      message: `${host} answered, but not as a v1 API (HTTP 404 for the phone list). Check that the base URL is the service's /v1 address.`,
    });

    api.mode = 'other_json';
    expect(await r.session.testWorkspace(id)).toMatchObject({
      ok: false,
      problem: 'not_v1',
      message: textMatching(/not with the v1 list of phone numbers/),
    });

    api.mode = 'server_error';
    expect(await r.session.testWorkspace(id)).toMatchObject({
      ok: false,
      problem: 'server',
      message: textMatching(/HTTP 500/),
    });

    // The server goes away: the kept-alive connection is cut, or a new one is refused.
    await api.close();
    const gone = await r.session.testWorkspace(id);
    expect(gone).toMatchObject({
      ok: false,
      problem: 'unreachable',
      message: textMatching(`^Could not reach ${host}: the connection was (cut|refused)`),
    });
    expect(gone.elapsedMs).toBeUndefined();
  });
});

describe('testing a connection: unreachable, TLS, keychain and the demo', () => {
  it('reports a closed port as unreachable, connection refused', async () => {
    const probe = http.createServer();
    const host = await listen(probe);
    await closer(probe)();
    const store = testStore();
    await store.set(keyAccount({ id: 'ws-closed', baseUrl: `http://${host}/v1` }), PROD_KEY);
    const dir = tempDir('vr-session-');
    await createSettingsStore(dir).save({
      version: 1,
      workspaces: [{ id: 'ws-closed', name: 'Closed', baseUrl: `http://${host}/v1` }],
      activeWorkspaceId: null,
      preferences: { requestTimeoutSeconds: 15 },
    });
    const result = await rig({ dir, secrets: store }).session.testWorkspace('ws-closed');
    expect(result).toEqual({
      ok: false,
      problem: 'unreachable',
      message: `Could not reach ${host}: the connection was refused. Check the base URL and your network connection, then retry.`,
    });
  });

  it('reports a self-signed certificate as a TLS error, not as unreachable', async () => {
    const baseUrl = await startSelfSignedServer();
    const store = testStore();
    await store.set(keyAccount({ id: 'ws-tls', baseUrl }), PROD_KEY);
    const dir = tempDir('vr-session-');
    // A workspace saved earlier (connect() would refuse this server), whose server now has an untrusted certificate.
    await createSettingsStore(dir).save({
      version: 1,
      workspaces: [{ id: 'ws-tls', name: 'Self-signed', baseUrl }],
      activeWorkspaceId: 'ws-tls',
      preferences: { requestTimeoutSeconds: 15 },
    });
    const r = rig({ dir, secrets: store });
    const result = await r.session.testWorkspace('ws-tls');
    expect(result).toMatchObject({ ok: false, problem: 'tls' });
    expect(result.message).toMatch(
      /^The secure connection to 127\.0\.0\.1:\d+ failed \(TLS error DEPTH_ZERO_SELF_SIGNED_CERT\)/,
    );
    // The same failure from a normal call is a network error marked as TLS.
    const error = await rejection((await r.session.activeWorkspace.client()).listPhones());
    expect(error.toData()).toMatchObject({ kind: 'network', detail: 'tls' });
  });

  it('reports a key that cannot be read as keychain, without rejecting', async () => {
    const store = testStore();
    const r = rig({ secrets: store });
    const { prodId } = await connectProdAndStaging(r);
    await store.delete(keyAccount({ id: prodId, baseUrl: prod.baseUrl }));
    expect(await r.session.testWorkspace(prodId)).toEqual({
      ok: false,
      problem: 'keychain',
      message: missingKeyMessage('Production', prod.baseUrl),
    });
    expect((await rejection(r.session.testWorkspace('no-such-workspace'))).kind).toBe('bad_input');
  });

  it('tests the demo workspace against the running demo service', async () => {
    const r = rig();
    await r.session.openDemo();
    expect(await r.session.testWorkspace('demo')).toMatchObject({ ok: true });
  });
});

describe('the request timeout preference', () => {
  it('defaults to 15 s; a shorter one is saved, survives a restart, and is what a silent server gets', async () => {
    const api = await startFakeApi([PROD_KEY]);
    const store = testStore();
    const r = rig({ secrets: store });
    const { workspace } = await r.session.connect({ name: 'Acme', baseUrl: api.baseUrl, apiKey: PROD_KEY });
    expect((await r.session.info()).preferences).toEqual({ requestTimeoutSeconds: 15 });

    const saved = await r.session.setPreferences({ requestTimeoutSeconds: 3 });
    expect(saved.preferences).toEqual({ requestTimeoutSeconds: 3 });
    expect(settingsFile(r).preferences).toEqual({ requestTimeoutSeconds: 3 });

    api.mode = 'silent';
    const started = Date.now();
    const [test, call] = await Promise.all([
      r.session.testWorkspace(workspace!.id),
      rejection(r.session.activeWorkspace.client().then((c) => c.listPhones())),
    ]);
    const waitedMs = Date.now() - started;
    expect(test).toMatchObject({
      ok: false,
      problem: 'timeout',
      message: `${new URL(api.baseUrl).host} did not answer within 3 s. Check your connection and try again.`,
    });
    expect(call.kind).toBe('timeout');
    expect(waitedMs).toBeGreaterThanOrEqual(2_900);

    const restarted = rig({ dir: r.dir, secrets: store });
    expect((await restarted.session.info()).preferences).toEqual({ requestTimeoutSeconds: 3 });
  });

  it('refuses a timeout out of range, keeping the saved one', async () => {
    const r = rig();
    await r.session.setPreferences({ requestTimeoutSeconds: 20 });
    for (const seconds of [2, 121, 7.5]) {
      expect((await rejection(r.session.setPreferences({ requestTimeoutSeconds: seconds }))).kind).toBe('bad_input');
    }
    expect((await r.session.info()).preferences).toEqual({ requestTimeoutSeconds: 20 });
    expect(settingsFile(r).preferences).toEqual({ requestTimeoutSeconds: 20 });
  });
});

describe('removing a workspace', () => {
  it('deletes its key and nothing else: other keys, names, the active workspace and preferences stay', async () => {
    const store = testStore();
    const r = rig({ secrets: store });
    const { prodId, stagingId } = await connectProdAndStaging(r);
    await r.session.setPreferences({ requestTimeoutSeconds: 25 });
    await r.session.switchWorkspace(prodId);
    const before = settingsFile(r);
    const infoBefore = await r.session.info();

    const after = await r.session.removeWorkspace(stagingId);
    expect(store.deletes).toEqual([keyAccount({ id: stagingId, baseUrl: staging.baseUrl })]);
    expect(await store.get(keyAccount({ id: stagingId, baseUrl: staging.baseUrl }))).toBeNull();
    expect(await store.get(keyAccount({ id: prodId, baseUrl: prod.baseUrl }))).toBe(PROD_KEY);
    expect(settingsFile(r)).toEqual({ ...before, workspaces: before.workspaces.filter((w) => w.id !== stagingId) });
    expect(after).toEqual({ ...infoBefore, workspaces: infoBefore.workspaces.filter((w) => w.id !== stagingId) });
    expect((await (await r.session.activeWorkspace.client()).listPhones()).length).toBeGreaterThan(0);
  });

  it('removing the active workspace leaves none active; calls then ask to connect', async () => {
    const r = rig();
    const { prodId, stagingId } = await connectProdAndStaging(r);
    const after = await r.session.removeWorkspace(stagingId);
    expect(after.workspace).toBeNull();
    expect(after.workspaces.map((w) => w.id)).toEqual([prodId]);
    expect(settingsFile(r).activeWorkspaceId).toBeNull();
    expect((await rejection(r.session.activeWorkspace.client())).message).toMatch(/^Connect to a workspace first/);
  });

  it('the demo workspace has no key to delete; removing it deletes nothing from the store', async () => {
    const store = testStore();
    const r = rig({ secrets: store });
    await connectProdAndStaging(r);
    await r.session.openDemo();
    const after = await r.session.removeWorkspace('demo');
    expect(store.deletes).toEqual([]);
    expect(after.workspace).toBeNull();
    expect(after.workspaces.map((w) => w.name)).toEqual(['Production', 'Staging']);
  });

  it('when the keychain cannot delete the key, the workspace is kept and the keychain error is reported', async () => {
    const store = testStore();
    const r = rig({ secrets: store });
    const { prodId } = await connectProdAndStaging(r);
    const before = readFileSync(r.settingsPath, 'utf8');
    store.failWith = new ApiError({ kind: 'keychain', message: LOCKED_MESSAGE });
    const error = await rejection(r.session.removeWorkspace(prodId));
    expect(error.toData()).toEqual({ kind: 'keychain', message: LOCKED_MESSAGE });
    expect(readFileSync(r.settingsPath, 'utf8')).toBe(before);
    store.failWith = null;
    expect(await store.get(keyAccount({ id: prodId, baseUrl: prod.baseUrl }))).toBe(PROD_KEY);
  });
});

describe('a restart', () => {
  it('restores the workspace list, the active workspace, names and preferences', async () => {
    const store = testStore();
    const first = rig({ secrets: store });
    const { prodId } = await connectProdAndStaging(first);
    await first.session.openDemo();
    await first.session.renameWorkspace('demo', 'Training');
    await first.session.switchWorkspace(prodId);
    await first.session.setPreferences({ requestTimeoutSeconds: 45 });
    const before = await first.session.info();

    const second = rig({ dir: first.dir, secrets: store });
    expect(await second.session.info()).toEqual(before);
    expect(second.session.activeWorkspace.workspace()?.name).toBe('Production');
    await (await second.session.activeWorkspace.client()).listPhones();
    expect(second.requests).toEqual([`GET ${prod.baseUrl}/phones`]);
  });

  it('restores an active demo workspace on its new port, under its saved name', async () => {
    const first = rig();
    await first.session.openDemo();
    await first.session.renameWorkspace('demo', 'Training');
    const second = rig({ dir: first.dir });
    const info = await second.session.info();
    expect(info.workspace).toMatchObject({ id: 'demo', name: 'Training', isDemo: true });
    expect(info.demoInteractions.length).toBeGreaterThan(0);
  });

  it('says which workspace lost its key, keeps it listed, and opens it once the key is entered again', async () => {
    const store = testStore();
    const first = rig({ secrets: store });
    const { prodId, stagingId } = await connectProdAndStaging(first);
    await store.delete(keyAccount({ id: stagingId, baseUrl: staging.baseUrl }));

    const second = rig({ dir: first.dir, secrets: store });
    const info = await second.session.info();
    expect(info.workspace).toBeNull();
    expect(info.workspaces.map((w) => w.id)).toEqual([prodId, stagingId]);
    expect(info.restoreProblem).toEqual({
      workspaceId: stagingId,
      error: {
        kind: 'keychain',
        message: missingKeyMessage('Staging', staging.baseUrl),
      },
    });
    // A call made meanwhile gets the same explanation, not "connect first".
    const failed = await second.handlers.listPhones([]);
    expect(failed).toEqual({ ok: false, error: info.restoreProblem!.error });
    // The saved choice is kept for the next start.
    expect(settingsFile(second).activeWorkspaceId).toBe(stagingId);

    const fixed = await second.session.changeWorkspaceKey(stagingId, STAGING_KEY);
    expect(fixed.restoreProblem).toBeNull();
    expect(fixed.workspace).toMatchObject({ id: stagingId, name: 'Staging' });
    await (await second.session.activeWorkspace.client()).listPhones();
    expect(second.requests.at(-1)).toBe(`GET ${staging.baseUrl}/phones`);
  });

  it('reports the key storage error itself when reading the key fails (e.g. a locked keyring)', async () => {
    const store = testStore();
    const first = rig({ secrets: store });
    const { stagingId } = await connectProdAndStaging(first);
    store.failWith = new ApiError({ kind: 'keychain', message: LOCKED_MESSAGE });
    const info = await rig({ dir: first.dir, secrets: store }).session.info();
    expect(info.workspace).toBeNull();
    expect(info.restoreProblem).toEqual({
      workspaceId: stagingId,
      error: { kind: 'keychain', message: LOCKED_MESSAGE },
    });
  });
});

describe('key storage', () => {
  it('the in-memory store says it keeps keys in memory, not in the keychain, and cannot switch to safeStorage', async () => {
    const r = rig({ secrets: createMemoryStore() });
    const { secretStorage } = await r.session.info();
    expect(secretStorage.description).toMatch(/^Memory of this run only/);
    expect(secretStorage.description).not.toMatch(/^System keychain/);
    expect(secretStorage.keychainProblem).toBeNull();
    expect((await rejection(r.session.useSafeStorage(true))).kind).toBe('bad_input');
  });

  it('a status check that fails names the backend last reported (the saved choice) with the problem', async () => {
    const memory = createMemoryStore();
    const saved: SecretStorageStatus = {
      backend: 'safe_storage',
      description: 'Encrypted file (Electron safeStorage, backend gnome_libsecret)',
      keychainProblem: null,
      safeStorage: { available: true, weak: false, backendName: 'gnome_libsecret' },
    };
    let failing = false;
    const storage: KeyStorage = {
      get: (account) => memory.get(account),
      set: (account, secret) => memory.set(account, secret),
      delete: (account) => memory.delete(account),
      status: () =>
        failing
          ? Promise.reject(new ApiError({ kind: 'keychain', message: 'Voice Review could not read key-storage.json.' }))
          : Promise.resolve(saved),
      useSafeStorage: () => Promise.resolve(),
    };
    const r = rig({ secrets: storage });
    expect((await r.session.info()).secretStorage).toEqual(saved);
    failing = true;
    expect((await r.session.info()).secretStorage).toEqual({
      ...saved,
      keychainProblem: { problem: 'unavailable', message: 'Voice Review could not read key-storage.json.' },
    });
  });

  it('a key storage reports its own status, and the switch to safeStorage is passed on with the confirmation', async () => {
    const memory = createMemoryStore();
    const calls: boolean[] = [];
    let status: SecretStorageStatus = {
      backend: 'keychain',
      description: 'System keychain (Secret Service)',
      keychainProblem: { problem: 'locked', message: LOCKED_MESSAGE },
      safeStorage: { available: true, weak: true, backendName: 'basic_text' },
    };
    const storage: KeyStorage = {
      get: (account) => memory.get(account),
      set: (account, secret) => memory.set(account, secret),
      delete: (account) => memory.delete(account),
      status: () => Promise.resolve(status),
      useSafeStorage(confirmWeak) {
        calls.push(confirmWeak);
        if (!confirmWeak) {
          return Promise.reject(
            new ApiError({ kind: 'bad_input', message: 'Confirm that the key may be stored with weak protection.' }),
          );
        }
        status = {
          ...status,
          backend: 'safe_storage',
          description: 'Encrypted file (Electron safeStorage, basic_text)',
        };
        return Promise.resolve();
      },
    };
    const r = rig({ secrets: storage, confirmWeakKeyStorage: () => Promise.resolve(true) });
    expect((await r.session.info()).secretStorage).toEqual(status);
    expect((await rejection(r.session.useSafeStorage(false))).message).toMatch(/^Confirm/);
    const after = await r.session.useSafeStorage(true);
    expect(calls).toEqual([false, true]);
    expect(after.secretStorage.backend).toBe('safe_storage');
  });
});

describe('the key never leaves main', () => {
  it('appears in no handler result, error or settings.json along every workspace path', async () => {
    const api = await startFakeApi([PROD_KEY]);
    const r = rig();
    const results: unknown[] = [];
    const call = async (method: ApiMethod, ...args: unknown[]) => {
      const result = await r.handlers[method](args);
      results.push(result);
      return result;
    };
    /** Connects and returns the new workspace's id. */
    const connectedId = async (input: ConnectInput): Promise<string> => {
      const result = (await call('connect', input)) as { value?: SessionInfo };
      const id = result.value?.workspace?.id;
      if (id === undefined) throw new Error(`connect to ${input.baseUrl} failed`);
      return id;
    };
    await call('connect', { name: 'Bad', baseUrl: api.baseUrl, apiKey: WRONG_KEY });
    const acme = await connectedId({ name: 'Acme', baseUrl: api.baseUrl, apiKey: PROD_KEY });
    const prodId = await connectedId({ name: 'Production', baseUrl: prod.baseUrl, apiKey: PROD_KEY });
    await call('connect', { name: 'Staging', baseUrl: staging.baseUrl, apiKey: STAGING_KEY });
    await call('getSession');
    await call('switchWorkspace', acme);
    await call('changeWorkspaceKey', acme, WRONG_KEY);
    api.keys.add(ROTATED_KEY);
    await call('changeWorkspaceKey', acme, ROTATED_KEY);
    await call('testWorkspace', acme);
    api.keys = new Set();
    await call('testWorkspace', acme);
    await call('listPhones');
    await call('switchWorkspace', prodId);
    await call('getPhone', '+14155550999');
    await call('listPhones');
    await call('renameWorkspace', prodId, 'Prod');
    await call('setPreferences', { requestTimeoutSeconds: 10 });
    await call('removeWorkspace', acme);
    await call('getSession');

    // The failures along the way: wrong key on connect, wrong new key, the revoked key, an unknown number.
    const failures = results
      .filter((res) => !(res as { ok: boolean }).ok)
      .map((res) => (res as { error: { kind: string } }).error.kind);
    expect(failures).toEqual(['unauthorized', 'unauthorized', 'unauthorized', 'not_found']);
    for (const result of results) expectNoKey(result);
    expectNoKey(readFileSync(r.settingsPath, 'utf8'));
  });
});
