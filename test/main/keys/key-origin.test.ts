/**
 * A saved key is bound to the origin of its workspace's base URL (workspace-keys.ts): a settings
 * file edited on disk to point the workspace at another server finds no key there, so the key is
 * never sent to it, and the workspace asks for its key again. Main's stack over a real settings
 * folder, an in-memory keychain, and two API servers on 127.0.0.1 recording what they are sent.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { keyAccount } from '../../../electron/main/keys/workspace-keys';
import type { Settings } from '../../../electron/main/workspaces/settings';
import { createSessionRig } from '../../fixtures/session-rig';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const KEY = 'vr_live_origin_bound_key_0123456789';

/** An API server answering GET /v1/phones with an empty list, recording each request's headers. */
async function startApi() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers.authorization ?? '(no key)'}`);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: 'success', phones: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, seen, baseUrl: `http://127.0.0.1:${String(port)}/v1` };
}

let trusted: Awaited<ReturnType<typeof startApi>>;
let elsewhere: Awaited<ReturnType<typeof startApi>>;
beforeAll(async () => {
  [trusted, elsewhere] = await Promise.all([startApi(), startApi()]);
});
afterAll(() => {
  for (const api of [trusted, elsewhere]) api.server.close();
});

describe('a key bound to its origin', () => {
  it('is not sent to the server a hand-edited settings file points at; the workspace asks for its key', async () => {
    const dir = temporaryFolder('vr-key-origin-');
    const secrets = createMemoryStore();
    const first = createSessionRig({ dir, secrets });
    const { workspace } = await first.session.connect({ name: 'Production', baseUrl: trusted.baseUrl, apiKey: KEY });
    await first.session.close();
    expect(await secrets.get(keyAccount({ id: workspace!.id, baseUrl: trusted.baseUrl }))).toBe(KEY);

    // Someone edits settings.json: same workspace id, another server.
    const path = `${dir}/settings.json`;
    const settings = JSON.parse(readFileSync(path, 'utf8')) as Settings;
    settings.workspaces = settings.workspaces.map((w) => ({ ...w, baseUrl: elsewhere.baseUrl }));
    writeFileSync(path, JSON.stringify(settings));

    const second = createSessionRig({ dir, secrets });
    const info = await second.session.info();
    expect(info.workspace).toBeNull();
    expect(info.restoreProblem?.workspaceId).toBe(workspace!.id);
    expect(info.restoreProblem?.error.kind).toBe('keychain');
    expect(info.restoreProblem?.error.message).toMatch(
      /not in the keychain for http:\/\/127\.0\.0\.1:\d+ .*Enter the key again\./,
    );
    await expect(second.session.switchWorkspace(workspace!.id)).rejects.toMatchObject({ kind: 'keychain' });
    expect(await second.session.testWorkspace(workspace!.id)).toMatchObject({ ok: false, problem: 'keychain' });
    expect(elsewhere.seen).toEqual([]);

    // Entering a key for the new address is the user's choice, and that key goes there.
    const NEW_KEY = 'vr_live_key_typed_for_elsewhere_42';
    await second.session.changeWorkspaceKey(workspace!.id, NEW_KEY);
    expect(elsewhere.seen.join('\n')).not.toContain(KEY);
    expect(elsewhere.seen.every((line) => line.endsWith(`Bearer ${NEW_KEY}`))).toBe(true);
    await second.session.close();
  });

  it('keeps working when only the path of the base URL changes', async () => {
    const dir = temporaryFolder('vr-key-origin-');
    const secrets = createMemoryStore();
    const first = createSessionRig({ dir, secrets });
    const { workspace } = await first.session.connect({ name: 'Production', baseUrl: trusted.baseUrl, apiKey: KEY });
    await first.session.close();
    expect(keyAccount(workspace!)).toBe(`${workspace!.id}@${new URL(trusted.baseUrl).origin}`);
    expect(keyAccount({ id: workspace!.id, baseUrl: `${new URL(trusted.baseUrl).origin}/api/v1` })).toBe(
      keyAccount(workspace!),
    );
  });
});
