/**
 * Settings → Network behind the bridge: importing a CA through main's open dialog and main's
 * confirmation (refusals in words, nothing kept when declined), removing it, and proxy sign-ins
 * kept in the key store per proxy origin.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../electron/shared/errors';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { createMainNetwork } from '../../../electron/main/network/main-network';
import {
  createNetworkService,
  createSignInBroker,
  keyStoreProxyCredentials,
  type ConfirmInMain,
} from '../../../electron/main/network/network-service';
import { createPrivateCa, issueServerCertificate, selfSigned } from './fixtures/private-ca';

let dir: string;
const files: Record<string, string> = {};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vr-network-service-'));
  const ca = createPrivateCa('Desk Inspection CA');
  const write = (name: string, text: string) => {
    files[name] = join(dir, name);
    writeFileSync(files[name], text);
  };
  write('ca.pem', ca.cert);
  write('server.pem', issueServerCertificate(ca, ['api.desk.test']).cert);
  write('notes.txt', 'Not a certificate at all.');
  write('leaf.pem', selfSigned('Some Server', ['basicConstraints=critical,CA:FALSE']).cert);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function service(file: string, confirm: ConfirmInMain = () => Promise.resolve(true)) {
  const settingsDir = mkdtempSync(join(dir, 'settings-'));
  const network = createMainNetwork({
    settingsDir,
    env: {},
    credentials: keyStoreProxyCredentials(createMemoryStore()),
    prompt: null,
    registerSecret: () => undefined,
  });
  return createNetworkService({
    network,
    activeBaseUrl: () => null,
    chooseOpenPath: () => Promise.resolve(file),
    confirm,
  });
}

describe('importing a CA certificate', () => {
  it('shows the CA in main’s confirmation, keeps it, and removes it again', async () => {
    const asked: string[] = [];
    const s = service(files['ca.pem']!, ({ detail }) => {
      asked.push(detail);
      return Promise.resolve(true);
    });
    const result = await s.importCa();
    expect(result.imported?.map((c) => c.subject)).toEqual(['Desk Inspection CA']);
    expect(asked[0]).toMatch(
      /Subject: Desk Inspection CA\nIssuer: Desk Inspection CA\nSHA-256: ([0-9A-F]{2}:){31}[0-9A-F]{2}\nExpires: \d{4}-\d{2}-\d{2}/,
    );
    expect(result.settings.trust.imported).toBe(1);
    const again = await s.importCa();
    expect(again.imported).toEqual([]);
    const after = await s.removeCa(result.settings.certificates[0]!.fingerprint256);
    expect(after.certificates).toEqual([]);
    expect(after.trust.imported).toBe(0);
  });

  it('keeps nothing when the user declines in main’s dialog', async () => {
    const s = service(files['ca.pem']!, () => Promise.resolve(false));
    const result = await s.importCa();
    expect(result.imported).toBeNull();
    expect(result.settings.certificates).toEqual([]);
  });

  it.each([
    ['notes.txt', /not a certificate Voice Review can read/],
    ['leaf.pem', /“Some Server” is not a certificate authority/],
    ['server.pem', /“api.desk.test” is not a certificate authority/],
  ])('refuses %s in words', async (name, words) => {
    const error = await service(files[name]!)
      .importCa()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('bad_input');
    expect((error as ApiError).message).toMatch(words);
  });
});

describe('proxy sign-in', () => {
  it('keeps credentials per proxy origin in the key store', async () => {
    const store = createMemoryStore();
    const credentials = keyStoreProxyCredentials(store);
    await credentials.set('http://proxy.corp:3128', { username: 'desk\\agent', password: 'p@ss' });
    expect(await credentials.get('http://proxy.corp:3128')).toEqual({ username: 'desk\\agent', password: 'p@ss' });
    expect(await credentials.get('http://other.corp:3128')).toBeNull();
    await credentials.forget('http://proxy.corp:3128');
    expect(await credentials.get('http://proxy.corp:3128')).toBeNull();
  });

  it('cancels the ask when no window can show the sheet, and answers it by id otherwise', async () => {
    const request = { proxyOrigin: 'http://p:1', proxyHost: 'p:1', realm: null, rejected: false, username: null };
    expect(await createSignInBroker(() => null).prompt(request)).toBeNull();
    const pushed: string[] = [];
    const broker = createSignInBroker(() => (push) => {
      pushed.push(push.id);
      return true;
    });
    const answer = broker.prompt(request);
    broker.answer(pushed[0]!, { username: 'u', password: 'p' });
    expect(await answer).toEqual({ username: 'u', password: 'p' });
  });
});
