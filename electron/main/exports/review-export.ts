/**
 * The Reviews screen's export: the records of a workspace as CSV (one row per record, for a
 * spreadsheet) or JSON (every field and note, for a script). Main writes the text through the
 * save dialog and an atomic write (save-dialog.ts, atomic-write.ts).
 *
 * CSV follows RFC 4180 (comma, CRLF between records, a field holding a comma, quote or line
 * break in double quotes, a quote doubled) with a UTF-8 byte-order mark so spreadsheets read
 * accents. A cell that begins with `=`, `+`, `-`, `@`, tab or CR (or their full-width forms) is
 * prefixed with a single quote, as OWASP advises against formula injection: a note or tag a
 * caller's words went into must never run as a formula. Writing is csv-stringify's, with its
 * `escape_formulas`.
 *
 * Notes can hold what the caller said; with `redaction` given, their text goes through the PII
 * rules (shared/redaction.ts) first. Tickets and tags are the reviewer's own words and are not
 * redacted.
 */
import { stringify } from 'csv-stringify/sync';
import { redact, type RedactionSettings } from '$shared/redaction';
import type { Rubric, ReviewRecord, ReviewQuery } from '$shared/reviews';
import { VERDICT_LABELS, ticketText } from '$shared/reviews';
import { clockLabel } from '$shared/transcript-export';
import type { ReviewStore } from '../reviews/review-store';

/** The export formats of the Reviews screen. */
export type ReviewExportFormat = 'csv' | 'json';

/** What an export is made of. */
export interface ReviewExportInput {
  workspaceName: string;
  /** Full records (with notes), in the order the screen shows them. */
  records: readonly ReviewRecord[];
  /** The rubric versions the records were scored with, by version number (for labels and the JSON). */
  rubrics: ReadonlyMap<number, Rubric>;
  /** PII rules applied to note text, or null to export notes as written. */
  redaction: RedactionSettings | null;
  /** When the export was made, epoch ms. */
  exportedAtMs: number;
}

/** The CSV columns, in order. */
export const REVIEW_CSV_COLUMNS = [
  'sid',
  'workspace',
  'verdict',
  'score_percent',
  'rubric_version',
  'scores',
  'tags',
  'ticket',
  'call_started_at',
  'reviewed_at',
  'updated_at',
  'note_count',
  'notes',
] as const;

/** Largest export, in records: beyond it the Reviews screen asks for a narrower filter. */
export const MAX_EXPORT_RECORDS = 5000;

/**
 * The full records a Reviews query lists (every page, up to {@link MAX_EXPORT_RECORDS}), with
 * the rubric versions they were scored with.
 */
export function recordsForExport(
  store: ReviewStore,
  query: ReviewQuery,
): { records: ReviewRecord[]; rubrics: Map<number, Rubric> } {
  const page = store.queries.list({ ...query, offset: 0, limit: MAX_EXPORT_RECORDS });
  const records = page.rows.flatMap((row) => store.records.get({ workspaceId: query.workspaceId, sid: row.sid }) ?? []);
  const rubrics = new Map<number, Rubric>();
  for (const record of records) {
    if (record.rubricVersion === null || rubrics.has(record.rubricVersion)) continue;
    const rubric = store.rubrics.version(query.workspaceId, record.rubricVersion);
    if (rubric) rubrics.set(record.rubricVersion, rubric);
  }
  return { records, rubrics };
}

/** The export of `input` in `format`. */
export function exportReviews(format: ReviewExportFormat, input: ReviewExportInput): string {
  return format === 'csv' ? reviewsCsv(input) : reviewsJson(input);
}

/** CSV: a header row of {@link REVIEW_CSV_COLUMNS}, then one row per record (see the module comment). */
export function reviewsCsv(input: ReviewExportInput): string {
  const rows = input.records.map((record) => {
    const cells: Record<(typeof REVIEW_CSV_COLUMNS)[number], string> = {
      sid: record.sid,
      workspace: input.workspaceName,
      verdict: VERDICT_LABELS[record.verdict],
      score_percent: record.scorePercent === null ? '' : record.scorePercent.toFixed(1),
      rubric_version: record.rubricVersion === null ? '' : String(record.rubricVersion),
      scores: scoresCell(record, input.rubrics.get(record.rubricVersion ?? -1)),
      tags: record.tags.join(', '),
      ticket: record.ticket === null ? '' : ticketText(record.ticket),
      call_started_at: isoOrBlank(record.callStartedAtMs),
      reviewed_at: isoOrBlank(record.createdAtMs),
      updated_at: isoOrBlank(record.updatedAtMs),
      note_count: String(record.notes.length),
      notes: record.notes.map((n) => `[${noteTime(n)}] ${noteText(n.text, input.redaction)}`).join('\n'),
    };
    return cells;
  });
  return stringify(rows, {
    header: true,
    columns: [...REVIEW_CSV_COLUMNS],
    record_delimiter: 'windows',
    bom: true,
    escape_formulas: true,
  });
}

/**
 * JSON: `{ format, version, workspace, exportedAt, redacted, rubrics, records }`, each record
 * with its notes (times in seconds from the start of the recording, dates as ISO 8601 UTC).
 */
export function reviewsJson(input: ReviewExportInput): string {
  const document = {
    format: 'voice-review.reviews',
    version: 1,
    workspace: input.workspaceName,
    exportedAt: new Date(input.exportedAtMs).toISOString(),
    redacted: input.redaction !== null,
    rubrics: [...input.rubrics.values()]
      .sort((a, b) => a.version - b.version)
      .map((r) => ({ version: r.version, criteria: r.criteria })),
    records: input.records.map((record) => ({
      sid: record.sid,
      verdict: record.verdict,
      scorePercent: record.scorePercent,
      rubricVersion: record.rubricVersion,
      scores: record.scores,
      tags: record.tags,
      ticket: record.ticket,
      callStartedAt: isoOrNull(record.callStartedAtMs),
      reviewedAt: isoOrNull(record.createdAtMs),
      updatedAt: isoOrNull(record.updatedAtMs),
      notes: record.notes.map((n) => ({
        startSeconds: n.startSeconds,
        endSeconds: n.endSeconds,
        text: noteText(n.text, input.redaction),
        createdAt: isoOrNull(n.createdAtMs),
        updatedAt: isoOrNull(n.updatedAtMs),
      })),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `label: n/4; …` in the rubric's order, `n/a` for not applicable; ids for criteria the rubric lacks. */
function scoresCell(record: ReviewRecord, rubric: Rubric | undefined): string {
  const label = (id: string) => rubric?.criteria.find((c) => c.id === id)?.label ?? id;
  const order = rubric?.criteria.map((c) => c.id) ?? [];
  const ids = Object.keys(record.scores).sort((a, b) => rank(order, a) - rank(order, b));
  return ids
    .map((id) => {
      const score = record.scores[id];
      return `${label(id)}: ${score === null || score === undefined ? 'n/a' : `${String(score)}/4`}`;
    })
    .join('; ');
}

function rank(order: readonly string[], id: string): number {
  const at = order.indexOf(id);
  return at === -1 ? order.length : at;
}

function noteTime(note: { startSeconds: number; endSeconds: number | null }): string {
  const start = clockLabel(note.startSeconds);
  return note.endSeconds === null ? start : `${start}–${clockLabel(note.endSeconds)}`;
}

function noteText(text: string, redaction: RedactionSettings | null): string {
  return redaction === null ? text : redact(text, redaction).text;
}

function isoOrBlank(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
