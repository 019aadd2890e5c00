import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSettingsStore, type Settings } from '../../../electron/main/workspaces/settings';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const tempDir = () => temporaryFolder('voice-review-settings-');

const DEFAULTS: Settings = {
  version: 1,
  workspaces: [],
  activeWorkspaceId: null,
  preferences: { requestTimeoutSeconds: 15 },
};

const TWO_WORKSPACES: Settings = {
  version: 1,
  workspaces: [
    { id: 'demo', name: 'Demo', baseUrl: 'http://127.0.0.1:4010' },
    { id: 'ws-acme', name: 'Acme support', baseUrl: 'https://api.example.com' },
  ],
  activeWorkspaceId: 'ws-acme',
  preferences: { requestTimeoutSeconds: 40 },
};

describe('settings store', () => {
  it('gives the defaults when there is no settings file yet', async () => {
    const store = createSettingsStore(tempDir());
    expect(await store.load()).toEqual(DEFAULTS);
  });

  it('saves and loads the same settings', async () => {
    const dir = tempDir();
    await createSettingsStore(dir).save(TWO_WORKSPACES);
    expect(await createSettingsStore(dir).load()).toEqual(TWO_WORKSPACES);
  });

  it('writes settings.json in the given folder, readable only by the user (0600)', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    expect(store.path).toBe(join(dir, 'settings.json'));
    await store.save(TWO_WORKSPACES);
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
  });

  it('creates the folder when it does not exist yet', async () => {
    const dir = join(tempDir(), 'Voice Review');
    await createSettingsStore(dir).save(TWO_WORKSPACES);
    expect(await createSettingsStore(dir).load()).toEqual(TWO_WORKSPACES);
  });

  it('leaves no temp files behind after saving, also when saving many times at once', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.save({ ...TWO_WORKSPACES, workspaces: TWO_WORKSPACES.workspaces.slice(0, i % 2) }),
      ),
    );
    expect(await readdir(dir)).toEqual(['settings.json']);
    const loaded = await store.load();
    expect(loaded.workspaces.length).toBeLessThanOrEqual(1);
  });

  it('replaces the whole file, so a shorter save leaves no tail of the longer one', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await store.save(TWO_WORKSPACES);
    await store.save(DEFAULTS);
    expect(JSON.parse(await readFile(store.path, 'utf8'))).toEqual(DEFAULTS);
  });
});

describe('settings store: damaged and foreign files', () => {
  it('keeps a corrupt file as settings.json.corrupt-<timestamp> and starts from the defaults', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await writeFile(store.path, '{"version": 1, "workspaces": [');
    expect(await store.load()).toEqual(DEFAULTS);
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^settings\.json\.corrupt-\d{4}-\d{2}-\d{2}T/);
    expect(await readFile(join(dir, files[0]!), 'utf8')).toBe('{"version": 1, "workspaces": [');
  });

  it('treats a file of the wrong shape like a corrupt one', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    const wrong = JSON.stringify({ version: 1, workspaces: [{ id: 42, name: 'Acme' }], activeWorkspaceId: null });
    await writeFile(store.path, wrong);
    expect(await store.load()).toEqual(DEFAULTS);
    const backups = (await readdir(dir)).filter((f) => f.startsWith('settings.json.corrupt-'));
    expect(backups).toHaveLength(1);
    expect(await readFile(join(dir, backups[0]!), 'utf8')).toBe(wrong);
  });

  it('treats a file from another format version like a corrupt one', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await writeFile(store.path, JSON.stringify({ ...TWO_WORKSPACES, version: 2 }));
    expect(await store.load()).toEqual(DEFAULTS);
    expect((await readdir(dir)).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
  });

  it('ignores unknown fields instead of discarding the file', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await writeFile(
      store.path,
      JSON.stringify({
        ...TWO_WORKSPACES,
        theme: 'dark',
        workspaces: TWO_WORKSPACES.workspaces.map((w) => ({ ...w, color: 'blue' })),
      }),
    );
    expect(await store.load()).toEqual(TWO_WORKSPACES);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('treats an active workspace id that names no workspace as none active', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await writeFile(store.path, JSON.stringify({ ...TWO_WORKSPACES, activeWorkspaceId: 'ws-gone' }));
    expect(await store.load()).toEqual({ ...TWO_WORKSPACES, activeWorkspaceId: null });
  });

  it('refuses to save settings of the wrong shape and keeps the old file', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await store.save(TWO_WORKSPACES);
    const bad = { version: 1, workspaces: 'all of them', activeWorkspaceId: null } as unknown as Settings;
    await expect(store.save(bad)).rejects.toThrow(/wrong shape/);
    expect(await store.load()).toEqual(TWO_WORKSPACES);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });
});

describe('settings store: keys and preferences', () => {
  it('never writes an API key, even one riding along on the objects it is given', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    const apiKey = 'sk-live-do-not-store-9f8e7d';
    const withKey = {
      ...TWO_WORKSPACES,
      apiKey,
      workspaces: TWO_WORKSPACES.workspaces.map((w) => ({ ...w, apiKey, key: apiKey })),
    } as Settings;
    await store.save(withKey);
    const text = await readFile(store.path, 'utf8');
    expect(text).not.toContain(apiKey);
    expect(text).not.toMatch(/apiKey|"key"/);
    expect(await store.load()).toEqual(TWO_WORKSPACES);
  });

  it('loads a file written before preferences existed, keeping its workspaces, with the 15 s default timeout', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    const { preferences: _none, ...old } = TWO_WORKSPACES;
    await writeFile(store.path, JSON.stringify(old));
    expect(await store.load()).toEqual({ ...TWO_WORKSPACES, preferences: { requestTimeoutSeconds: 15 } });
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it.each([
    ['below the 3 s minimum', { requestTimeoutSeconds: 1 }],
    ['above the 120 s maximum', { requestTimeoutSeconds: 600 }],
    ['not a whole number', { requestTimeoutSeconds: 7.5 }],
    ['a string', { requestTimeoutSeconds: '30' }],
    ['not an object', 'fast'],
  ])('a timeout %s falls back to 15 s without discarding the workspaces', async (_what, preferences) => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await writeFile(store.path, JSON.stringify({ ...TWO_WORKSPACES, preferences }));
    expect(await store.load()).toEqual({ ...TWO_WORKSPACES, preferences: { requestTimeoutSeconds: 15 } });
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('refuses to save a timeout out of range', async () => {
    const dir = tempDir();
    const store = createSettingsStore(dir);
    await store.save(TWO_WORKSPACES);
    await expect(store.save({ ...TWO_WORKSPACES, preferences: { requestTimeoutSeconds: 0 } })).rejects.toThrow(
      /wrong shape/,
    );
    expect((await store.load()).preferences).toEqual({ requestTimeoutSeconds: 40 });
  });
});
