/**
 * What the renderer asks main for when a reviewer makes an evidence pack: the call, the range,
 * how to mask audio, whether to redact, and the call's timing analysis (worked out in the
 * renderer from the peaks: main writes it into the pack as text). Main parses it with
 * {@link evidencePackRequestSchema} before doing anything; the transcript and the review record
 * main reads itself.
 */
import { z } from 'zod';
import { interactionSidSchema, offsetSecondsSchema, workspaceIdSchema } from './reviews';

/** Longest evidence clip, in seconds (as main's clip cutter). */
export const MAX_PACK_RANGE_SECONDS = 30 * 60;
/** Most gaps, talk-over spans, silences or flagged moments accepted from the renderer. */
const MAX_TIMING_ITEMS = 5000;

const spanSchema = z.object({ startSeconds: offsetSecondsSchema, endSeconds: offsetSecondsSchema });

/** The selected range: ends after it starts, at most {@link MAX_PACK_RANGE_SECONDS} long. */
export const packRangeSchema = spanSchema.refine(
  (r) => r.endSeconds > r.startSeconds && r.endSeconds - r.startSeconds <= MAX_PACK_RANGE_SECONDS,
  `Select a range that ends after it starts, at most ${String(MAX_PACK_RANGE_SECONDS / 60)} minutes long.`,
);

/** The call's turn timing, as far as the pack's text needs it. */
export const packTimingSchema = z.object({
  gaps: z.array(spanSchema.extend({ gapSeconds: z.number().min(0).max(86_400) })).max(MAX_TIMING_ITEMS),
  talkOver: z.array(spanSchema).max(MAX_TIMING_ITEMS),
  silences: z.array(spanSchema).max(MAX_TIMING_ITEMS),
  slowGapSeconds: z.number().min(0).max(60),
  basis: z.enum(['audio', 'log']),
  basisNote: z.string().max(300).nullable(),
});

/** One IPC call "make an evidence pack". */
export const evidencePackRequestSchema = z.object({
  workspaceId: workspaceIdSchema,
  sid: interactionSidSchema,
  range: packRangeSchema,
  /** How masked audio sounds. */
  mask: z.enum(['silence', 'bleep']).default('silence'),
  /** Mask PII in the text and the audio (on by default; the Settings rules say which kinds). */
  redact: z.boolean().default(true),
  /** Null when the call's timing could not be worked out (no peaks and no timed entries). */
  timing: packTimingSchema.nullable().default(null),
  /** The call's flagged moments, with their labels ("Slow reply: 3.2 s"). */
  flagged: z
    .array(spanSchema.extend({ label: z.string().min(1).max(120) }))
    .max(MAX_TIMING_ITEMS)
    .default([]),
});
export type EvidencePackRequest = z.output<typeof evidencePackRequestSchema>;
