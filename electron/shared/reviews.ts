/**
 * Review records, shared by main (the store, electron/main/reviews/) and the renderer (the
 * review panel, the Reviews screen): what a reviewer writes about a call, per workspace and per
 * interaction SID (spec 2 "Interaction"), and the zod schemas main checks every IPC input with.
 *
 * A record holds: notes pinned to a time or a range (seconds from the start of the recording), a
 * verdict, scores against the workspace's rubric (rubric-scoring.ts), tags and a ticket (an ID or
 * an http(s) link). Times written by the store are epoch milliseconds (`…AtMs`).
 */
import { z } from 'zod';
import { MAX_LINK_SECONDS } from './deep-link';
import { SCORE_MAX, SCORE_MIN, type CriterionScore } from './rubric-scoring';
import { isSid } from './sid';

/** Limits shared by the forms and main's handlers. */
export const REVIEW_LIMITS = {
  /** Characters of one note. */
  noteText: 5000,
  /** Notes of one record (deleted ones not counted). */
  notesPerRecord: 1000,
  /** Characters of one tag, after normalising. */
  tag: 40,
  /** Tags of one record. */
  tagsPerRecord: 20,
  /** Characters of a ticket ID. */
  ticketId: 100,
  /** Characters of a ticket link. */
  ticketUrl: 2048,
  /** Criteria of one rubric. */
  criteria: 30,
  /** Characters of a criterion's label and of its description. */
  criterionLabel: 120,
  criterionDescription: 500,
  /** Highest weight of one criterion. */
  weight: 100,
  /** SIDs asked about in one summary call (the queue and recent calls show fewer). */
  summarySids: 500,
  /** Rows of one Reviews listing. */
  listRows: 5000,
} as const;

