/**
 * The review store as the IPC handlers use it: opened on first use in the settings folder (one
 * `reviews.sqlite` for every workspace, keyed by workspace id; never any key in it), each call
 * checked against the active workspace, and every store failure turned into an {@link ApiError}
 * of kind `storage` with words (a missing note `not_found`, a limit `bad_input`). Also the
 * Reviews screen's export (CSV, JSON) through main's save dialog, and the PII rules of Settings.
 */
import { basename } from 'node:path';
import type { SaveResult } from '$shared/contract';
import { ApiError } from '$shared/errors';
import type { RedactionSettings } from '$shared/redaction';
import type {
  ReviewDatabaseState,
  ReviewNote,
  ReviewPage,
  ReviewQuery,
  ReviewRecord,
  ReviewSummary,
  Rubric,
  RubricCriterion,
  Ticket,
  Verdict,
} from '$shared/reviews';
import type { CriterionScore } from '$shared/rubric-scoring';
import { writeAtomically } from '../exports/atomic-write';
import { exportReviews, recordsForExport, type ReviewExportFormat } from '../exports/review-export';
import { chooseSavePath, saveFailed, type SavePathChooser } from '../exports/save-dialog';
import { ReviewStoreError } from './review-db';
import type { RedactionSettingsStore } from './redaction-settings';
import { openReviewStore, type ReviewStore } from './review-store';

/** Which call a record is about. */
export interface ReviewKey {
  workspaceId: string;
  sid: string;
}

/** What the review service needs from the rest of main. */
export interface ReviewServiceDeps {
  /** The settings folder the database lives in. */
  userDataDir: string;
  /** The active workspace's id and name, or null with none. */
  activeWorkspace(): { id: string; name: string } | null;
  redaction: RedactionSettingsStore;
  /** Main's save dialog (exports). */
  choosePath?: SavePathChooser;
  /** Opens the store (tests pass a seam); default {@link openReviewStore}. */
  open?: (dir: string) => ReviewStore;
  /** Epoch ms (export dates). */
  now?: () => number;
}

/** See {@link createReviewService}. Every method rejects with an ApiError a person can act on. */
export interface ReviewService {
  /** How the database opened (opening it now when it is not open yet). */
  state(): ReviewDatabaseState;
  get(key: ReviewKey): ReviewRecord | null;
  addNote(
    key: ReviewKey,
    place: { startSeconds: number; endSeconds: number | null },
    text: string,
  ): { note: ReviewNote; record: ReviewRecord };
  updateNote(
    workspaceId: string,
    noteId: string,
    change: { text?: string; place?: { startSeconds: number; endSeconds: number | null } },
  ): ReviewRecord;
  deleteNote(workspaceId: string, noteId: string): ReviewNote;
  restoreNote(workspaceId: string, noteId: string): ReviewRecord;
  setVerdict(key: ReviewKey, verdict: Verdict): ReviewRecord;
  setScore(key: ReviewKey, criterionId: string, score: CriterionScore): ReviewRecord;
  setTags(key: ReviewKey, tags: string[]): ReviewRecord;
  setTicket(key: ReviewKey, ticket: Ticket | null): ReviewRecord;
  setCallStarted(key: ReviewKey, callStartedAtMs: number | null): ReviewRecord;
  deleteRecord(key: ReviewKey): boolean;
  restoreRecord(key: ReviewKey): ReviewRecord;
  list(query: ReviewQuery): ReviewPage;
  summaries(workspaceId: string, sids: string[]): Record<string, ReviewSummary>;
  rubric(workspaceId: string): Rubric;
  saveRubric(workspaceId: string, criteria: RubricCriterion[]): Rubric;
  /** Saves the records `query` lists as CSV or JSON through the save dialog; notes redacted when `redact`. */
  exportRecords(query: ReviewQuery, format: ReviewExportFormat, redact: boolean): Promise<SaveResult>;
  redactionSettings(): Promise<RedactionSettings>;
  setRedactionSettings(settings: RedactionSettings): Promise<RedactionSettings>;
  /** The open store (the evidence pack reads the record), checked against the active workspace. */
  storeFor(workspaceId: string): ReviewStore;
  close(): void;
}

