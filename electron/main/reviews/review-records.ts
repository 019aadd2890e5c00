/**
 * Review records: one per workspace and interaction SID, created by its first write. Each call
 * changes one thing (the verdict, one criterion's score, the tags, the ticket) in its own
 * committed transaction, so two windows editing one record never undo each other's change.
 *
 * Deleting a record is soft (`deleted_at_ms`): {@link ReviewRecords.restore} brings it back whole
 * with its notes. A write to a deleted record starts a new, empty record in its place (the
 * reviewer moved on from the undo). {@link ReviewRecords.purgeDeleted} removes what was deleted
 * long ago, notes included.
 */
import { scoreRubric, type CriterionScore } from '$shared/rubric-scoring';
import {
  scoresSchema,
  parseTicket,
  ticketText,
  verdictSchema,
  type ReviewNote,
  type ReviewRecord,
  type Ticket,
  type Verdict,
} from '$shared/reviews';
import { ReviewStoreError } from './review-db';
import { parseJsonColumn, read, write, type ReviewContext } from './review-context';
import type { ReviewRubrics } from './review-rubrics';

/** Which call a record is about. */
export interface RecordKey {
  workspaceId: string;
  /** Interaction SID, lower case. */
  sid: string;
}

/** A `records` row as SQLite returns it. */
export interface RecordRow {
  workspace_id: string;
  sid: string;
  verdict: string;
  scores: string;
  rubric_version: number | null;
  ticket: string | null;
  call_started_at_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
  deleted_at_ms: number | null;
}

/** A `notes` row as SQLite returns it. */
export interface NoteRow {
  id: string;
  sid: string;
  start_seconds: number;
  end_seconds: number | null;
  text: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A notes row as a {@link ReviewNote}. */
export function noteOf(row: NoteRow): ReviewNote {
  return {
    id: row.id,
    sid: row.sid,
    startSeconds: row.start_seconds,
    endSeconds: row.end_seconds,
    text: row.text,
    createdAtMs: row.created_at_ms,
    updatedAtMs: row.updated_at_ms,
  };
}

/** The stored scores of a row (an unreadable value counts as none). */
export function scoresOf(row: Pick<RecordRow, 'scores'>): Record<string, CriterionScore> {
  const parsed = scoresSchema.safeParse(parseJsonColumn(row.scores, {}));
  return parsed.success ? parsed.data : {};
}

/** The stored verdict of a row (an unknown value reads as `none`). */
export function verdictOf(row: Pick<RecordRow, 'verdict'>): Verdict {
  const parsed = verdictSchema.safeParse(row.verdict);
  return parsed.success ? parsed.data : 'none';
}

/** The stored ticket of a row, read again by the same rule that let it in. */
export function ticketOf(row: Pick<RecordRow, 'ticket'>): Ticket | null {
  if (row.ticket === null) return null;
  const parsed = parseTicket(row.ticket);
  return parsed.ok ? parsed.ticket : null;
}

/** The weighted total of a row against the rubric version it was scored with. */
export function scorePercentOf(rubrics: ReviewRubrics, row: RecordRow): number | null {
  if (row.rubric_version === null) return null;
  const rubric = rubrics.version(row.workspace_id, row.rubric_version);
  return rubric ? scoreRubric(rubric.criteria, scoresOf(row)).percent : null;
}

const LIVE_RECORD = 'SELECT * FROM records WHERE workspace_id = ? AND sid = ? AND deleted_at_ms IS NULL';

/** Reads and writes of whole records (notes: review-notes.ts). */
export class ReviewRecords {
  constructor(
    private readonly ctx: ReviewContext,
    private readonly rubrics: ReviewRubrics,
  ) {}

  /** The record of a call, with its notes by start time; null when there is none (or it was deleted). */
  get(key: RecordKey): ReviewRecord | null {
    return read(this.ctx, () => this.load(key));
  }

