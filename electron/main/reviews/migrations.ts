/**
 * The review database's schema, as an ordered list of migrations: migration N takes a database
 * at `PRAGMA user_version` N-1 to N. Each runs in one transaction with the version bump, so a
 * crash mid-migration leaves the database at the version before it, whole.
 *
 * Version 1: records (one per workspace and interaction SID), their notes and tags, and one
 *   rubric row per workspace whose criteria were overwritten on every edit.
 * Version 2: rubric versions are kept (a record scored against version 3 keeps being read with
 *   version 3's criteria and weights after the rubric changes): `rubric_versions` replaces
 *   `rubrics`, the current rubric becoming its first kept version.
 *
 * Nothing here ever holds an API key: the tables hold what a reviewer writes, and the workspace
 * by its id only.
 */
import type Database from 'better-sqlite3';

/** One step of the schema. */
export interface Migration {
  /** The `user_version` after it. */
  version: number;
  /** What it changes, for the log. */
  summary: string;
  up(db: Database.Database): void;
}

const V1 = `
CREATE TABLE records (
  workspace_id TEXT NOT NULL,
  sid TEXT NOT NULL,
  verdict TEXT NOT NULL DEFAULT 'none' CHECK (verdict IN ('pass', 'needs_work', 'fail', 'none')),
  scores TEXT NOT NULL DEFAULT '{}',
  rubric_version INTEGER,
  ticket TEXT,
  call_started_at_ms INTEGER,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  deleted_at_ms INTEGER,
  PRIMARY KEY (workspace_id, sid)
);
CREATE TABLE notes (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  sid TEXT NOT NULL,
  start_seconds REAL NOT NULL,
  end_seconds REAL,
  text TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  deleted_at_ms INTEGER,
  FOREIGN KEY (workspace_id, sid) REFERENCES records (workspace_id, sid) ON DELETE CASCADE
);
CREATE INDEX notes_by_record ON notes (workspace_id, sid, start_seconds);
CREATE TABLE record_tags (
  workspace_id TEXT NOT NULL,
  sid TEXT NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (workspace_id, sid, tag),
  FOREIGN KEY (workspace_id, sid) REFERENCES records (workspace_id, sid) ON DELETE CASCADE
);
CREATE INDEX tags_by_tag ON record_tags (workspace_id, tag);
CREATE TABLE rubrics (
  workspace_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  criteria TEXT NOT NULL,
  updated_at_ms INTEGER NOT NULL
);
`;

const V2 = `
CREATE TABLE rubric_versions (
  workspace_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  criteria TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, version)
);
INSERT INTO rubric_versions (workspace_id, version, criteria, created_at_ms)
  SELECT workspace_id, version, criteria, updated_at_ms FROM rubrics;
DROP TABLE rubrics;
`;

/** Every migration, in order; the last one's version is the schema this code reads and writes. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, summary: 'records, notes, tags and one rubric per workspace', up: (db) => db.exec(V1) },
  { version: 2, summary: 'keep every rubric version', up: (db) => db.exec(V2) },
];

/** The schema version this code reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Brings `db` to `target` (default {@link SCHEMA_VERSION}), one migration per transaction.
 * @returns the versions applied, in order (empty when already there)
 * @throws Error when the database is newer than `target` (the caller opens it read-only), or
 *   from SQLite when a migration fails (that migration is rolled back; earlier ones stay).
 */
export function migrate(db: Database.Database, migrations = MIGRATIONS, target = SCHEMA_VERSION): number[] {
  const current = userVersion(db);
  if (current > target) {
    throw new Error(`The review database is at schema version ${current}; this version reads up to ${target}.`);
  }
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > target) continue;
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${String(migration.version)}`);
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}

/** `PRAGMA user_version` of `db`. */
export function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}
