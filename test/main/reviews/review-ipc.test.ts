/**
 * The review store as the renderer reaches it: through main's handler table built by the app's
 * composition root. Inputs are checked by schema, a review belongs to the active workspace only,
 * a store failure comes back as a `storage` error with words, the database and the masking rules
 * are private files in the settings folder, and the API key is never written into either.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { createMainStack, type MainStack } from '../../../electron/main/main-stack';
import { REDACTION_SETTINGS_FILE } from '../../../electron/main/reviews/redaction-settings';
import { REVIEW_DATABASE_FILE } from '../../../electron/main/reviews/review-db';
import { createReviewService } from '../../../electron/main/reviews/review-service';
import type { IpcResult, SessionInfo } from '../../../electron/shared/contract';
import type { ReviewPage, ReviewRecord } from '../../../electron/shared/reviews';
import { RESOURCES_DIR } from '../../fixtures/session-rig';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const tempDir = () => temporaryFolder('vr-review-ipc-');
const value = (result: IpcResult<unknown>): unknown => {
  if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
  return result.value;
};

describe('reviews over IPC', () => {
  let demo: DemoServer;
  let stack: MainStack;
  let userDataDir: string;
  let workspaceId: string;
  beforeAll(async () => {
    demo = await startDemoServer({ resourcesDir: RESOURCES_DIR });
    userDataDir = tempDir();
    stack = createMainStack({
      userDataDir,
      secrets: createMemoryStore(),
      resourcesDir: RESOURCES_DIR,
      startDemo: () => Promise.resolve({ ...demo, close: () => Promise.resolve() }),
      recordingOrigin: 'vr-recording://local',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      peaksCacheDir: null,
      recordingCacheRoot: path.join(tempDir(), 'recordings'),
    });
    workspaceId = (value(await stack.handlers.openDemo([])) as SessionInfo).workspace!.id;
  });
  afterAll(async () => {
    await stack.close();
    await demo.close();
  });

  it('keeps notes, verdict, score, tags and ticket of a call, and lists them', async () => {
    const sid = demo.interactions[0]!.sid;
    const key = { workspaceId, sid };
    const added = value(
      await stack.handlers.addReviewNote([
        { ...key, text: 'Agent skipped the ID check', place: { startSeconds: 4.5 } },
      ]),
    ) as { record: ReviewRecord };
    expect(added.record.notes).toMatchObject([
      { startSeconds: 4.5, endSeconds: null, text: 'Agent skipped the ID check' },
    ]);
    await stack.handlers.setReviewVerdict([{ ...key, verdict: 'needs_work' }]);
    await stack.handlers.setReviewScore([{ ...key, criterionId: 'correct', score: 3 }]);
    await stack.handlers.setReviewTags([{ ...key, tags: ['Billing', 'billing', 'id check'] }]);
    const record = value(await stack.handlers.setReviewTicket([{ ...key, ticket: 'SUP-42' }])) as ReviewRecord;
    expect(record).toMatchObject({
      verdict: 'needs_work',
      rubricVersion: 1,
      scores: { correct: 3 },
      tags: ['billing', 'id check'],
      ticket: { kind: 'id', id: 'SUP-42' },
    });
    const page = value(await stack.handlers.listReviews([{ workspaceId, tag: 'billing' }])) as ReviewPage;
    expect(page.rows.map((r) => r.sid)).toEqual([sid.toLowerCase()]);
    const file = path.join(userDataDir, REVIEW_DATABASE_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file).includes(Buffer.from(demo.apiKey))).toBe(false);
  });

  it('refuses bad input and another workspace with words', async () => {
    const sid = demo.interactions[0]!.sid;
    const blank = await stack.handlers.addReviewNote([{ workspaceId, sid, text: '   ', place: { startSeconds: 1 } }]);
    expect(blank).toEqual({ ok: false, error: { kind: 'bad_input', message: 'A note needs some text.' } });
    const keyed = await stack.handlers.setReviewTicket([
      { workspaceId, sid, ticket: 'https://tracker.example/t/1?token=abc' },
    ]);
    expect(keyed.ok).toBe(false);
    const other = await stack.handlers.getReview([{ workspaceId: 'another', sid }]);
    expect(other).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    expect(!other.ok && other.error.message).toMatch(/another workspace/);
  });

  it('keeps the masking rules in a private file of the settings folder', async () => {
    const saved = await stack.handlers.setRedactionSettings([
      { card: true, account: false, phone: true, email: true, dateOfBirth: true, spokenDigits: false },
    ]);
    expect(saved.ok).toBe(true);
    const file = path.join(userDataDir, REDACTION_SETTINGS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((value(await stack.handlers.getRedactionSettings([])) as { account: boolean }).account).toBe(false);
    expect((await stack.handlers.setRedactionSettings([{ card: 'yes' }])).ok).toBe(false);
  });
});

describe('review service failures', () => {
  it('moves a damaged reviews file aside and says so', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, REVIEW_DATABASE_FILE), 'this is not a database, it is plain text '.repeat(200));
    const service = createReviewService({
      userDataDir: dir,
      activeWorkspace: () => ({ id: 'w1', name: 'Desk' }),
      redaction: { get: () => Promise.reject(new Error('x')), set: () => Promise.reject(new Error('x')) },
    });
    const state = service.state();
    expect(state.kind).toBe('recovered');
    expect(state.kind === 'recovered' && state.message).toMatch(/moved aside .*nothing was deleted/);
    const sid = 'interaction_00000000-0000-4000-8000-000000000001';
    expect(service.get({ workspaceId: 'w1', sid })).toBeNull();
    service.close();
  });

  it('says in words when the reviews file cannot be opened, and tries again on the next call', () => {
    let opens = 0;
    const service = createReviewService({
      userDataDir: tempDir(),
      activeWorkspace: () => ({ id: 'w1', name: 'Desk' }),
      redaction: { get: () => Promise.reject(new Error('x')), set: () => Promise.reject(new Error('x')) },
      open: () => {
        opens += 1;
        throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      },
    });
    const sid = 'interaction_00000000-0000-4000-8000-000000000001';
    expect(() => service.get({ workspaceId: 'w1', sid })).toThrow(/reviews file could not be opened/);
    expect(() => service.get({ workspaceId: 'w1', sid })).toThrow(expect.objectContaining({ kind: 'storage' }));
    expect(opens).toBe(2);
  });
});