  /** Sets the verdict. @returns the record */
  setVerdict(key: RecordKey, verdict: Verdict): ReviewRecord {
    return this.change(key, 'UPDATE records SET verdict = ? WHERE workspace_id = ? AND sid = ?', verdict);
  }

  /**
   * Scores one criterion (0–4, or null for not applicable) against the workspace's current
   * rubric. A record scored against an older version moves to the current one, keeping the scores
   * of the criteria it still has (the others are dropped; criteria new to it show as unscored).
   * @throws ReviewStoreError `not_found` when the current rubric has no such criterion
   */
  setScore(key: RecordKey, criterionId: string, score: CriterionScore): ReviewRecord {
    return write(this.ctx, () => {
      const row = this.ensure(key);
      const rubric = this.rubrics.ensureCurrent(key.workspaceId);
      if (!rubric.criteria.some((c) => c.id === criterionId)) {
        throw new ReviewStoreError(
          'not_found',
          'That criterion is no longer in the rubric. Reload the review and score again.',
        );
      }
      const kept = Object.entries(scoresOf(row)).filter(([id]) => rubric.criteria.some((c) => c.id === id));
      const scores = { ...Object.fromEntries(kept), [criterionId]: score };
      this.ctx.db
        .prepare(
          'UPDATE records SET scores = ?, rubric_version = ?, updated_at_ms = ? WHERE workspace_id = ? AND sid = ?',
        )
        .run(JSON.stringify(scores), rubric.version, this.ctx.now(), key.workspaceId, key.sid);
      return this.mustLoad(key);
    });
  }

  /** Clears every score and the rubric version. @returns the record */
  clearScores(key: RecordKey): ReviewRecord {
    return this.change(
      key,
      "UPDATE records SET scores = '{}', rubric_version = NULL WHERE workspace_id = ? AND sid = ?",
    );
  }

  /** Replaces the tags (already normalised by `tagsSchema`). @returns the record */
  setTags(key: RecordKey, tags: readonly string[]): ReviewRecord {
    return write(this.ctx, () => {
      this.ensure(key);
      this.ctx.db.prepare('DELETE FROM record_tags WHERE workspace_id = ? AND sid = ?').run(key.workspaceId, key.sid);
      const insert = this.ctx.db.prepare('INSERT OR IGNORE INTO record_tags (workspace_id, sid, tag) VALUES (?, ?, ?)');
      for (const tag of tags) insert.run(key.workspaceId, key.sid, tag);
      this.touch(key);
      return this.mustLoad(key);
    });
  }

  /** Sets or clears (null) the ticket. @returns the record */
  setTicket(key: RecordKey, ticket: Ticket | null): ReviewRecord {
    const text = ticket === null ? null : ticketText(ticket);
    return this.change(key, 'UPDATE records SET ticket = ? WHERE workspace_id = ? AND sid = ?', text);
  }

  /** Records when the call started (epoch ms; spec 2 `started_at`), for the Reviews screen's dates. */
  setCallStarted(key: RecordKey, callStartedAtMs: number | null): ReviewRecord {
    return this.change(
      key,
      'UPDATE records SET call_started_at_ms = ? WHERE workspace_id = ? AND sid = ?',
      callStartedAtMs,
    );
  }

  /**
   * Deletes the record (soft: {@link restore} undoes it).
   * @returns true when a record was deleted, false when there was none
   */
  delete(key: RecordKey): boolean {
    return write(this.ctx, () => {
      const now = this.ctx.now();
      const result = this.ctx.db
        .prepare('UPDATE records SET deleted_at_ms = ? WHERE workspace_id = ? AND sid = ? AND deleted_at_ms IS NULL')
        .run(now, key.workspaceId, key.sid);
      return result.changes > 0;
    });
  }

  /**
   * Undoes {@link delete}.
   * @throws ReviewStoreError `not_found` when there is no deleted record to restore (purged, or
   *   replaced by a new one)
   */
  restore(key: RecordKey): ReviewRecord {
    return write(this.ctx, () => {
      const result = this.ctx.db
        .prepare(
          'UPDATE records SET deleted_at_ms = NULL WHERE workspace_id = ? AND sid = ? AND deleted_at_ms IS NOT NULL',
        )
        .run(key.workspaceId, key.sid);
      if (result.changes === 0)
        throw new ReviewStoreError('not_found', 'There is no deleted review of this call to restore.');
      return this.mustLoad(key);
    });
  }

