/**
 * A known key written through every path appears in no log, no renderer-visible payload, no
 * settings file: the API key is never in the renderer, a log, a settings file, an error message or
 * a test artifact, and `sip_password` is never in logs.
 *
 * Main is built by createMainStack as electron/main/index.ts builds it: key storage
 * (secret-storage.ts over a keychain, with a fake safeStorage that really encrypts), session,
 * handler table behind the IPC sender guard, recording protocol, peaks, and the real log module
 * writing files in a temp user-data folder. Every call goes through the channel registerIpc
 * registers and the guard, the way the renderer's `window.api` does; every result is kept as the
 * JSON the renderer would receive. The HTTP traffic is real, on loopback: the demo service started with the known key, and a hostile server that
 * proxies to it and then turns to echoing the Authorization header (and the request body) back in
 * its error responses. Requests are also logged with their headers, as careless code would do.
 * Transcripts are exported and recordings downloaded through the save dialog's stand-in, a SIP
 * password is copied through main's clipboard; the exported files and the run's temporary
 * recordings folder are scanned too.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import nodeLog from 'electron-log/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelOf, type ApiMethod, type IpcResult, type SessionInfo } from '../../electron/shared/contract';
import { ApiError } from '../../electron/shared/errors';
import { startDemoServer, type DemoServer } from '../../electron/main/demo/server';
import { createMemoryStore, type SecretStore } from '../../electron/main/keys/keychain';
import { configureMainLog } from '../../electron/main/shell/log';
import { createMainStack, registerIpc } from '../../electron/main/main-stack';
import { RECORDING_SCHEME, recordingPath } from '../../electron/main/recordings/recording-protocol';
import { createKeyStorage, type SafeStorageLike } from '../../electron/main/keys/secret-storage';
import { APP_INDEX_URL } from '../../electron/main/shell/security';
import { createIpcMainStandIn } from '../fixtures/preload-bridge';
import { REPO_ROOT } from '../fixtures/paths';
import { memoryClipboard } from '../fixtures/memory-clipboard';
import { temporaryFolder } from '../fixtures/temporary-folder';

const KEY = 'vr_live_KNOWN_SECRET_123';
const NEW_KEY = 'vr_live_KNOWN_SECRET_NEW_789';
const SIP_PASSWORD = 'sipPw_KNOWN_SECRET_456';
const ROOT = REPO_ROOT;

/** Methods whose results legitimately carry a SIP password: the SIP trunk screens show it masked (spec 2). */
const SHOWS_SIP_PASSWORD = new Set<ApiMethod>(['createSipTrunk', 'getSipTrunk', 'listSipTrunks']);

