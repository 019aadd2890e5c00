/**
 * The evidence pack's text parts, pure: the "Copy for ticket" Markdown block (a link at the
 * range's start, the flagged moments and notes as links at their times, the verdict, the redacted
 * excerpt), the timing facts of the range, and the note on how the audio was redacted. The
 * renderer copies the block to the clipboard; main writes the same texts into the pack's folder.
 *
 * Times are seconds from the start of the recording. Links are `voice-review://` links
 * (deep-link.ts). Everything the caller said goes through the PII rules (redaction.ts) unless
 * `redaction` is null; notes do too, since a reviewer may have copied a number into one.
 */
import type { LogEntry } from './domain';
import { formatInteractionLink } from './deep-link';
import { excerptMarkdown, excerptText, markdownEscape } from './excerpt';
import { redact, type RedactionSettings } from './redaction';
import { VERDICT_LABELS, ticketText, type ReviewNote, type Ticket, type Verdict } from './reviews';
import { percentLabel } from './rubric-scoring';
import { clockLabel } from './transcript-export';

/** A stretch of the recording, in seconds. */
export interface TimeSpan {
  startSeconds: number;
  endSeconds: number;
}

/** A flagged moment as the call's analysis gives it ("Slow reply: 3.2 s", "Talk-over: 1.4 s"…). */
export interface FlaggedMomentText extends TimeSpan {
  label: string;
}

/** What the ticket block is made of. */
export interface TicketBlockInput {
  /** Interaction SID (spec 2). */
  sid: string;
  workspaceName: string;
  /** The selected range. */
  range: TimeSpan;
  /** The transcript entries of the range, in order. */
  entries: readonly LogEntry[];
  /** The call's flagged moments (those outside the range are left out). */
  flagged: readonly FlaggedMomentText[];
  verdict: Verdict;
  scorePercent: number | null;
  tags: readonly string[];
  ticket: Ticket | null;
  /** The record's notes (those outside the range are left out). */
  notes: readonly ReviewNote[];
  /** PII rules for the excerpt and the notes; null copies them as they are. */
  redaction: RedactionSettings | null;
}

/** True when `span` (or the moment at its start, when it has no length) lies in `range`. */
export function overlapsRange(span: TimeSpan, range: TimeSpan): boolean {
  if (span.endSeconds <= span.startSeconds) {
    return span.startSeconds >= range.startSeconds && span.startSeconds <= range.endSeconds;
  }
  return span.startSeconds < range.endSeconds && span.endSeconds > range.startSeconds;
}

/**
 * The entries of `log` spoken in `range`: each timed entry lasts until the next timed one (the
 * last until `recordingEndSeconds`, else for ever), and is taken when that overlaps the range or
 * when it starts inside it. Untimed entries cannot be placed and are left out.
 */
export function entriesInRange(
  log: readonly LogEntry[],
  range: TimeSpan,
  recordingEndSeconds: number | null,
): LogEntry[] {
  const timed = log.filter((e) => e.offsetSeconds !== null && Number.isFinite(e.offsetSeconds));
  return timed.filter((entry, i) => {
    const start = entry.offsetSeconds ?? 0;
    const end = timed[i + 1]?.offsetSeconds ?? recordingEndSeconds ?? Infinity;
    return start < range.endSeconds && (end > range.startSeconds || start >= range.startSeconds);
  });
}

/** `entries` with each message masked by the PII rules (offsets and roles unchanged). */
export function redactEntries(entries: readonly LogEntry[], settings: RedactionSettings): LogEntry[] {
  return entries.map((entry) => ({ ...entry, message: redact(entry.message, settings).text }));
}

/** A `voice-review://` link at `seconds` (clamped to 0), as a Markdown link labelled `label`. */
function linkAt(input: Pick<TicketBlockInput, 'sid' | 'workspaceName'>, seconds: number, label: string): string {
  const url = formatInteractionLink(input.sid, Math.max(0, seconds), input.workspaceName);
  return `[${label}](<${url}>)`;
}

/** `mm:ss` or `mm:ss–mm:ss`. */
export function spanLabel(span: TimeSpan): string {
  const start = clockLabel(span.startSeconds);
  return span.endSeconds > span.startSeconds ? `${start}–${clockLabel(span.endSeconds)}` : start;
}