  /**
   * Removes for good the records and notes deleted before `beforeMs` (epoch ms).
   * @returns how many records and notes were removed
   */
  purgeDeleted(beforeMs: number): { records: number; notes: number } {
    return write(this.ctx, () => {
      const notes = this.ctx.db.prepare('DELETE FROM notes WHERE deleted_at_ms < ?').run(beforeMs).changes;
      const records = this.ctx.db.prepare('DELETE FROM records WHERE deleted_at_ms < ?').run(beforeMs).changes;
      return { records, notes };
    });
  }

  /**
   * The live record's row, created empty when missing; a deleted record is replaced by a new one.
   * Call inside a write transaction.
   */
  ensure(key: RecordKey): RecordRow {
    const db = this.ctx.db;
    db.prepare('DELETE FROM records WHERE workspace_id = ? AND sid = ? AND deleted_at_ms IS NOT NULL').run(
      key.workspaceId,
      key.sid,
    );
    const now = this.ctx.now();
    db.prepare(
      'INSERT OR IGNORE INTO records (workspace_id, sid, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?)',
    ).run(key.workspaceId, key.sid, now, now);
    const row = db.prepare<[string, string], RecordRow>(LIVE_RECORD).get(key.workspaceId, key.sid);
    if (!row) throw new ReviewStoreError('io', 'The review could not be saved. Try again.');
    return row;
  }

  /** Sets the record's `updated_at_ms` to now. Call inside a write transaction. */
  touch(key: RecordKey): void {
    this.ctx.db
      .prepare('UPDATE records SET updated_at_ms = ? WHERE workspace_id = ? AND sid = ?')
      .run(this.ctx.now(), key.workspaceId, key.sid);
  }

  /** The live record with its notes, or null. Call inside a transaction. */
  load(key: RecordKey): ReviewRecord | null {
    const db = this.ctx.db;
    const row = db.prepare<[string, string], RecordRow>(LIVE_RECORD).get(key.workspaceId, key.sid);
    if (!row) return null;
    const tags = db
      .prepare<[string, string], { tag: string }>(
        'SELECT tag FROM record_tags WHERE workspace_id = ? AND sid = ? ORDER BY tag',
      )
      .all(key.workspaceId, key.sid)
      .map((t) => t.tag);
    const notes = db
      .prepare<[string, string], NoteRow>(
        'SELECT * FROM notes WHERE workspace_id = ? AND sid = ? AND deleted_at_ms IS NULL ORDER BY start_seconds, created_at_ms',
      )
      .all(key.workspaceId, key.sid)
      .map(noteOf);
    return {
      workspaceId: row.workspace_id,
      sid: row.sid,
      verdict: verdictOf(row),
      scores: scoresOf(row),
      rubricVersion: row.rubric_version,
      scorePercent: scorePercentOf(this.rubrics, row),
      tags,
      ticket: ticketOf(row),
      callStartedAtMs: row.call_started_at_ms,
      notes,
      createdAtMs: row.created_at_ms,
      updatedAtMs: row.updated_at_ms,
    };
  }

  private mustLoad(key: RecordKey): ReviewRecord {
    const record = this.load(key);
    if (!record) throw new ReviewStoreError('io', 'The review could not be read back after saving. Try again.');
    return record;
  }

  /** Runs `sql` (whose last two parameters are the key) on the live record, touching it. */
  private change(key: RecordKey, sql: string, ...values: unknown[]): ReviewRecord {
    return write(this.ctx, () => {
      this.ensure(key);
      this.ctx.db.prepare(sql).run(...values, key.workspaceId, key.sid);
      this.touch(key);
      return this.mustLoad(key);
    });
  }
}