/** safeStorage stand-in that really encrypts (AES-256-GCM, key in memory), as Electron's does. */
function encryptingSafeStorage(): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString(plainText) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(encrypted) {
      const decipher = createDecipheriv('aes-256-gcm', key, encrypted.subarray(0, 12));
      decipher.setAuthTag(encrypted.subarray(12, 28));
      return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** A keychain that works (in memory) until `broken` is set, then fails as a missing Secret Service does. */
function breakableKeychain(): SecretStore & { broken: boolean } {
  const memory = createMemoryStore();
  const fail = () => {
    throw new ApiError({
      kind: 'keychain',
      message:
        'Voice Review could not reach the system keychain (Secret Service). Install and start gnome-keyring or KWallet, then try again.',
    });
  };
  const store = {
    broken: false,
    get: async (account: string) => (store.broken ? fail() : memory.get(account)),
    set: async (account: string, secret: string) => (store.broken ? fail() : memory.set(account, secret)),
    delete: async (account: string) => (store.broken ? fail() : memory.delete(account)),
  };
  return store;
}

type Mode = 'proxy' | 'redirect' | 'echo401' | 'echo500';

/**
 * The hostile server: in 'proxy' mode forwards everything to the demo service (rewriting the
 * demo's origin to its own, so recordings are same-origin and get the key); in 'redirect' mode
 * answers a recording request with a 302 to the storage origin ({@link startStorageServer}); in 'echo401' mode
 * answers 401 with the request's Authorization header in the body and a header; in 'echo500' mode
 * answers 500 echoing the headers and the request body (a POSTed sip_password included).
 */
async function startHostileServer(
  demo: DemoServer,
  storageOrigin: string,
): Promise<{ baseUrl: string; mode: Mode; close(): Promise<void> }> {
  const demoOrigin = new URL(demo.baseUrl).origin;
  const state = { mode: 'proxy' as Mode, origin: '' };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const authorization = req.headers.authorization ?? '';
        if (state.mode === 'redirect' && req.url?.includes('/recordings/')) {
          res.writeHead(302, { Location: `${storageOrigin}/signed${req.url}?expires=1` }).end();
          return;
        }
        if (state.mode === 'echo401') {
          res.writeHead(401, {
            'Content-Type': 'application/json',
            'WWW-Authenticate': `Bearer error="invalid_token" token="${authorization}"`,
          });
          res.end(
            JSON.stringify({
              status: 'error',
              message: `Invalid credentials: ${authorization}`,
              error: { message: `rejected ${authorization}` },
            }),
          );
          return;
        }
        if (state.mode === 'echo500') {
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(
            JSON.stringify({
              status: 'error',
              message: `Internal error handling ${body} with ${authorization}`,
              headers: req.headers,
            }),
          );
          return;
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === 'string' && name !== 'host') headers[name] = value;
        const upstream = await fetch(`${demoOrigin}${req.url}`, {
          method: req.method,
          headers,
          body: body === '' ? undefined : body,
        });
        const type = upstream.headers.get('content-type') ?? '';
        const out: Record<string, string> = {};
        upstream.headers.forEach((value, name) => {
          if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value;
        });
        if (type.includes('json')) {
          const text = (await upstream.text()).split(demoOrigin).join(state.origin);
          res.writeHead(upstream.status, out);
          res.end(text);
        } else {
          const bytes = Buffer.from(await upstream.arrayBuffer());
          res.writeHead(upstream.status, out);
          res.end(bytes);
        }
      })().catch(() => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${state.origin}/v1`,
    get mode() {
      return state.mode;
    },
    set mode(mode: Mode) {
      state.mode = mode;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * A second origin standing for signed object storage: serves the demo recording for any path and
 * keeps every request's raw headers, so the test can check that no key ever reached it.
 */
async function startStorageServer(
  recording: Buffer,
): Promise<{ origin: string; rawHeaders: string[]; close(): Promise<void> }> {
  const rawHeaders: string[] = [];
  const server = createServer((req, res) => {
    rawHeaders.push(`${req.method ?? ''} ${req.url ?? ''}\n${req.rawHeaders.join('\n')}`);
    res.writeHead(200, { 'Content-Type': 'audio/ogg', 'Content-Length': recording.length });
    res.end(req.method === 'HEAD' ? undefined : recording);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rawHeaders,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A loopback port with nothing listening (for the network-error path). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : statSync(path).isFile() ? [path] : [];
  });
}

interface Seen {
  method: ApiMethod;
  json: string;
}

let userData: string;
/** Where the save dialog's stand-in puts exported transcripts and downloaded recordings. */
let exportsDir: string;
/** Folder holding the run's temporary recordings (the recording cache). */
let recordingsRoot: string;
let demo: DemoServer;
let hostile: Awaited<ReturnType<typeof startHostileServer>>;
let storage: Awaited<ReturnType<typeof startStorageServer>>;
const results: Seen[] = [];
const recordingResponses: Array<{ what: string; status: number; text: string }> = [];
const thrown: string[] = [];

beforeAll(async () => {
  userData = temporaryFolder('vr-secret-leak-');
  exportsDir = temporaryFolder('vr-secret-leak-exports-');
  recordingsRoot = temporaryFolder('vr-secret-leak-recordings-');
  let saved = 0;
  const log = configureMainLog(nodeLog.create({ logId: `secret-leak-${process.pid}` }), {
    dir: join(userData, 'logs'),
    consoleLevel: false,
  });

  demo = await startDemoServer({ resourcesDir: join(ROOT, 'resources'), apiKey: KEY });
  storage = await startStorageServer(
    readFileSync(join(ROOT, 'resources', 'demo', 'recordings', `${demo.interactions[0]!.sid}.ogg`)),
  );
  hostile = await startHostileServer(demo, storage.origin);

  // Careless request logging, as a future change might add: every request with its headers.
  const loggingFetch: typeof fetch = async (input, init) => {
    log.info('HTTP request', {
      url: String(input instanceof Request ? input.url : input),
      method: init?.method ?? 'GET',
      headers: init?.headers,
      body: init?.body,
    });
    return fetch(input, init);
  };

  // Built as electron/main/index.ts builds it, and called through the IPC registration it makes.
  const keychain = breakableKeychain();
  const stack = createMainStack({
    userDataDir: userData,
    secrets: createKeyStorage({ keychain, safeStorage: encryptingSafeStorage(), dir: userData }),
    resourcesDir: join(ROOT, 'resources'),
    startDemo: () => Promise.resolve({ ...demo, close: () => Promise.resolve() }),
    recordingOrigin: `${RECORDING_SCHEME}://local`,
    log,
    fetch: loggingFetch,
    recordingCacheRoot: recordingsRoot,
    chooseSavePath: ({ defaultName }) => Promise.resolve(join(exportsDir, `${String(++saved)}-${defaultName}`)),
    clipboard: memoryClipboard(),
  });
  const ipcMain = createIpcMainStandIn();
  registerIpc(ipcMain, stack);
  const invokeGuarded = (method: ApiMethod, senderUrl: string, args: unknown[]) =>
    ipcMain.handlers.get(channelOf(method))!({ senderFrame: { url: senderUrl } }, ...args);
  const { recording, session } = stack;

  async function call<T = unknown>(method: ApiMethod, ...args: unknown[]): Promise<IpcResult<T>> {
    try {
      // The renderer's payload crosses IPC by structured clone; JSON is what a person could see of it.
      const result = (await invokeGuarded(method, APP_INDEX_URL, args)) as IpcResult<T>;
      results.push({ method, json: JSON.stringify(result) });
      return result;
    } catch (err) {
      thrown.push(err instanceof Error ? `${err.message}\n${err.stack}` : String(err));
      throw err;
    }
  }
  async function playRecording(what: string, sid: string): Promise<void> {
    const response = await recording(
      new Request(`${RECORDING_SCHEME}://local${recordingPath(sid)}`, {
        headers: { Range: 'bytes=0-1023', Origin: 'app://voice-review' },
      }),
    );
    const body = Buffer.from(await response.arrayBuffer());
    const headers = JSON.stringify([...response.headers]);
    recordingResponses.push({ what, status: response.status, text: `${headers}\n${body.toString('latin1')}` });
  }
  const value = <T>(result: IpcResult<T>): T => {
    if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
    return result.value;
  };

  // 1. Connect to the demo service with the known key, and use every read and write.
  await call('getSession');
  const connected = value(
    await call<SessionInfo>('connect', { name: 'Production', baseUrl: demo.baseUrl, apiKey: KEY }),
  );
  const productionId = connected.workspace!.id;
  const sid = demo.interactions[0]!.sid;
  value(await call('getInteraction', sid));
  await playRecording('demo recording', sid);
  await call('getPeaks', sid);
  for (const format of ['txt', 'json', 'srt', 'vtt']) value(await call('exportTranscript', sid, format));
  value(await call('downloadRecording', sid));
  const phones = value(await call<Array<{ number: string }>>('listPhones'));
  value(await call('getPhone', phones[0]!.number));
  value(await call('updatePhone', phones[0]!.number, { name: 'Front desk (renamed)' }));
  value(await call('listSipTrunks'));
  const trunk = value(
    await call<{ sid: string }>('createSipTrunk', {
      name: 'Leak test trunk',
      terminationUri: 'sip:pbx.example.com',
      sipUsername: 'alice',
      sipPassword: SIP_PASSWORD,
    }),
  );
  value(await call('getSipTrunk', trunk.sid));
  value(await call('copySecret', SIP_PASSWORD));
  const webhooks = value(await call<Array<{ sid: string }>>('listWebhooks'));
  if (webhooks[0]) {
    value(await call('getWebhook', webhooks[0].sid));
    value(await call('deleteWebhook', webhooks[0].sid));
  }
  await call('testWorkspace', productionId);
  await call('getSession');

  // 2. A wrong new key: rejected by the service, nothing changes.
  const rejected = await call('changeWorkspaceKey', productionId, NEW_KEY);
  expect(rejected.ok).toBe(false);

  // 3. The hostile server: works as a proxy first (key attached to its same-origin recordings) ...
  const hostileWs = value(await call<SessionInfo>('connect', { name: 'Echo', baseUrl: hostile.baseUrl, apiKey: KEY }))
    .workspace!.id;
  value(await call('getInteraction', sid));
  await playRecording('proxied recording', sid);
  value(await call('exportTranscript', sid, 'vtt'));
  value(await call('downloadRecording', sid));
  // ... then redirects recordings to signed storage on another origin (followed without the key).
  // Another call's recording: the first one is in the run's recording cache already.
  hostile.mode = 'redirect';
  const redirectedSid = demo.interactions[1]!.sid;
  await playRecording('recording redirected to storage', redirectedSid);
  await call('getPeaks', redirectedSid);
  // ... then rejects the key and echoes the Authorization header back.
  hostile.mode = 'echo401';
  expect((await call('listPhones')).ok).toBe(false);
  await call('getInteraction', demo.interactions[1]?.sid ?? sid);
  await playRecording('recording answered 401 with the key echoed', sid);
  await call('testWorkspace', hostileWs);
  await call('changeWorkspaceKey', hostileWs, NEW_KEY);
  // ... and fails with 500s that echo the request, sip_password included.
  hostile.mode = 'echo500';
  await call('createSipTrunk', {
    name: 'Echo trunk',
    terminationUri: 'sip:pbx.example.com',
    sipUsername: 'bob',
    sipPassword: SIP_PASSWORD,
  });
  await call('updatePhone', phones[0]!.number, { name: 'Echoed' });
  await call('listWebhooks');

  // 4. Network error: nothing listens.
  const port = await closedPort();
  expect((await call('connect', { name: 'Down', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY })).ok).toBe(false);

  // 5. The keychain breaks: the user agrees to safeStorage, and the key is stored encrypted.
  keychain.broken = true;
  await call('getSession');
  await call('switchWorkspace', productionId);
  await call('useSafeStorage', false);
  await call('connect', { name: 'Production', baseUrl: demo.baseUrl, apiKey: KEY });
  await call('getSession');

  // 6. A sender outside the app is refused (and logged).
  await invokeGuarded('connect', 'https://evil.example/', [{ name: 'x', baseUrl: demo.baseUrl, apiKey: KEY }]);

  // 7. What careless code might log directly.
  log.warn('Request failed', { headers: { Authorization: `Bearer ${KEY}` }, apiKey: KEY });
  log.error(new Error(`Upstream refused key ${KEY} for trunk with sip_password=${SIP_PASSWORD}`));
  log.info(`Retrying with Authorization: Bearer ${NEW_KEY}`);
  await session.close();
}, 60_000);

