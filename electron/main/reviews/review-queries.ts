/**
 * Reads for the Reviews screen and the call lists: the records of a workspace filtered (verdict,
 * tag, ticket, date, text in notes), sorted and paged; and the verdict and tags of a set of SIDs.
 *
 * Only records that hold something are listed (a verdict, a score, a tag, a ticket or a note): a
 * record whose last note was deleted is not a review. Filters run in SQL; sorting runs here, since
 * the score is worked out against each record's rubric version. Text matching ignores case
 * (`review_fold`, JavaScript's lower-casing, registered on the connection).
 */
import type { ReviewPage, ReviewQuery, ReviewRow, ReviewSummary } from '$shared/reviews';
import { read, type ReviewContext } from './review-context';
import { scorePercentOf, ticketOf, verdictOf, type RecordRow } from './review-records';
import type { ReviewRubrics } from './review-rubrics';

/** Name of the SQL function that lower-cases text for matching. */
const FOLD = 'review_fold';

/** The record columns each {@link ReviewQuery.dateField} reads. */
const DATE_COLUMNS = { updated: 'updated_at_ms', created: 'created_at_ms', callStarted: 'call_started_at_ms' } as const;

/** Verdicts in the order "worst first" sorts them (`none` last either way it is read). */
const VERDICT_RANK = { fail: 0, needs_work: 1, pass: 2, none: 3 } as const;

type ListedRow = RecordRow & { note_count: number; tags: string };

const LISTED_COLUMNS = `r.*,
  (SELECT count(*) FROM notes n WHERE n.workspace_id = r.workspace_id AND n.sid = r.sid AND n.deleted_at_ms IS NULL) AS note_count,
  (SELECT json_group_array(tag) FROM (SELECT tag FROM record_tags t WHERE t.workspace_id = r.workspace_id AND t.sid = r.sid ORDER BY tag)) AS tags`;

const HOLDS_SOMETHING = `(r.verdict <> 'none' OR r.scores <> '{}' OR r.ticket IS NOT NULL
  OR EXISTS (SELECT 1 FROM record_tags t WHERE t.workspace_id = r.workspace_id AND t.sid = r.sid)
  OR EXISTS (SELECT 1 FROM notes n WHERE n.workspace_id = r.workspace_id AND n.sid = r.sid AND n.deleted_at_ms IS NULL))`;

/** Listing and summaries over one connection. */
export class ReviewQueries {
  constructor(
    private readonly ctx: ReviewContext,
    private readonly rubrics: ReviewRubrics,
  ) {
    ctx.db.function(FOLD, { deterministic: true }, (text: unknown) =>
      typeof text === 'string' ? text.toLowerCase() : null,
    );
  }

  /** The page of records that `query` (parsed by `reviewQuerySchema`) asks for, and how many match in all. */
  list(query: ReviewQuery): ReviewPage {
    const where = ['r.workspace_id = @workspaceId', 'r.deleted_at_ms IS NULL', HOLDS_SOMETHING];
    const params: Record<string, unknown> = { workspaceId: query.workspaceId };
    if (query.verdicts !== undefined) {
      where.push('r.verdict IN (SELECT value FROM json_each(@verdicts))');
      params.verdicts = JSON.stringify(query.verdicts);
    }
    if (query.tag !== undefined) {
      where.push(
        'EXISTS (SELECT 1 FROM record_tags t WHERE t.workspace_id = r.workspace_id AND t.sid = r.sid AND t.tag = @tag)',
      );
      params.tag = query.tag;
    }
    if (query.ticket !== undefined) {
      where.push(`instr(${FOLD}(r.ticket), ${FOLD}(@ticket)) > 0`);
      params.ticket = query.ticket;
    }
    if (query.text !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM notes n WHERE n.workspace_id = r.workspace_id AND n.sid = r.sid
        AND n.deleted_at_ms IS NULL AND instr(${FOLD}(n.text), ${FOLD}(@text)) > 0)`);
      params.text = query.text;
    }
    const dateColumn = `r.${DATE_COLUMNS[query.dateField]}`;
    if (query.fromMs !== undefined) {
      where.push(`${dateColumn} >= @fromMs`);
      params.fromMs = query.fromMs;
    }
    if (query.toMs !== undefined) {
      where.push(`${dateColumn} < @toMs`);
      params.toMs = query.toMs;
    }
    const sql = `SELECT ${LISTED_COLUMNS} FROM records r WHERE ${where.join(' AND ')}`;
    return read(this.ctx, () => {
      const rows = this.ctx.db
        .prepare<[Record<string, unknown>], ListedRow>(sql)
        .all(params)
        .map((r) => this.rowOf(r));
      rows.sort(comparator(query));
      return { rows: rows.slice(query.offset, query.offset + query.limit), total: rows.length };
    });
  }

  /**
   * Verdict, tags, note count and score of each SID that has a live record holding something;
   * SIDs without one are absent from the result.
   */
  summaries(workspaceId: string, sids: readonly string[]): Record<string, ReviewSummary> {
    if (sids.length === 0) return {};
    const sql = `SELECT ${LISTED_COLUMNS} FROM records r
      WHERE r.workspace_id = ? AND r.sid IN (SELECT value FROM json_each(?)) AND r.deleted_at_ms IS NULL AND ${HOLDS_SOMETHING}`;
    return read(this.ctx, () => {
      const out: Record<string, ReviewSummary> = {};
      for (const listed of this.ctx.db
        .prepare<[string, string], ListedRow>(sql)
        .all(workspaceId, JSON.stringify(sids))) {
        const row = this.rowOf(listed);
        out[row.sid] = {
          verdict: row.verdict,
          tags: row.tags,
          noteCount: row.noteCount,
          scorePercent: row.scorePercent,
        };
      }
      return out;
    });
  }

  private rowOf(row: ListedRow): ReviewRow {
    return {
      sid: row.sid,
      verdict: verdictOf(row),
      rubricVersion: row.rubric_version,
      scorePercent: scorePercentOf(this.rubrics, row),
      tags: tagsOf(row.tags),
      ticket: ticketOf(row),
      callStartedAtMs: row.call_started_at_ms,
      noteCount: row.note_count,
      createdAtMs: row.created_at_ms,
      updatedAtMs: row.updated_at_ms,
    };
  }
}

function tagsOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Sorts by the query's column and direction; rows without a value (no score, no call date) come
 * last in both directions; ties fall back to the most recently updated first, then the SID.
 */
function comparator(query: ReviewQuery): (a: ReviewRow, b: ReviewRow) => number {
  const sign = query.direction === 'asc' ? 1 : -1;
  const key = (row: ReviewRow): number | string | null => {
    switch (query.sortBy) {
      case 'updated':
        return row.updatedAtMs;
      case 'created':
        return row.createdAtMs;
      case 'callStarted':
        return row.callStartedAtMs;
      case 'score':
        return row.scorePercent;
      case 'verdict':
        return row.verdict === 'none' ? null : VERDICT_RANK[row.verdict];
      case 'sid':
        return row.sid;
      case 'notes':
        return row.noteCount;
    }
  };
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) {
      if (ka === null) return 1;
      if (kb === null) return -1;
      return (ka < kb ? -1 : 1) * sign;
    }
    if (a.updatedAtMs !== b.updatedAtMs) return b.updatedAtMs - a.updatedAtMs;
    return a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0;
  };
}
