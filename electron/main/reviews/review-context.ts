/**
 * What the review store's parts share: the connection, the clock, the id maker, and the two
 * wrappers every call goes through: {@link write} (one immediate transaction, committed before
 * it returns: write-through) and {@link read}. Both turn SQLite's errors into
 * {@link ReviewStoreError}s with words.
 */
import type Database from 'better-sqlite3';
import { storeErrorOf } from './review-db';

/** The connection and seams of one review store. */
export interface ReviewContext {
  db: Database.Database;
  /** Epoch ms. */
  now: () => number;
  /** A new note id (a random UUID). */
  newId: () => string;
}

/**
 * Runs `fn` in one `BEGIN IMMEDIATE` transaction (it takes the write lock first, so a
 * read-modify-write inside cannot lose another connection's write) and commits it before
 * returning: a crash afterwards keeps it, a crash or throw inside leaves nothing of it.
 * @throws ReviewStoreError for any failure (see storeErrorOf)
 */
export function write<T>(ctx: ReviewContext, fn: () => T): T {
  try {
    return ctx.db.transaction(fn).immediate();
  } catch (error) {
    throw storeErrorOf(error);
  }
}

/**
 * Runs `fn` (reads) in one deferred transaction, so it sees one consistent snapshot.
 * @throws ReviewStoreError for any failure
 */
export function read<T>(ctx: ReviewContext, fn: () => T): T {
  try {
    return ctx.db.transaction(fn).deferred();
  } catch (error) {
    throw storeErrorOf(error);
  }
}

/** Parses a JSON column, or returns `fallback` when it does not parse. */
export function parseJsonColumn(text: unknown, fallback: unknown): unknown {
  if (typeof text !== 'string') return fallback;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
