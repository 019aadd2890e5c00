import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION, migrate, userVersion } from '../../../electron/main/reviews/migrations';
import { REVIEW_DATABASE_FILE, openReviewDatabase, storeErrorOf } from '../../../electron/main/reviews/review-db';
import { fakeClock, sidOf, storeIn, tempDir } from './fixtures/review-temp';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const tableNames = (db: Database.Database) =>
  db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((t) => t.name);

describe('review database: migrations', () => {
  it('builds the current schema in an empty folder', () => {
    const dir = tempDir();
    const opened = openReviewDatabase(join(dir, REVIEW_DATABASE_FILE));
    expect(opened.state).toEqual({ kind: 'ok' });
    expect(userVersion(opened.db)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(2);
    expect(tableNames(opened.db)).toEqual(['notes', 'record_tags', 'records', 'rubric_versions']);
    expect(opened.db.pragma('journal_mode', { simple: true })).toBe('wal');
    opened.db.close();
  });

  it('upgrades a version 1 file: the rubric becomes a kept version and a record scored with it still adds up', () => {
    const dir = tempDir();
    const path = join(dir, REVIEW_DATABASE_FILE);
    const v1 = openReviewDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
    expect(userVersion(v1.db)).toBe(1);
    const criteria = [
      { id: 'correct', label: 'Correct', description: '', weight: 3 },
      { id: 'tone', label: 'Tone', description: '', weight: 1 },
    ];
    v1.db.prepare('INSERT INTO rubrics VALUES (?, ?, ?, ?)').run('ws', 4, JSON.stringify(criteria), 1_700_000_000_000);
    v1.db
      .prepare(
        'INSERT INTO records (workspace_id, sid, verdict, scores, rubric_version, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run('ws', sidOf(1), 'pass', JSON.stringify({ correct: 4, tone: 0 }), 4, 1, 2);
    v1.db.close();

    const store = storeIn(dir);
    expect(store.state).toEqual({ kind: 'ok' });
    expect(store.rubrics.current('ws')).toMatchObject({ version: 4, criteria, createdAtMs: 1_700_000_000_000 });
    expect(store.records.get({ workspaceId: 'ws', sid: sidOf(1) })).toMatchObject({
      verdict: 'pass',
      rubricVersion: 4,
      scorePercent: 75,
    });
    store.close();
    const check = new Database(join(dir, REVIEW_DATABASE_FILE));
    expect(userVersion(check)).toBe(2);
    expect(tableNames(check)).not.toContain('rubrics');
    check.close();
  });

  it('rolls a failing migration back whole and keeps the version before it', () => {
    const dir = tempDir();
    const path = join(dir, REVIEW_DATABASE_FILE);
    openReviewDatabase(path).db.close();
    const broken = {
      version: 3,
      summary: 'fails half-way',
      up: (db: Database.Database) => {
        db.exec('CREATE TABLE half_done (x)');
        throw new Error('migration failed');
      },
    };
    const db = new Database(path);
    expect(() => migrate(db, [...MIGRATIONS, broken], 3)).toThrow('migration failed');
    expect(userVersion(db)).toBe(2);
    expect(tableNames(db)).not.toContain('half_done');
    db.close();
  });

  it('opens a file from a newer version read-only, with words, and changes nothing in it', () => {
    const dir = tempDir();
    const path = join(dir, REVIEW_DATABASE_FILE);
    const later = openReviewDatabase(path);
    later.db.pragma('user_version = 9');
    later.db.close();

    const store = storeIn(dir);
    expect(store.state).toMatchObject({ kind: 'newer', message: expect.stringMatching(/newer version/) as string });
    expect(() => store.records.setVerdict({ workspaceId: 'ws', sid: sidOf(1) }, 'pass')).toThrow(/read-only/);
    store.close();
    const check = new Database(path);
    expect(userVersion(check)).toBe(9);
    check.close();
  });
});

describe('review database: the file', () => {
  it('is readable by this user only, WAL and shared memory included', () => {
    const dir = tempDir();
    const store = storeIn(dir);
    store.records.setVerdict({ workspaceId: 'ws', sid: sidOf(1) }, 'pass');
    const files = readdirSync(dir).filter((f) => f.startsWith(REVIEW_DATABASE_FILE));
    expect(files.sort()).toEqual([REVIEW_DATABASE_FILE, `${REVIEW_DATABASE_FILE}-shm`, `${REVIEW_DATABASE_FILE}-wal`]);
    for (const file of files) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
  });

  it('moves a file that is not a database aside, starts a new one and says so', () => {
    const dir = tempDir();
    const path = join(dir, REVIEW_DATABASE_FILE);
    writeFileSync(path, 'this is not SQLite at all, just some bytes that were left here'.repeat(100));
    const clock = fakeClock(Date.UTC(2026, 2, 4, 10, 30));
    const store = storeIn(dir, { now: clock.now });
    expect(store.state).toMatchObject({ kind: 'recovered' });
    if (store.state.kind !== 'recovered') return;
    expect(store.state.movedAsidePath).toBe(`${path}.corrupt-2026-03-04T10-30-00-000Z`);
    expect(store.state.message).toContain('reviews.sqlite.corrupt-2026-03-04T10-30-00-000Z');
    expect(store.state.message).toMatch(/nothing was deleted/);
    expect(readFileSync(store.state.movedAsidePath, 'utf8')).toMatch(/^this is not SQLite/);
    expect(store.records.setVerdict({ workspaceId: 'ws', sid: sidOf(1) }, 'pass').verdict).toBe('pass');
  });

  it('moves a file with damaged pages aside, keeping its bytes', () => {
    const dir = tempDir();
    const path = join(dir, REVIEW_DATABASE_FILE);
    const first = storeIn(dir);
    for (let i = 0; i < 300; i += 1) {
      first.notes.add(
        { workspaceId: 'ws', sid: sidOf(i) },
        { startSeconds: i, endSeconds: null },
        `note ${String(i)} `.repeat(20),
      );
    }
    first.close();
    const bytes = readFileSync(path);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    bytes.fill(0x5a, 8 * 1024, 40 * 1024);
    writeFileSync(path, bytes);

    const store = storeIn(dir);
    expect(store.state.kind).toBe('recovered');
    if (store.state.kind !== 'recovered') return;
    expect(readFileSync(store.state.movedAsidePath).equals(bytes)).toBe(true);
    expect(
      store.queries.list({
        workspaceId: 'ws',
        dateField: 'updated',
        sortBy: 'updated',
        direction: 'desc',
        limit: 10,
        offset: 0,
      }).total,
    ).toBe(0);
  });

  it('loses nothing committed when the app is killed between two writes, and keeps nothing of the write it died in', () => {
    const dir = tempDir();
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', fixture('crash-writer.ts'), dir, sidOf(1), sidOf(2)],
      {
        encoding: 'utf8',
      },
    );
    expect(child.signal).toBe('SIGKILL');
    expect(existsSync(join(dir, `${REVIEW_DATABASE_FILE}-wal`))).toBe(true);

    const store = storeIn(dir);
    expect(store.state).toEqual({ kind: 'ok' });
    const record = store.records.get({ workspaceId: 'ws', sid: sidOf(1) });
    expect(record?.verdict).toBe('fail');
    expect(record?.notes.map((n) => [n.startSeconds, n.text])).toEqual([[12.5, 'written before the crash']]);
    expect(store.records.get({ workspaceId: 'ws', sid: sidOf(2) })).toBeNull();
  });

  it('words SQLite failures without repeating what was written', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    expect(storeErrorOf(busy)).toMatchObject({
      reason: 'busy',
      message: expect.stringMatching(/another window/) as string,
    });
    expect(storeErrorOf(full)).toMatchObject({ reason: 'disk_full' });
    expect(storeErrorOf(new Error('secret note text'))).toMatchObject({ reason: 'io' });
    expect(storeErrorOf(new Error('secret note text')).message).not.toContain('secret');
  });
});

