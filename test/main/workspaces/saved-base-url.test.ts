/**
 * Saved base URLs are checked again when settings are loaded, with the rule used when a
 * workspace is added (shared/base-url.ts). A settings file edited to point a workspace at plain
 * http on a remote host, or at something that is not an API base URL, opens as a restore problem
 * that names the URL, and no request (with or without the key) ever goes there.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { keyAccount } from '../../../electron/main/keys/workspace-keys';
import { createSettingsStore, type Settings } from '../../../electron/main/workspaces/settings';
import { checkSavedBaseUrls, createWorkspaceRegistry } from '../../../electron/main/workspaces/workspace-registry';
import { createSessionRig } from '../../fixtures/session-rig';
import { temporaryFolder } from '../../fixtures/temporary-folder';

/** Settings with these workspaces (id = name lower-cased), `active` saved as active. */
function settingsWith(workspaces: { name: string; baseUrl: string }[], active: string | null): Settings {
  return {
    version: 1,
    workspaces: workspaces.map((w) => ({ id: w.name.toLowerCase(), name: w.name, baseUrl: w.baseUrl })),
    activeWorkspaceId: active,
    preferences: { requestTimeoutSeconds: 30 },
  };
}

/** A session over a settings folder holding `settings` and a key for every workspace. */
async function sessionOver(settings: Settings) {
  const dir = temporaryFolder('vr-saved-url-');
  await writeFile(join(dir, 'settings.json'), JSON.stringify(settings));
  const secrets = createMemoryStore();
  for (const w of settings.workspaces) await secrets.set(keyAccount(w), `vr_live_key_of_${w.id}_0123456789`);
  return createSessionRig({ dir, secrets });
}

describe('checkSavedBaseUrls', () => {
  it('keeps good URLs in their normal form and marks the ones the rule refuses', () => {
    const checked = checkSavedBaseUrls(
      settingsWith(
        [
          { name: 'Good', baseUrl: 'https://api.example.com/v1/' },
          { name: 'Clear', baseUrl: 'http://api.example.com/v1' },
          { name: 'Ftp', baseUrl: 'ftp://api.example.com/v1' },
          { name: 'Creds', baseUrl: 'https://user:pw@api.example.com/v1' },
          { name: 'Local', baseUrl: 'http://127.0.0.1:8080/v1' },
        ],
        null,
      ),
    );
    const byName = Object.fromEntries(checked.workspaces.map((w) => [w.name, w]));
    expect(byName.Good).toEqual({ id: 'good', name: 'Good', baseUrl: 'https://api.example.com/v1' });
    expect(byName.Local?.baseUrlProblem).toBeUndefined();
    expect(byName.Clear?.baseUrlProblem).toMatch(/Use https:\/\//);
    expect(byName.Ftp?.baseUrlProblem).toMatch(/must start with https/);
    expect(byName.Creds?.baseUrlProblem).toMatch(/user names and passwords/);
  });

  it('leaves the demo workspace alone (its address is not a URL) and never writes the mark', async () => {
    const dir = temporaryFolder('vr-saved-url-');
    const store = createSettingsStore(dir);
    await writeFile(
      store.path,
      JSON.stringify({
        ...settingsWith([], null),
        workspaces: [
          { id: 'demo', name: 'Demo workspace', baseUrl: 'embedded' },
          { id: 'clear', name: 'Clear', baseUrl: 'http://api.example.com/v1' },
        ],
      }),
    );
    const registry = createWorkspaceRegistry(store);
    const [demo, clear] = (await registry.settings()).workspaces;
    expect(demo).toEqual({ id: 'demo', name: 'Demo workspace', baseUrl: 'embedded' });
    expect(clear?.baseUrlProblem).toBeDefined();
    await registry.setActiveId('demo');
    const written = await readFile(store.path, 'utf8');
    expect(written).toContain('http://api.example.com/v1');
    expect(written).not.toContain('baseUrlProblem');
  });
});

describe('a session over a settings file with a bad saved base URL', () => {
  it('shows a restore problem naming the URL, and sends no request', async () => {
    const rig = await sessionOver(
      settingsWith(
        [
          { name: 'Good', baseUrl: 'https://api.example.com/v1' },
          { name: 'Clear', baseUrl: 'http://api.example.com/v1' },
        ],
        'clear',
      ),
    );
    try {
      const info = await rig.session.info();
      expect(info.workspace).toBeNull();
      expect(info.restoreProblem?.workspaceId).toBe('clear');
      expect(info.restoreProblem?.error.kind).toBe('bad_input');
      expect(info.restoreProblem?.error.message).toContain('"http://api.example.com/v1"');
      expect(info.restoreProblem?.error.message).toMatch(/must not travel unencrypted.*Remove this workspace/);
      const failed = await rig.handlers.listPhones([]);
      expect(failed).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
      expect(rig.requests).toEqual([]);
    } finally {
      await rig.session.close();
    }
  });

  it('refuses to switch to it, test it or try a new key on it, without sending anything, and lets the user remove it', async () => {
    const rig = await sessionOver(settingsWith([{ name: 'Clear', baseUrl: 'http://api.example.com/v1' }], null));
    try {
      await expect(rig.session.switchWorkspace('clear')).rejects.toMatchObject({ kind: 'bad_input' });
      const test = await rig.session.testWorkspace('clear');
      expect(test).toMatchObject({ ok: false, problem: 'bad_url' });
      expect(test.message).toContain('"http://api.example.com/v1"');
      await expect(rig.session.changeWorkspaceKey('clear', 'vr_live_a_new_key_0123456789')).rejects.toMatchObject({
        kind: 'bad_input',
      });
      expect(rig.requests).toEqual([]);
      // What the renderer is told about the workspace is the contract's shape, nothing more.
      expect((await rig.session.info()).workspaces).toEqual([
        { id: 'clear', name: 'Clear', baseUrl: 'http://api.example.com/v1', isDemo: false },
      ]);
      await rig.session.removeWorkspace('clear');
      expect((await rig.session.info()).workspaces).toEqual([]);
    } finally {
      await rig.session.close();
    }
  });
});
