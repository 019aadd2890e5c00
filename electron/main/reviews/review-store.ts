/**
 * The review store: opens `<userData>/reviews.sqlite` (review-db.ts) and puts its parts together
 * over one connection: {@link ReviewRecords} (verdict, scores, tags, ticket, delete/restore),
 * {@link ReviewNotes}, {@link ReviewRubrics} and {@link ReviewQueries} (the Reviews screen and
 * the call lists). Every write is committed before its call returns (write-through).
 *
 * Main makes one store at start-up; the IPC handlers parse their input with
 * `reviewInputSchemas` (shared/reviews.ts) before calling it.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { ReviewDatabaseState } from '$shared/reviews';
import { REVIEW_DATABASE_FILE, openReviewDatabase, type OpenReviewDatabaseOptions } from './review-db';
import type { ReviewContext } from './review-context';
import { ReviewNotes } from './review-notes';
import { ReviewQueries } from './review-queries';
import { ReviewRecords } from './review-records';
import { ReviewRubrics } from './review-rubrics';

/** How long deleted notes and records stay restorable before they are removed for good: 30 days, in ms. */
export const KEEP_DELETED_MS = 30 * 24 * 60 * 60 * 1000;

/** An open review store. */
export interface ReviewStore {
  /** How the database opened (a notice for `recovered` and `newer`). */
  readonly state: ReviewDatabaseState;
  /** The database file. */
  readonly path: string;
  readonly records: ReviewRecords;
  readonly notes: ReviewNotes;
  readonly rubrics: ReviewRubrics;
  readonly queries: ReviewQueries;
  /** Closes the connection (SQLite checkpoints the WAL into the file). */
  close(): void;
}

/** Options of {@link openReviewStore}. */
export interface ReviewStoreOptions extends OpenReviewDatabaseOptions {
  /** Note ids (default: random UUIDs). */
  newId?: () => string;
  /** The database file (default `<dir>/reviews.sqlite`). */
  path?: string;
}

/**
 * Opens the review store of the settings folder `dir` (Electron's `app.getPath('userData')`, or
 * a temporary folder in tests), and removes what was deleted more than {@link KEEP_DELETED_MS}
 * ago (not on a read-only database).
 * @throws Error from the file system or SQLite when the file cannot be opened at all (a damaged
 *   file does not throw: it is moved aside, see review-db.ts)
 */
export function openReviewStore(dir: string, options: ReviewStoreOptions = {}): ReviewStore {
  const now = options.now ?? Date.now;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const opened = openReviewDatabase(options.path ?? join(dir, REVIEW_DATABASE_FILE), { ...options, now });
  const store = assemble(opened.db, { now, newId: options.newId ?? randomUUID }, opened);
  if (opened.state.kind !== 'newer') store.records.purgeDeleted(now() - KEEP_DELETED_MS);
  return store;
}

function assemble(
  db: Database.Database,
  seams: Omit<ReviewContext, 'db'>,
  opened: { state: ReviewDatabaseState; path: string },
): ReviewStore {
  const ctx: ReviewContext = { db, ...seams };
  const rubrics = new ReviewRubrics(ctx);
  const records = new ReviewRecords(ctx, rubrics);
  return {
    state: opened.state,
    path: opened.path,
    records,
    notes: new ReviewNotes(ctx, records),
    rubrics,
    queries: new ReviewQueries(ctx, rubrics),
    close: () => {
      db.close();
    },
  };
}