/** Creates the review service; the database is opened on the first call that needs it. */
export function createReviewService(deps: ReviewServiceDeps): ReviewService {
  const open = deps.open ?? ((dir: string) => openReviewStore(dir));
  const now = deps.now ?? Date.now;
  let store: ReviewStore | null = null;

  function opened(): ReviewStore {
    if (store) return store;
    try {
      store = open(deps.userDataDir);
    } catch {
      throw new ApiError({
        kind: 'storage',
        message:
          'The reviews file could not be opened. Check that the disk has space and that Voice Review may write in its settings folder, then try again.',
      });
    }
    return store;
  }

  /** The store, once `workspaceId` is the active workspace (a review is only read or written there). */
  function storeFor(workspaceId: string): ReviewStore {
    const active = deps.activeWorkspace();
    if (active === null || active.id !== workspaceId) {
      throw new ApiError({
        kind: 'bad_input',
        message: 'These reviews belong to another workspace. Switch to that workspace first.',
      });
    }
    return opened();
  }

  /** Runs a store call; its failures become ApiErrors with words. */
  function run<T>(workspaceId: string, fn: (s: ReviewStore) => T): T {
    const s = storeFor(workspaceId);
    try {
      return fn(s);
    } catch (error) {
      throw apiErrorOf(error);
    }
  }

  const mustGet = (s: ReviewStore, key: ReviewKey): ReviewRecord => {
    const record = s.records.get(key);
    if (!record) throw new ReviewStoreError('not_found', 'This review no longer exists. Reload the call.');
    return record;
  };

  return {
    state: () => opened().state,
    get: (key) => run(key.workspaceId, (s) => s.records.get(key)),
    addNote: (key, place, text) =>
      run(key.workspaceId, (s) => {
        const note = s.notes.add(key, place, text);
        return { note, record: mustGet(s, key) };
      }),
    updateNote: (workspaceId, noteId, change) =>
      run(workspaceId, (s) => {
        const note = s.notes.update(workspaceId, noteId, change);
        return mustGet(s, { workspaceId, sid: note.sid });
      }),
    deleteNote: (workspaceId, noteId) => run(workspaceId, (s) => s.notes.delete(workspaceId, noteId)),
    restoreNote: (workspaceId, noteId) =>
      run(workspaceId, (s) => {
        const note = s.notes.restore(workspaceId, noteId);
        return mustGet(s, { workspaceId, sid: note.sid });
      }),
    setVerdict: (key, verdict) => run(key.workspaceId, (s) => s.records.setVerdict(key, verdict)),
    setScore: (key, criterionId, score) => run(key.workspaceId, (s) => s.records.setScore(key, criterionId, score)),
    setTags: (key, tags) => run(key.workspaceId, (s) => s.records.setTags(key, tags)),
    setTicket: (key, ticket) => run(key.workspaceId, (s) => s.records.setTicket(key, ticket)),
    setCallStarted: (key, at) => run(key.workspaceId, (s) => s.records.setCallStarted(key, at)),
    deleteRecord: (key) => run(key.workspaceId, (s) => s.records.delete(key)),
    restoreRecord: (key) => run(key.workspaceId, (s) => s.records.restore(key)),
    list: (query) => run(query.workspaceId, (s) => s.queries.list(query)),
    summaries: (workspaceId, sids) => run(workspaceId, (s) => s.queries.summaries(workspaceId, sids)),
    rubric: (workspaceId) => run(workspaceId, (s) => s.rubrics.current(workspaceId)),
    saveRubric: (workspaceId, criteria) => run(workspaceId, (s) => s.rubrics.save(workspaceId, criteria)),
    async exportRecords(query, format, redact) {
      const workspaceName = deps.activeWorkspace()?.name ?? '';
      const { records, rubrics } = run(query.workspaceId, (s) => recordsForExport(s, query));
      const text = exportReviews(format, {
        workspaceName,
        records,
        rubrics,
        redaction: redact ? await deps.redaction.get() : null,
        exportedAtMs: now(),
      });
      const stamp = new Date(now()).toISOString().slice(0, 10);
      const target = await chooseSavePath(deps.choosePath, {
        title: 'Export reviews',
        defaultName: `reviews_${stamp}.${format}`,
        filters: [{ name: format === 'csv' ? 'CSV' : 'JSON', extensions: [format] }],
      });
      if (target === null) return { saved: null };
      await writeAtomically(target, text, { mode: 0o600 }).catch((err: unknown) => {
        throw saveFailed(basename(target), err);
      });
      return { saved: basename(target) };
    },
    redactionSettings: () => deps.redaction.get(),
    async setRedactionSettings(settings) {
      try {
        return await deps.redaction.set(settings);
      } catch {
        throw new ApiError({
          kind: 'storage',
          message:
            'The masking rules could not be saved: Voice Review may not write in its settings folder, or the disk is full. Your choices are still on screen; try again.',
        });
      }
    },
    storeFor,
    close() {
      store?.close();
      store = null;
    },
  };
}

/** A review store failure as an ApiError: `storage` with the store's words, `not_found`, or `bad_input` for a limit. */
export function apiErrorOf(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (!(error instanceof ReviewStoreError)) return error;
  const kind = error.reason === 'not_found' ? 'not_found' : error.reason === 'limit' ? 'bad_input' : 'storage';
  return new ApiError({ kind, message: error.message });
}