afterAll(async () => {
  await hostile.close();
  await storage.close();
  await demo.close();
});

describe('a known API key and SIP password sent through every path', () => {
  it('exercised the paths it claims to (so the checks below mean something)', () => {
    const methods = new Set(results.map((r) => r.method));
    for (const m of [
      'connect',
      'getInteraction',
      'listPhones',
      'updatePhone',
      'createSipTrunk',
      'getSipTrunk',
      'getPeaks',
      'testWorkspace',
      'changeWorkspaceKey',
      'useSafeStorage',
      'exportTranscript',
      'downloadRecording',
      'copySecret',
    ] as const) {
      expect(methods, m).toContain(m);
    }
    // Four transcript formats and a recording from the demo, a transcript and a recording through the proxy.
    const exported = readdirSync(exportsDir);
    expect(exported.filter((name) => /\.(txt|json|srt|vtt)$/.test(name))).toHaveLength(5);
    expect(exported.filter((name) => /\.(ogg|oga|opus)$/.test(name))).toHaveLength(2);
    expect(filesUnder(recordingsRoot).length).toBeGreaterThan(0);
    expect(filesUnder(userData).some((f) => f.endsWith('settings.json'))).toBe(true);
    const failures = results.filter((r) => r.json.includes('"ok":false')).map((r) => r.json);
    expect(failures.some((j) => j.includes('"unauthorized"'))).toBe(true);
    expect(failures.some((j) => j.includes('"network"'))).toBe(true);
    expect(failures.some((j) => j.includes('"server"'))).toBe(true);
    expect(recordingResponses.find((r) => r.what === 'demo recording')?.status).toBe(206);
    expect(recordingResponses.find((r) => r.what === 'proxied recording')?.status).toBe(206);
    const logText = filesUnder(join(userData, 'logs'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(logText).toContain('listPhones failed: unauthorized');
    expect(logText).toContain('Refused IPC call connect');
    expect(logText).toContain('HTTP request');
  });

  it('is in no result the renderer receives, and in no error message', () => {
    for (const { method, json } of results) {
      expect(json, method).not.toContain(KEY);
      expect(json, method).not.toContain(NEW_KEY);
      if (!SHOWS_SIP_PASSWORD.has(method)) expect(json, method).not.toContain(SIP_PASSWORD);
    }
    for (const message of thrown) expect(message).not.toContain(KEY);
  });

  it('never reaches the storage origin a recording redirects to (not in any header it received)', () => {
    // 206: the range is answered from the run's recording cache, filled from the storage origin.
    expect(recordingResponses.find((r) => r.what === 'recording redirected to storage')?.status).toBe(206);
    expect(storage.rawHeaders.length).toBeGreaterThan(0);
    for (const request of storage.rawHeaders) {
      expect(request).not.toContain(KEY);
      expect(request.toLowerCase()).not.toContain('authorization');
    }
  });

  it('is in no response of the recording protocol, whatever the recording server answers', () => {
    for (const { what, text } of recordingResponses) {
      expect(text, what).not.toContain(KEY);
    }
  });

  it('is in no log file, and the SIP password neither', () => {
    const files = filesUnder(join(userData, 'logs'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(KEY);
      expect(text, file).not.toContain(NEW_KEY);
      expect(text, file).not.toContain(SIP_PASSWORD);
      expect(text, file).not.toContain(encodeURIComponent(KEY));
    }
  });

  it.each([
    ['the user-data folder (settings, key storage, caches, window state)', () => userData],
    ['the exported transcripts and downloaded recordings', () => exportsDir],
    ['the temporary recordings folder', () => recordingsRoot],
  ])('is in no file of %s', (_what, folder) => {
    const files = filesUnder(folder());
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const secret of [KEY, NEW_KEY, SIP_PASSWORD]) {
        expect(bytes.includes(Buffer.from(secret, 'utf8')), `${secret} in ${file}`).toBe(false);
        expect(bytes.includes(Buffer.from(Buffer.from(secret).toString('base64'))), `base64 ${secret} in ${file}`).toBe(
          false,
        );
      }
    }
  });
});
