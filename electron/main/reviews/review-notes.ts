/**
 * Notes of a review record, pinned to a moment or a range of the call (seconds from the start of
 * the recording). Every change is one committed transaction that also sets the record's
 * `updated_at_ms`. Deleting is soft: {@link ReviewNotes.restore} undoes it (the record's "Undo").
 */
import { REVIEW_LIMITS, type ReviewNote } from '$shared/reviews';
import { ReviewStoreError } from './review-db';
import { read, write, type ReviewContext } from './review-context';
import { noteOf, type NoteRow, type RecordKey, type ReviewRecords } from './review-records';

/** Where a note is pinned (checked by `notePlaceSchema`: the end, when given, after the start). */
export interface NotePlace {
  startSeconds: number;
  endSeconds: number | null;
}

/** What can change on a note; what is absent stays. */
export interface NoteChange {
  text?: string;
  place?: NotePlace;
}

const NOT_FOUND = 'This note no longer exists (it was deleted, maybe in another window).';

/** Adds, edits, deletes and restores notes. */
export class ReviewNotes {
  constructor(
    private readonly ctx: ReviewContext,
    private readonly records: ReviewRecords,
  ) {}

  /**
   * Adds a note to the call's record (created when missing).
   * @throws ReviewStoreError `limit` past {@link REVIEW_LIMITS.notesPerRecord} notes
   */
  add(key: RecordKey, place: NotePlace, text: string): ReviewNote {
    return write(this.ctx, () => {
      this.records.ensure(key);
      const count = this.ctx.db
        .prepare<[string, string], { n: number }>(
          'SELECT count(*) AS n FROM notes WHERE workspace_id = ? AND sid = ? AND deleted_at_ms IS NULL',
        )
        .get(key.workspaceId, key.sid);
      if ((count?.n ?? 0) >= REVIEW_LIMITS.notesPerRecord) {
        throw new ReviewStoreError('limit', `A call holds at most ${REVIEW_LIMITS.notesPerRecord} notes.`);
      }
      const id = this.ctx.newId();
      const now = this.ctx.now();
      this.ctx.db
        .prepare(
          'INSERT INTO notes (id, workspace_id, sid, start_seconds, end_seconds, text, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(id, key.workspaceId, key.sid, place.startSeconds, place.endSeconds, text, now, now);
      this.records.touch(key);
      return this.mustGet(key.workspaceId, id);
    });
  }

  /**
   * Changes a note's text and/or place.
   * @throws ReviewStoreError `not_found` when the note does not exist or is deleted
   */
  update(workspaceId: string, noteId: string, change: NoteChange): ReviewNote {
    return write(this.ctx, () => {
      const note = this.mustGet(workspaceId, noteId);
      const place = change.place ?? { startSeconds: note.startSeconds, endSeconds: note.endSeconds };
      this.ctx.db
        .prepare('UPDATE notes SET text = ?, start_seconds = ?, end_seconds = ?, updated_at_ms = ? WHERE id = ?')
        .run(change.text ?? note.text, place.startSeconds, place.endSeconds, this.ctx.now(), noteId);
      this.records.touch({ workspaceId, sid: note.sid });
      return this.mustGet(workspaceId, noteId);
    });
  }

  /**
   * Deletes a note (soft: {@link restore} undoes it).
   * @returns the deleted note, for the "Undo" notice
   * @throws ReviewStoreError `not_found` when the note does not exist or is already deleted
   */
  delete(workspaceId: string, noteId: string): ReviewNote {
    return write(this.ctx, () => {
      const note = this.mustGet(workspaceId, noteId);
      this.ctx.db.prepare('UPDATE notes SET deleted_at_ms = ? WHERE id = ?').run(this.ctx.now(), noteId);
      this.records.touch({ workspaceId, sid: note.sid });
      return note;
    });
  }

  /**
   * Undoes {@link delete}. The note's record comes back too when it had been deleted since.
   * @throws ReviewStoreError `not_found` when there is no deleted note with this id (purged, or
   *   its record was replaced by a new one)
   */
  restore(workspaceId: string, noteId: string): ReviewNote {
    return write(this.ctx, () => {
      const row = this.ctx.db
        .prepare<[string, string], NoteRow>(
          'SELECT * FROM notes WHERE id = ? AND workspace_id = ? AND deleted_at_ms IS NOT NULL',
        )
        .get(noteId, workspaceId);
      if (!row) throw new ReviewStoreError('not_found', 'There is no deleted note to restore.');
      this.ctx.db.prepare('UPDATE notes SET deleted_at_ms = NULL WHERE id = ?').run(noteId);
      this.ctx.db
        .prepare('UPDATE records SET deleted_at_ms = NULL WHERE workspace_id = ? AND sid = ?')
        .run(workspaceId, row.sid);
      this.records.touch({ workspaceId, sid: row.sid });
      return this.mustGet(workspaceId, noteId);
    });
  }

  /** A live note of the workspace, or null. */
  get(workspaceId: string, noteId: string): ReviewNote | null {
    return read(this.ctx, () => this.find(workspaceId, noteId));
  }

  private find(workspaceId: string, noteId: string): ReviewNote | null {
    const row = this.ctx.db
      .prepare<[string, string], NoteRow>(
        `SELECT n.* FROM notes n JOIN records r ON r.workspace_id = n.workspace_id AND r.sid = n.sid
         WHERE n.id = ? AND n.workspace_id = ? AND n.deleted_at_ms IS NULL AND r.deleted_at_ms IS NULL`,
      )
      .get(noteId, workspaceId);
    return row ? noteOf(row) : null;
  }

  private mustGet(workspaceId: string, noteId: string): ReviewNote {
    const note = this.find(workspaceId, noteId);
    if (!note) throw new ReviewStoreError('not_found', NOT_FOUND);
    return note;
  }
}