/**
 * The "Copy for ticket" block, Markdown:
 *
 *     **Voice Review evidence** · [Open at 01:05](<voice-review://…?t=65&workspace=…>)
 *     **Verdict:** Needs work · **Score:** 75 % · **Tags:** billing · **Ticket:** SUP-1
 *     **Flagged moments** (one linked item each)
 *     **Notes** (one linked item each)
 *     **Excerpt** (PII masked) then the excerpt as excerpt.ts writes it
 *
 * Sections with nothing in them are left out.
 * @throws RangeError when the SID or the workspace name could not travel in a link (deep-link.ts)
 */
export function ticketMarkdown(input: TicketBlockInput): string {
  const clean = (text: string) => (input.redaction === null ? text : redact(text, input.redaction).text);
  const facts = [`**Verdict:** ${VERDICT_LABELS[input.verdict]}`];
  if (input.scorePercent !== null) facts.push(`**Score:** ${percentLabel(input.scorePercent)}`);
  if (input.tags.length > 0) facts.push(`**Tags:** ${input.tags.map(markdownEscape).join(', ')}`);
  if (input.ticket !== null) facts.push(`**Ticket:** ${ticketMarkdownText(input.ticket)}`);
  const lines = [
    `**Voice Review evidence** · ${linkAt(input, input.range.startSeconds, `Open at ${clockLabel(input.range.startSeconds)}`)} · ${spanLabel(input.range)}`,
    facts.join(' · '),
  ];
  const flagged = input.flagged.filter((f) => overlapsRange(f, input.range));
  if (flagged.length > 0) {
    lines.push('', '**Flagged moments**');
    for (const f of flagged) lines.push(`- ${linkAt(input, f.startSeconds, spanLabel(f))} ${markdownEscape(f.label)}`);
  }
  const notes = input.notes
    .filter((n) =>
      overlapsRange({ startSeconds: n.startSeconds, endSeconds: n.endSeconds ?? n.startSeconds }, input.range),
    )
    .sort((a, b) => a.startSeconds - b.startSeconds);
  if (notes.length > 0) {
    lines.push('', '**Notes**');
    for (const n of notes) {
      const at = spanLabel({ startSeconds: n.startSeconds, endSeconds: n.endSeconds ?? n.startSeconds });
      const text = clean(n.text)
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '')
        .map(markdownEscape)
        .join('\\\n  ');
      lines.push(`- ${linkAt(input, n.startSeconds, at)} ${text}`);
    }
  }
  if (input.entries.length > 0) {
    const entries = input.redaction === null ? input.entries : redactEntries(input.entries, input.redaction);
    lines.push('', input.redaction === null ? '**Excerpt**' : '**Excerpt** (personal data masked)', '');
    lines.push(excerptMarkdown({ sid: input.sid, workspaceName: input.workspaceName, entries }));
  }
  return `${lines.join('\n')}\n`;
}

/** A ticket as Markdown: a link for a URL, escaped text for an ID. */
function ticketMarkdownText(ticket: Ticket): string {
  return ticket.kind === 'url' ? `<${ticket.url}>` : markdownEscape(ticketText(ticket));
}

/** The plain-text excerpt of the pack (`excerpt.txt`), masked unless `redaction` is null. */
export function packExcerptText(
  input: Pick<TicketBlockInput, 'sid' | 'workspaceName' | 'entries' | 'redaction'>,
): string {
  const entries = input.redaction === null ? input.entries : redactEntries(input.entries, input.redaction);
  return `${excerptText({ sid: input.sid, workspaceName: input.workspaceName, entries })}\n`;
}

/** A reply gap as the call's analysis gives it. */
export interface GapFact extends TimeSpan {
  gapSeconds: number;
}

/** What the timing facts are made of (the call's turn timing, shared/… renderer analysis). */
export interface TimingFactsInput {
  range: TimeSpan;
  gaps: readonly GapFact[];
  talkOver: readonly TimeSpan[];
  silences: readonly TimeSpan[];
  /** Replies slower than this are listed, in seconds. */
  slowGapSeconds: number;
  /** Where the figures come from, and why not the audio when they do not. */
  basis: 'audio' | 'log';
  basisNote: string | null;
}

