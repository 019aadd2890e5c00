/**
 * The review queue: per workspace, in the order added, one entry per SID, marked reviewed or
 * not, kept in a private file beside settings.json that a new store (a restarted app) reads back;
 * a corrupt file reads as empty. Over IPC: arguments checked, the active workspace's queue only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { createMainStack } from '../../../electron/main/main-stack';
import { createReviewQueue, REVIEW_QUEUE_FILE } from '../../../electron/main/workspaces/review-queue';
import type { IpcResult, QueuedCall } from '../../../electron/shared/contract';
import { RESOURCES_DIR } from '../../fixtures/session-rig';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const tempDir = () => temporaryFolder('vr-queue-');
const sid = (n: number) => `interaction_00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('review queue store', () => {
  it('keeps the order added, once per SID, apart from other workspaces, across a restart', async () => {
    const dir = tempDir();
    let clock = 100;
    const store = createReviewQueue(dir, () => clock++);
    await store.add('w1', [sid(1), sid(2)]);
    await store.add('w1', [sid(2), sid(3)]);
    await store.add('w2', [sid(9)]);
    await store.setReviewed('w1', sid(2), true);
    const restarted = createReviewQueue(dir);
    expect(await restarted.list('w1')).toEqual([
      { sid: sid(1), reviewed: false, addedAtMs: 100 },
      { sid: sid(2), reviewed: true, addedAtMs: 101 },
      { sid: sid(3), reviewed: false, addedAtMs: 102 },
    ]);
    expect((await restarted.remove('w1', sid(1))).map((c) => c.sid)).toEqual([sid(2), sid(3)]);
    expect(await restarted.clear('w1')).toEqual([]);
    expect((await restarted.list('w2')).map((c) => c.sid)).toEqual([sid(9)]);
  });

  it('writes a private file, and reads a corrupt one as empty, dropping only unreadable entries', async () => {
    const dir = tempDir();
    const file = path.join(dir, REVIEW_QUEUE_FILE);
    fs.writeFileSync(file, '{ not json');
    const store = createReviewQueue(dir);
    expect(await store.list('w1')).toEqual([]);
    await store.add('w1', [sid(1)]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const good = { sid: sid(2), reviewed: true, addedAtMs: 5 };
    fs.writeFileSync(file, JSON.stringify({ version: 1, workspaces: { w1: [good, { sid: 42 }, 'x'] } }));
    expect(await store.list('w1')).toEqual([good]);
  });
});

describe('review queue over IPC', () => {
  let demo: DemoServer;
  beforeAll(async () => {
    demo = await startDemoServer({ resourcesDir: RESOURCES_DIR });
  });
  afterAll(() => demo.close());

  it('acts on the active workspace’s queue and refuses what is not an interaction SID', async () => {
    const stack = createMainStack({
      userDataDir: tempDir(),
      secrets: createMemoryStore(),
      resourcesDir: RESOURCES_DIR,
      startDemo: () => Promise.resolve({ ...demo, close: () => Promise.resolve() }),
      recordingOrigin: 'vr-recording://local',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      peaksCacheDir: null,
      recordingCacheRoot: path.join(tempDir(), 'recordings'),
    });
    const value = (result: IpcResult<unknown>) => (result as IpcResult<QueuedCall[]> & { ok: true }).value;
    expect(value(await stack.handlers.getQueue([]))).toEqual([]);
    const refused = await stack.handlers.addToQueue([[sid(1)]]);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    await stack.handlers.openDemo([]);
    expect(await stack.handlers.addToQueue([['not a sid']])).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    expect(value(await stack.handlers.addToQueue([[sid(1), sid(2)]])).map((c) => c.sid)).toEqual([sid(1), sid(2)]);
    expect(value(await stack.handlers.setQueueReviewed([sid(2), true])).map((c) => c.reviewed)).toEqual([false, true]);
    expect(value(await stack.handlers.removeFromQueue([sid(1)])).map((c) => c.sid)).toEqual([sid(2)]);
    expect(value(await stack.handlers.clearQueue([]))).toEqual([]);
    await stack.close();
  });
});
