/**
 * Transcript excerpts, pure: a contiguous range of log entries as plain text or Markdown, for the
 * clipboard (a ticket, a chat). Both name the call (SID), the workspace and the time range, then
 * hold one `[mm:ss] Role: message` line per entry, the role in the words the screens use
 * ("Caller", "Agent": speakers.ts).
 */
import type { LogEntry } from './domain';
import { roleWord } from './speakers';
import { clockLabel, normaliseNewlines, transcriptLines } from './transcript-export';

/** What an excerpt is made of. */
export interface ExcerptInput {
  /** Interaction SID (spec 2). */
  sid: string;
  workspaceName: string;
  /** The selected entries, in transcript order (a contiguous range). */
  entries: readonly LogEntry[];
}

/**
 * The time range of `entries`: from the first timed entry's offset to the last's, as
 * `mm:ss–mm:ss` (one time when they are equal), or `no times` when none is timed.
 */
export function excerptRange(entries: readonly LogEntry[]): string {
  const times = entries.map((e) => e.offsetSeconds).filter((t): t is number => t !== null && Number.isFinite(t));
  if (times.length === 0) return 'no times';
  const first = clockLabel(Math.min(...times));
  const last = clockLabel(Math.max(...times));
  return first === last ? first : `${first}–${last}`;
}

/** Plain-text excerpt: `Interaction <sid> · <workspace> · <range>`, a blank line, the lines. */
export function excerptText(input: ExcerptInput): string {
  const header = `Interaction ${input.sid} · ${input.workspaceName} · ${excerptRange(input.entries)}`;
  return [header, '', ...transcriptLines(input.entries, roleWord)].join('\n');
}

/**
 * `text` with a backslash before every character Markdown reads as inline markup (`\\`, backtick,
 * `*`, `_`, `[`, `]`, `<`, `>`, `#`, `|`, `~`, `&`), and before a list, quote or heading marker at
 * the start of a line (`-`, `+`, `=`, `1.`, `1)`), so a message shows as the words it is.
 */
export function markdownEscape(text: string): string {
  return text
    .replace(/[\\`*_[\]<>#|~&]/g, (c) => `\\${c}`)
    .replace(/^(\s*)([-+=]|\d+[.)])/gm, (_, space: string, marker: string) => `${space}\\${marker}`);
}

/**
 * Markdown excerpt: a bold header line (SID as code, workspace, range), then one list item per
 * entry `` `[mm:ss]` **Role:** message ``; the message's characters Markdown could read as markup
 * are escaped, its blank lines dropped and its further lines kept inside the item (indented,
 * after a hard line break).
 */
export function excerptMarkdown(input: ExcerptInput): string {
  const header = `**Interaction** \`${input.sid}\` · ${markdownEscape(input.workspaceName)} · ${excerptRange(input.entries)}`;
  const items = input.entries.map((entry) => {
    const lines = normaliseNewlines(entry.message)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(markdownEscape);
    const role = markdownEscape(roleWord(entry.role));
    const body = lines.join('\\\n  ');
    return `- \`[${clockLabel(entry.offsetSeconds)}]\` **${role}:** ${body}`;
  });
  return [header, '', ...items].join('\n');
}
