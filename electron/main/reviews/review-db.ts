/**
 * Opening the review database: one SQLite file per settings folder (`<userData>/reviews.sqlite`,
 * {@link REVIEW_DATABASE_FILE}), readable by this user only (0600, and SQLite gives its `-wal`
 * and `-shm` files the same mode), in WAL mode with `synchronous = FULL`, so every committed write
 * survives a crash of the app or of the machine, and a second connection (another window, a test)
 * waits its turn for up to {@link BUSY_TIMEOUT_MS} instead of failing.
 *
 * A file SQLite cannot read (not a database, or damaged pages found by `PRAGMA quick_check`) is
 * moved aside as `reviews.sqlite.corrupt-<UTC time>` with its WAL, a new one is started, and the
 * state says so in words for a notice; nothing is deleted. A file written by a newer schema is
 * opened read-only, so nothing in it can be lost by this version.
 */
import { chmodSync, closeSync, existsSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { ReviewDatabaseState } from '$shared/reviews';
import { MIGRATIONS, SCHEMA_VERSION, migrate, userVersion, type Migration } from './migrations';

/** File name of the review database inside the user-data folder. */
export const REVIEW_DATABASE_FILE = 'reviews.sqlite';

/** How long a write waits for another connection's write to finish, in ms. */
export const BUSY_TIMEOUT_MS = 5000;

/** Why a review store call failed, for the handler to turn into an IPC error. */
export type ReviewStoreFailure = 'not_found' | 'limit' | 'busy' | 'corrupt' | 'read_only' | 'disk_full' | 'io';

/** A review store failure with a sentence a support person can act on; never holds note text. */
export class ReviewStoreError extends Error {
  constructor(
    readonly reason: ReviewStoreFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ReviewStoreError';
  }
}

/** An open review database and how it opened. */
export interface OpenedReviewDatabase {
  db: Database.Database;
  state: ReviewDatabaseState;
  path: string;
}

/** Options of {@link openReviewDatabase}. */
export interface OpenReviewDatabaseOptions {
  /** Epoch ms, for the moved-aside file's name (default `Date.now`). */
  now?: () => number;
  /** The schema (default: every migration; tests pass the first ones to build an older file). */
  migrations?: readonly Migration[];
}

/** SQLite result codes that mean the file's bytes cannot be trusted. */
const CORRUPTION_CODES = /^SQLITE_(?:CORRUPT|NOTADB)/;

/** Raised by {@link openReviewDatabase} when `quick_check` finds damage. */
class DamagedDatabase extends Error {}

/**
 * Opens (creating when missing) the review database at `path` and brings it to the current
 * schema. See the module comment for modes, recovery and read-only opening.
 * @throws Error from the file system (no permission on the folder, disk full) or from SQLite for
 *   anything but a damaged file; a damaged file never throws (it is moved aside).
 */
export function openReviewDatabase(path: string, options: OpenReviewDatabaseOptions = {}): OpenedReviewDatabase {
  const now = options.now ?? Date.now;
  const migrations = options.migrations ?? MIGRATIONS;
  const target = migrations.at(-1)?.version ?? SCHEMA_VERSION;
  try {
    return openChecked(path, migrations, target);
  } catch (error) {
    if (!(error instanceof DamagedDatabase) && !isCorruption(error)) throw error;
    const movedAsidePath = moveAside(path, now());
    const fresh = openChecked(path, migrations, target);
    const message =
      `The reviews file could not be read (it is damaged), so it was moved aside as ${basename(movedAsidePath)} ` +
      'and a new, empty one was started. Reviews written before are kept in that file; nothing was deleted.';
    return { ...fresh, state: { kind: 'recovered', movedAsidePath, message } };
  }
}

function openChecked(path: string, migrations: readonly Migration[], target: number): OpenedReviewDatabase {
  createPrivateFile(path);
  let db: Database.Database | null = new Database(path);
  try {
    configure(db);
    const problems = db.pragma('quick_check', { simple: false }) as { quick_check: string }[];
    if (problems.length !== 1 || problems[0]?.quick_check !== 'ok') throw new DamagedDatabase('quick_check');
    const version = userVersion(db);
    if (version > target) {
      db.close();
      db = null;
      const readOnly = new Database(path, { readonly: true, fileMustExist: true });
      readOnly.pragma(`busy_timeout = ${String(BUSY_TIMEOUT_MS)}`);
      const message =
        'The reviews file was written by a newer version of Voice Review: reviews are shown but cannot be ' +
        'changed until you update the app.';
      return { db: readOnly, state: { kind: 'newer', message }, path };
    }
    migrate(db, migrations, target);
    return { db, state: { kind: 'ok' }, path };
  } catch (error) {
    db?.close();
    throw error;
  }
}

/** Connection settings every connection needs (SQLite keeps none of them in the file but WAL). */
function configure(db: Database.Database): void {
  db.pragma(`busy_timeout = ${String(BUSY_TIMEOUT_MS)}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
}

/** Creates `path` empty with mode 0600 when missing, and sets 0600 on an existing one. */
function createPrivateFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}

/** Renames `path` (and its `-wal`) to `<path>.corrupt-<UTC time>`; drops its `-shm` (an index rebuilt from the WAL). */
function moveAside(path: string, atMs: number): string {
  const stamp = new Date(atMs).toISOString().replace(/[:.]/g, '-');
  let moved = join(dirname(path), `${basename(path)}.corrupt-${stamp}`);
  for (let n = 2; existsSync(moved); n += 1)
    moved = join(dirname(path), `${basename(path)}.corrupt-${stamp}-${String(n)}`);
  renameSync(path, moved);
  if (existsSync(`${path}-wal`)) renameSync(`${path}-wal`, `${moved}-wal`);
  rmSync(`${path}-shm`, { force: true });
  return moved;
}

/** True for an SQLite error that says the file's bytes are damaged or not a database. */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CORRUPTION_CODES.test(code);
}

/**
 * `error` from SQLite as a {@link ReviewStoreError} with words (busy, damaged, read-only, disk
 * full); a {@link ReviewStoreError} passes through. Never repeats what was being written.
 */
export function storeErrorOf(error: unknown): ReviewStoreError {
  if (error instanceof ReviewStoreError) return error;
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === 'string' ? raw : '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new ReviewStoreError('busy', 'The reviews file is busy with another window. Try again in a moment.');
  }
  if (isCorruption(error)) {
    return new ReviewStoreError(
      'corrupt',
      'The reviews file is damaged. Restart Voice Review: it moves the file aside and starts a new one.',
    );
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new ReviewStoreError(
      'read_only',
      'Reviews cannot be changed: the reviews file is read-only (written by a newer Voice Review, or its folder is not writable).',
    );
  }
  if (code.startsWith('SQLITE_FULL')) {
    return new ReviewStoreError(
      'disk_full',
      'The disk is full: the review was not saved. Free some space and try again.',
    );
  }
  return new ReviewStoreError('io', 'The review could not be saved or read from the reviews file. Try again.');
}