describe('review database: concurrent writes', () => {
  it('keeps every write of two connections interleaved on one record', () => {
    const dir = tempDir();
    const a = storeIn(dir);
    const b = storeIn(dir);
    const key = { workspaceId: 'ws', sid: sidOf(1) };
    a.records.setScore(key, 'correct', 4);
    b.records.setScore(key, 'tone', 2);
    a.records.setTags(key, ['billing']);
    b.notes.add(key, { startSeconds: 3, endSeconds: null }, 'from b');
    a.notes.add(key, { startSeconds: 1, endSeconds: null }, 'from a');
    b.records.setVerdict(key, 'needs_work');
    for (const store of [a, b]) {
      expect(store.records.get(key)).toMatchObject({
        verdict: 'needs_work',
        scores: { correct: 4, tone: 2 },
        tags: ['billing'],
        notes: [{ text: 'from a' }, { text: 'from b' }],
      });
    }
  });

  it('keeps every write of two processes writing to one record at once', async () => {
    const dir = tempDir();
    const parent = storeIn(dir);
    const key = { workspaceId: 'ws', sid: sidOf(7) };
    const count = 40;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fixture('concurrent-writer.ts'), dir, key.sid, String(count)],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdin.end('go\n');
    for (let i = 0; i < count; i += 1) {
      parent.notes.add(key, { startSeconds: i + 0.5, endSeconds: null }, `parent ${String(i)}`);
      parent.records.setScore(key, 'correct', 3);
    }
    expect(await exited).toBe(0);

    const record = parent.records.get(key);
    const texts = new Set(record?.notes.map((n) => n.text));
    expect(texts.size).toBe(2 * count);
    for (let i = 0; i < count; i += 1) {
      expect(texts.has(`parent ${String(i)}`)).toBe(true);
      expect(texts.has(`child ${String(i)}`)).toBe(true);
    }
    // Each side scored its own criterion after every note: neither overwrote the other's.
    expect(record?.scores).toEqual({ correct: 3, understood: (count - 1) % 5 });
  });
});