const seconds = (s: number) => `${s.toFixed(1)} s`;

/**
 * The timing facts of the range, plain text: replies (count, median and longest gap), the slow
 * replies, talk-over and long silences with their times, and what they were measured from.
 */
export function timingFactsText(input: TimingFactsInput): string {
  const { range } = input;
  const gaps = input.gaps.filter((g) => overlapsRange(g, range)).sort((a, b) => a.startSeconds - b.startSeconds);
  const talkOver = input.talkOver.filter((t) => overlapsRange(t, range));
  const silences = input.silences.filter((s) => overlapsRange(s, range));
  const lines = [`Timing facts, ${spanLabel(range)} (${seconds(range.endSeconds - range.startSeconds)})`];
  if (gaps.length === 0) {
    lines.push('Replies: none in this range');
  } else {
    const sorted = gaps.map((g) => g.gapSeconds).sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
    const longest = gaps.reduce((a, b) => (b.gapSeconds > a.gapSeconds ? b : a));
    lines.push(
      `Replies: ${String(gaps.length)}; median gap ${seconds(median)}; longest ${seconds(longest.gapSeconds)} at ${clockLabel(longest.startSeconds)}`,
    );
  }
  const slow = gaps.filter((g) => g.gapSeconds > input.slowGapSeconds);
  lines.push(
    `Slow replies (over ${seconds(input.slowGapSeconds)}): ${listOf(slow.map((g) => `${clockLabel(g.startSeconds)} (${seconds(g.gapSeconds)})`))}`,
  );
  const talkOverTotal = talkOver.reduce((sum, t) => sum + (t.endSeconds - t.startSeconds), 0);
  lines.push(
    `Talk-over: ${talkOver.length === 0 ? 'none' : `${String(talkOver.length)} time${talkOver.length === 1 ? '' : 's'}, ${seconds(talkOverTotal)} in all; ${durations(talkOver)}`}`,
  );
  lines.push(
    `Long silences: ${listOf(silences.map((s) => `${clockLabel(s.startSeconds)} (${seconds(s.endSeconds - s.startSeconds)})`))}`,
  );
  lines.push(
    input.basis === 'audio'
      ? 'Measured from the audio.'
      : `Measured from the transcript's times only${input.basisNote ? `: ${input.basisNote}` : '.'}`,
  );
  return `${lines.join('\n')}\n`;
}

function listOf(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.join(', ');
}

function durations(spans: readonly TimeSpan[]): string {
  return spans.map((s) => `${clockLabel(s.startSeconds)} (${seconds(s.endSeconds - s.startSeconds)})`).join(', ');
}

/**
 * What the pack says about its audio: which stretches were masked, how, and that the timing is
 * per turn. `maskedSpans` are in seconds from the clip's start; `untimedEntries` counts entries
 * holding PII that have no time (their audio could not be found, so may be heard).
 */
export function audioRedactionNote(
  maskedSpans: readonly TimeSpan[],
  options: { clipStartSeconds: number; marginSeconds: number; mask: 'silence' | 'bleep'; untimedEntries: number },
): string {
  const how = options.mask === 'silence' ? 'silenced' : 'covered by a 1 kHz tone';
  const lines = [
    'Audio redaction',
    'The transcript gives a time for each turn, not for each word. Every turn whose text holds personal data ' +
      `is ${how} from its start to the next turn, plus ${String(Number(options.marginSeconds.toFixed(2)))} s on each side: ` +
      'more than the words themselves, on purpose.',
  ];
  if (maskedSpans.length === 0) lines.push('Nothing in this clip was masked.');
  else {
    const at = (s: number) => clockLabel(s + options.clipStartSeconds);
    lines.push(
      `Masked (times in the call): ${maskedSpans.map((s) => `${at(s.startSeconds)}–${at(s.endSeconds)}`).join(', ')}.`,
    );
  }
  if (options.untimedEntries > 0) {
    lines.push(
      `${String(options.untimedEntries)} turn${options.untimedEntries === 1 ? '' : 's'} holding personal data had no time in the transcript, ` +
        'so their audio could not be found and was not masked. Listen to the clip before attaching it.',
    );
  }
  return `${lines.join('\n')}\n`;
}
