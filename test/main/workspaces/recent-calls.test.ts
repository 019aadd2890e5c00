/**
 * The recent calls store: per workspace, most recent first, one entry per SID, at most 50, kept
 * in a private file beside settings.json that holds no transcript and no key, and a corrupt file
 * read as empty. Also the handlers: a successful lookup files the call, a failed one does not.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { createMainStack } from '../../../electron/main/main-stack';
import {
  createRecentCalls,
  RECENT_CALLS_FILE,
  type RecentCallSource,
} from '../../../electron/main/workspaces/recent-calls';
import type { IpcResult, RecentCall } from '../../../electron/shared/contract';
import { RESOURCES_DIR } from '../../fixtures/session-rig';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const tempDir = () => temporaryFolder('vr-recent-');

const call = (n: number): RecentCallSource => ({
  sid: `interaction_00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  fromNumber: '+14155550123',
  toNumber: '+14155550199',
  direction: 'inbound',
  status: 'completed',
  startedAtMs: 1_700_000_000_000 + n,
});

describe('recent calls store', () => {
  it('lists a workspace’s calls most recent first, once per SID, apart from other workspaces', async () => {
    let clock = 1000;
    const store = createRecentCalls(tempDir(), () => clock++);
    await store.record('w1', call(1));
    await store.record('w1', call(2));
    await store.record('w2', call(3));
    await store.record('w1', call(1));
    const listed = await store.list('w1');
    expect(listed.map((c) => c.sid)).toEqual([call(1).sid, call(2).sid]);
    expect(listed[0]).toEqual({ ...call(1), openedAtMs: 1003 });
    expect((await store.list('w2')).map((c) => c.sid)).toEqual([call(3).sid]);
    expect(await store.list('w3')).toEqual([]);
  });

  it('keeps the last 50 and forgets a workspace when cleared', async () => {
    const store = createRecentCalls(tempDir());
    await Promise.all(Array.from({ length: 55 }, (_, i) => store.record('w1', call(i))));
    await store.record('w2', call(99));
    const listed = await store.list('w1');
    expect(listed).toHaveLength(50);
    expect(listed.map((c) => c.sid)).toContain(call(54).sid);
    expect(listed.map((c) => c.sid)).not.toContain(call(4).sid);
    await store.clear('w1');
    expect(await store.list('w1')).toEqual([]);
    expect(await store.list('w2')).toHaveLength(1);
  });

  it('writes a private file with the call fields only', async () => {
    const dir = tempDir();
    const store = createRecentCalls(dir);
    await store.record('w1', { ...call(1), log: [{ message: 'secret words' }] } as RecentCallSource);
    const file = path.join(dir, RECENT_CALLS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('secret words');
    expect(Object.keys((JSON.parse(text) as { workspaces: { w1: object[] } }).workspaces.w1[0]!).sort()).toEqual([
      'direction',
      'fromNumber',
      'openedAtMs',
      'sid',
      'startedAtMs',
      'status',
      'toNumber',
    ]);
  });

  it('reads a corrupt file as empty and replaces it at the next write; drops only unreadable calls', async () => {
    const dir = tempDir();
    const file = path.join(dir, RECENT_CALLS_FILE);
    fs.writeFileSync(file, '{ not json');
    const store = createRecentCalls(dir);
    expect(await store.list('w1')).toEqual([]);
    await store.record('w1', call(1));
    expect(await store.list('w1')).toHaveLength(1);
    const good = { ...call(2), openedAtMs: 5 };
    fs.writeFileSync(file, JSON.stringify({ version: 1, workspaces: { w1: [good, { sid: 42 }, 'x'] } }));
    expect(await store.list('w1')).toEqual([good]);
  });
});

describe('recent calls over IPC', () => {
  let demo: DemoServer;
  beforeAll(async () => {
    demo = await startDemoServer({ resourcesDir: RESOURCES_DIR });
  });
  afterAll(() => demo.close());

  it('files each successful lookup under the active workspace; clear and workspace removal forget them', async () => {
    const userDataDir = tempDir();
    const stack = createMainStack({
      userDataDir,
      secrets: createMemoryStore(),
      resourcesDir: RESOURCES_DIR,
      startDemo: () => Promise.resolve({ ...demo, close: () => Promise.resolve() }),
      recordingOrigin: 'vr-recording://local',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      peaksCacheDir: null,
      recordingCacheRoot: path.join(tempDir(), 'recordings'),
    });
    const list = async () =>
      ((await stack.handlers.listRecentCalls([])) as IpcResult<RecentCall[]> & { ok: true }).value;
    expect(await list()).toEqual([]);
    await stack.handlers.openDemo([]);
    const [a, b] = demo.interactions;
    await stack.handlers.getInteraction([a!.sid]);
    await stack.handlers.getInteraction([b!.sid]);
    await stack.handlers.getInteraction(['interaction_00000000-0000-4000-8000-000000000000']);
    expect((await list()).map((c) => c.sid)).toEqual([b!.sid, a!.sid]);
    const [latest] = await list();
    expect(typeof latest?.fromNumber).toBe('string');
    expect(typeof latest?.direction).toBe('string');

    expect(await stack.handlers.clearRecentCalls([])).toEqual({ ok: true, value: undefined });
    expect(await list()).toEqual([]);

    await stack.handlers.getInteraction([a!.sid]);
    const added = (await stack.handlers.connect([
      { name: 'Second', baseUrl: demo.baseUrl, apiKey: demo.apiKey },
    ])) as IpcResult<{
      workspace: { id: string };
    }> & { ok: true };
    expect(await list()).toEqual([]);
    await stack.handlers.getInteraction([b!.sid]);
    expect((await list()).map((c) => c.sid)).toEqual([b!.sid]);
    await stack.handlers.removeWorkspace([added.value.workspace.id]);
    const kept = JSON.parse(fs.readFileSync(path.join(userDataDir, RECENT_CALLS_FILE), 'utf8')) as {
      workspaces: Record<string, unknown>;
    };
    expect(Object.keys(kept.workspaces)).toHaveLength(1);
    expect(kept.workspaces[added.value.workspace.id]).toBeUndefined();
    await stack.close();
  });
});