/** The reviewer's verdict on a call; `none` until one is given. */
export const VERDICTS = ['pass', 'needs_work', 'fail', 'none'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const verdictSchema = z.enum(VERDICTS);
/** Words for each verdict. */
export const VERDICT_LABELS: Readonly<Record<Verdict, string>> = {
  pass: 'Pass',
  needs_work: 'Needs work',
  fail: 'Fail',
  none: 'No verdict',
};

/** A workspace id as settings.ts stores it (a UUID, or `demo`). */
export const workspaceIdSchema = z.string().min(1).max(200);
/** An interaction SID (spec 2 "Identifier shapes"), lower-cased. */
export const interactionSidSchema = z
  .string()
  .refine((s) => isSid('interaction', s), 'An interaction SID looks like interaction_ followed by a UUID.')
  .transform((s) => s.toLowerCase());
/** Seconds from the start of the recording, 0 to 24 hours (as a `voice-review://` link's `t`). */
export const offsetSecondsSchema = z.number().min(0).max(MAX_LINK_SECONDS);

/** C0/C1 controls other than tab, newline and carriage return, and bidirectional overrides. */
const CONTROL = /(?![\t\n\r])[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** A note's text: not blank, at most {@link REVIEW_LIMITS.noteText} characters, no control characters. */
export const noteTextSchema = z
  .string()
  .max(REVIEW_LIMITS.noteText, `A note holds at most ${REVIEW_LIMITS.noteText} characters.`)
  .refine((s) => s.trim() !== '', 'A note needs some text.')
  .refine((s) => !CONTROL.test(s), 'A note cannot hold control characters.');

/** A note pinned to a moment (`endSeconds` null) or a range of the call. */
export interface ReviewNote {
  /** Random UUID given by the store. */
  id: string;
  sid: string;
  startSeconds: number;
  /** End of the range, after `startSeconds`; null for a note at one moment. */
  endSeconds: number | null;
  text: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/** Where a note is pinned: the end, when given, must come after the start. */
export const notePlaceSchema = z
  .object({ startSeconds: offsetSecondsSchema, endSeconds: offsetSecondsSchema.nullable().default(null) })
  .refine((p) => p.endSeconds === null || p.endSeconds > p.startSeconds, {
    message: "A note's range must end after it starts.",
    path: ['endSeconds'],
  });

/**
 * A tag as stored: trimmed, inner white space as one space, lower case; 1 to
 * {@link REVIEW_LIMITS.tag} characters of letters, digits, space, `-`, `_`, `.`, `/`, `#`, `:`.
 * @returns the normalised tag, or null when it is not acceptable
 */
export function normalizeTag(text: string): string | null {
  const tag = text.trim().replace(/\s+/g, ' ').toLowerCase();
  if (tag === '' || tag.length > REVIEW_LIMITS.tag) return null;
  return /^[\p{L}\p{N} _./#:-]+$/u.test(tag) ? tag : null;
}

/** One tag, normalised by {@link normalizeTag}. */
export const tagSchema = z.string().transform((s, ctx) => {
  const tag = normalizeTag(s);
  if (tag === null) {
    ctx.addIssue({
      code: 'custom',
      message: `A tag is 1 to ${REVIEW_LIMITS.tag} letters, digits, spaces or - _ . / # : characters.`,
    });
    return z.NEVER;
  }
  return tag;
});
/** A record's tags: normalised, duplicates dropped, at most {@link REVIEW_LIMITS.tagsPerRecord}. */
export const tagsSchema = z
  .array(tagSchema)
  .transform((tags) => [...new Set(tags)].sort())
  .refine(
    (tags) => tags.length <= REVIEW_LIMITS.tagsPerRecord,
    `A call has at most ${REVIEW_LIMITS.tagsPerRecord} tags.`,
  );

/** A ticket: a link to it (http or https only) or its ID in the team's tracker. */
export type Ticket = { kind: 'url'; url: string } | { kind: 'id'; id: string };

/** Query parameter names that look like a credential: a ticket link never carries one. */
const KEY_LIKE_PARAM = /key|token|secret|passw|pwd|auth|bearer|credential|session|signature|^sig$/i;
/** Text that starts like a URL: `scheme://`, or a scheme that runs code or reads files. */
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|(?:javascript|data|vbscript|file|blob|about):)/i;

/**
 * Reads what a reviewer typed as a ticket. Text that starts like a URL must be an `http:` or
 * `https:` link without a user name, password or credential-like query parameter (a ticket link
 * is shown to others and kept in the database: it must never carry a key), at most
 * {@link REVIEW_LIMITS.ticketUrl} characters. Anything else is a plain ID: trimmed, 1 to
 * {@link REVIEW_LIMITS.ticketId} characters, no control characters. A plain ID is never made a link.
 * @returns the ticket, or `ok: false` with a sentence that never repeats the text
 */
export function parseTicket(text: string): { ok: true; ticket: Ticket } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Enter a ticket ID or a link to the ticket.' };
  if (URL_LIKE.test(trimmed)) return parseTicketUrl(trimmed);
  if (trimmed.length > REVIEW_LIMITS.ticketId) {
    return { ok: false, message: `A ticket ID has at most ${REVIEW_LIMITS.ticketId} characters.` };
  }
  if (CONTROL.test(trimmed) || /[\r\n\t]/.test(trimmed)) {
    return { ok: false, message: 'A ticket ID cannot hold line breaks or control characters.' };
  }
  return { ok: true, ticket: { kind: 'id', id: trimmed } };
}

function parseTicketUrl(text: string): { ok: true; ticket: Ticket } | { ok: false; message: string } {
  if (text.length > REVIEW_LIMITS.ticketUrl) {
    return { ok: false, message: `A ticket link has at most ${REVIEW_LIMITS.ticketUrl} characters.` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'This ticket link is not a valid address. Paste it again from the tracker.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: 'A ticket link must start with https:// or http://.' };
  }
  if (url.username !== '' || url.password !== '' || [...url.searchParams.keys()].some((k) => KEY_LIKE_PARAM.test(k))) {
    return {
      ok: false,
      message:
        'This ticket link carries a user name, password or token. Remove it: links are kept and shown to others.',
    };
  }
  return { ok: true, ticket: { kind: 'url', url: url.href } };
}

/** The stored form of a ticket (its link or ID). */
export function ticketText(ticket: Ticket): string {
  return ticket.kind === 'url' ? ticket.url : ticket.id;
}

/** A ticket as typed, read by {@link parseTicket}; null clears it. */
export const ticketInputSchema = z
  .string()
  .max(REVIEW_LIMITS.ticketUrl + 100)
  .transform((s, ctx) => {
    const parsed = parseTicket(s);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    return parsed.ticket;
  })
  .nullable();

/** A criterion id: lower-case letters, digits, `-` and `_`, 1 to 40 characters. */
export const criterionIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'A criterion id is 1 to 40 lower-case letters, digits, - or _.');

/** One criterion of a rubric. */
export const rubricCriterionSchema = z.object({
  id: criterionIdSchema,
  label: z.string().trim().min(1, 'A criterion needs a name.').max(REVIEW_LIMITS.criterionLabel),
  description: z.string().trim().max(REVIEW_LIMITS.criterionDescription).default(''),
  /** Relative weight 0–100; 0 keeps the criterion on the form without counting it. */
  weight: z.number().min(0).max(REVIEW_LIMITS.weight),
});
export type RubricCriterion = z.output<typeof rubricCriterionSchema>;

/** A rubric's criteria as the Settings form sends them: ids unique, at most {@link REVIEW_LIMITS.criteria}. */
export const rubricCriteriaSchema = z
  .array(rubricCriterionSchema)
  .max(REVIEW_LIMITS.criteria, `A rubric has at most ${REVIEW_LIMITS.criteria} criteria.`)
  .refine((cs) => new Set(cs.map((c) => c.id)).size === cs.length, 'Two criteria have the same id.');

/** One saved version of a workspace's rubric; versions are never changed once saved. */
export interface Rubric {
  /** 1, 2, …: a record keeps the version it was scored with. */
  version: number;
  criteria: RubricCriterion[];
  createdAtMs: number;
}

/** The rubric a workspace starts with (version 1), until the team edits it in Settings. */
export const DEFAULT_RUBRIC_CRITERIA: readonly RubricCriterion[] = [
  { id: 'understood', label: "Understood the caller's need", description: '', weight: 25 },
  { id: 'correct', label: 'Gave correct information', description: '', weight: 30 },
  { id: 'process', label: 'Followed the process (identity checks, hand-offs)', description: '', weight: 20 },
  { id: 'resolution', label: 'Resolved the call or handed it on properly', description: '', weight: 15 },
  { id: 'tone', label: 'Tone and clarity', description: '', weight: 10 },
];

/** One criterion's score: 0–4, or null for "not applicable" (rubric-scoring.ts). */
export const criterionScoreSchema = z
  .number()
  .int()
  .min(SCORE_MIN)
  .max(SCORE_MAX)
  .nullable() as z.ZodType<CriterionScore>;
/** Scores by criterion id. */
export const scoresSchema = z.record(criterionIdSchema, criterionScoreSchema);

/** A whole review record, as the review panel shows it. */
export interface ReviewRecord {
  workspaceId: string;
  sid: string;
  verdict: Verdict;
  /** Scores by criterion id; empty until the call is scored. */
  scores: Record<string, CriterionScore>;
  /** The rubric version the scores were given against; null until scored. */
  rubricVersion: number | null;
  /** Weighted total against that version, 0–100; null when nothing counted. */
  scorePercent: number | null;
  tags: string[];
  ticket: Ticket | null;
  /** When the call started (spec 2 `started_at`), as the reviewer's view knew it; null when unknown. */
  callStartedAtMs: number | null;
  /** Notes not deleted, by start time. */
  notes: ReviewNote[];
  createdAtMs: number;
  updatedAtMs: number;
}

/** One row of the Reviews screen. */
export type ReviewRow = Omit<ReviewRecord, 'notes' | 'scores' | 'workspaceId'> & { noteCount: number };

/** What the queue and recent calls show beside a call. */
export interface ReviewSummary {
  verdict: Verdict;
  tags: string[];
  noteCount: number;
  scorePercent: number | null;
}

/** Columns the Reviews screen sorts by. */
export const REVIEW_SORT_KEYS = ['updated', 'created', 'callStarted', 'verdict', 'score', 'sid', 'notes'] as const;
/** Dates the Reviews screen filters by. */
export const REVIEW_DATE_FIELDS = ['updated', 'created', 'callStarted'] as const;

/** The Reviews screen's query: filters (all optional, combined with AND), sort and page. */
export const reviewQuerySchema = z.object({
  workspaceId: workspaceIdSchema,
  /** Any of these verdicts. */
  verdicts: z.array(verdictSchema).max(VERDICTS.length).optional(),
  /** Records that carry this tag. */
  tag: tagSchema.optional(),
  /** Records whose ticket contains this text (any case). */
  ticket: z.string().trim().min(1).max(REVIEW_LIMITS.ticketUrl).optional(),
  /** Records whose notes contain this text (any case). */
  text: z.string().trim().min(1).max(200).optional(),
  dateField: z.enum(REVIEW_DATE_FIELDS).default('updated'),
  /** From this epoch ms, inclusive, and before this one, exclusive. */
  fromMs: z.number().int().nonnegative().optional(),
  toMs: z.number().int().nonnegative().optional(),
  sortBy: z.enum(REVIEW_SORT_KEYS).default('updated'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  limit: z.number().int().min(1).max(REVIEW_LIMITS.listRows).default(500),
  offset: z.number().int().min(0).default(0),
});
export type ReviewQueryInput = z.input<typeof reviewQuerySchema>;
export type ReviewQuery = z.output<typeof reviewQuerySchema>;

/** A page of the Reviews screen: its rows and how many records match in all. */
export interface ReviewPage {
  rows: ReviewRow[];
  total: number;
}

/** Which call a record is about: the key of every write. */
export const recordKeySchema = z.object({ workspaceId: workspaceIdSchema, sid: interactionSidSchema });

/** The IPC inputs of the review store, one schema per method (main parses with them). */
export const reviewInputSchemas = {
  get: recordKeySchema,
  addNote: recordKeySchema.extend({ text: noteTextSchema, place: notePlaceSchema }),
  updateNote: z.object({
    workspaceId: workspaceIdSchema,
    noteId: z.uuid(),
    text: noteTextSchema.optional(),
    place: notePlaceSchema.optional(),
  }),
  deleteNote: z.object({ workspaceId: workspaceIdSchema, noteId: z.uuid() }),
  restoreNote: z.object({ workspaceId: workspaceIdSchema, noteId: z.uuid() }),
  setVerdict: recordKeySchema.extend({ verdict: verdictSchema }),
  setScore: recordKeySchema.extend({ criterionId: criterionIdSchema, score: criterionScoreSchema }),
  setTags: recordKeySchema.extend({ tags: tagsSchema }),
  setTicket: recordKeySchema.extend({ ticket: ticketInputSchema }),
  setCallStarted: recordKeySchema.extend({ callStartedAtMs: z.number().int().nonnegative().nullable() }),
  deleteRecord: recordKeySchema,
  restoreRecord: recordKeySchema,
  list: reviewQuerySchema,
  summaries: z.object({
    workspaceId: workspaceIdSchema,
    sids: z.array(interactionSidSchema).max(REVIEW_LIMITS.summarySids),
  }),
  rubric: z.object({ workspaceId: workspaceIdSchema }),
  saveRubric: z.object({ workspaceId: workspaceIdSchema, criteria: rubricCriteriaSchema }),
} as const;

/**
 * How the review database opened, for a notice in the UI.
 * - `ok`: as expected.
 * - `recovered`: the file could not be read; it was renamed to `movedAsidePath` and a new,
 *   empty one started. `message` says so in words.
 * - `newer`: written by a newer Voice Review; opened read-only so nothing in it is lost.
 */
export type ReviewDatabaseState =
  { kind: 'ok' } | { kind: 'recovered'; movedAsidePath: string; message: string } | { kind: 'newer'; message: string };
