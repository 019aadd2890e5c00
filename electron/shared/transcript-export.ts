/**
 * Transcript exports, pure: plain text, JSON, SubRip (.srt) and WebVTT (.vtt) built from an
 * interaction as the app parsed it (spec 2 "Interaction" and "Log entry fields"). Main writes them
 * through the save dialog (electron/main/exports/); the tests read them back.
 *
 * Which entries go where: every entry is kept in TXT and JSON (an entry without a usable timestamp
 * shows `[--:--]` in TXT and `offsetSeconds: null` in JSON); subtitles hold only the timed entries,
 * since a cue needs a start.
 */
import type { Interaction, LogEntry } from './domain';

/** The formats a transcript can be exported in. */
export type TranscriptFormat = 'txt' | 'json' | 'srt' | 'vtt';

/** Every {@link TranscriptFormat}, for checking input. */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = ['txt', 'json', 'srt', 'vtt'];

/** The interaction fields an export reads (the playable source is not part of it). */
export type ExportedInteraction = Omit<Interaction, 'recording'>;

/** What an export is built from. */
export interface TranscriptExportInput {
  interaction: ExportedInteraction;
  /** Name of the workspace the call was looked up in. */
  workspaceName: string;
  /**
   * Where the recording ends, in seconds from its start: the decoded audio's exact duration when
   * known, else the interaction's duration; null when neither is known. The last cue ends there.
   */
  recordingEndSeconds: number | null;
}

/** Shortest cue, in milliseconds: given to an entry whose next entry starts at the same time. */
export const MIN_CUE_MS = 500;
/** Length of the last cue, in milliseconds, when the recording's end is not known. */
export const LAST_CUE_WITHOUT_END_MS = 3000;

/** One subtitle cue: times in whole milliseconds from the start of the recording. */
export interface TranscriptCue {
  startMs: number;
  endMs: number;
  /** The entry's role as the server sent it (e.g. `agent`). */
  role: string;
  /** The entry's message with line breaks normalised to `\n`. */
  message: string;
}

/** `\r\n` and lone `\r` as `\n`. */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Line and paragraph breaks of every kind: CR, LF, VT, FF, NEL, U+2028 and U+2029. */
const LINE_BREAKS = /[\r\n\v\f\u0085\u2028\u2029]+/g;

/** `text` on one line: each run of line or paragraph breaks becomes one space. */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ');
}

/**
 * A speaker label for a role: `agent` -> `Agent`, an empty role -> `Unknown`. The role is put on
 * one line first ({@link oneLine}): a server-sent role holding a line break could otherwise start
 * a new cue, a fake timing line or a fake transcript line in every export format.
 */
export function speakerLabel(role: string): string {
  const trimmed = oneLine(role).trim();
  return trimmed === '' ? 'Unknown' : trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A media time in seconds as `mm:ss` (`h:mm:ss` from one hour on), or `--:--` when unknown.
 * Seconds are rounded down.
 */
export function clockLabel(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '--:--';
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  return h > 0 ? `${String(h)}:${pad(m)}:${pad(total % 60)}` : `${pad(m)}:${pad(total % 60)}`;
}

/** An epoch time in milliseconds as ISO 8601 in UTC, or `unknown`. */
export function utcLabel(epochMs: number | null): string {
  return epochMs === null ? 'unknown' : new Date(epochMs).toISOString();
}

/**
 * Transcript lines `[mm:ss] Role: message`, one per entry; a message's further lines follow
 * indented by four spaces (a blank one stays empty) so every entry still starts with its time.
 * `label` names each role ({@link speakerLabel}, the role as sent, unless the caller chooses
 * another word); it must return one line.
 */
export function transcriptLines(
  entries: readonly LogEntry[],
  label: (role: string) => string = speakerLabel,
): string[] {
  return entries.map((entry) => {
    const [first = '', ...rest] = normaliseNewlines(entry.message).split('\n');
    const head = `[${clockLabel(entry.offsetSeconds)}] ${label(entry.role)}: ${first}`;
    return [head, ...rest.map((line) => (line === '' ? '' : `    ${line}`))].join('\n');
  });
}

/**
 * Cues of the timed entries, in log order: each from its entry's offset to the next timed entry's
 * start; the last to the recording's end (or {@link LAST_CUE_WITHOUT_END_MS} when unknown). A cue
 * that would not end after its start (two entries at one time) lasts {@link MIN_CUE_MS}, cut at
 * the recording's end when that still leaves it a length; an entry at or past the recording's end
 * keeps the minimum length (a cue never ends at or before its start).
 */
export function transcriptCues(log: readonly LogEntry[], recordingEndSeconds: number | null): TranscriptCue[] {
  const timed = log.filter(
    (e): e is LogEntry & { offsetSeconds: number } => e.offsetSeconds !== null && Number.isFinite(e.offsetSeconds),
  );
  const endMs =
    recordingEndSeconds !== null && Number.isFinite(recordingEndSeconds)
      ? Math.round(recordingEndSeconds * 1000)
      : null;
  return timed.map((entry, i) => {
    const startMs = Math.max(0, Math.round(entry.offsetSeconds * 1000));
    const next = timed[i + 1];
    let end = next ? Math.round(next.offsetSeconds * 1000) : (endMs ?? startMs + LAST_CUE_WITHOUT_END_MS);
    if (endMs !== null) end = Math.min(end, endMs);
    if (end <= startMs)
      end = endMs !== null && endMs > startMs ? Math.min(startMs + MIN_CUE_MS, endMs) : startMs + MIN_CUE_MS;
    return { startMs, endMs: end, role: entry.role, message: normaliseNewlines(entry.message) };
  });
}

/** `hh:mm:ss` and milliseconds of a time in whole milliseconds, joined by `separator`. */
function cueTime(ms: number, separator: ',' | '.'): string {
  const totalSeconds = Math.floor(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  return `${pad(h)}:${pad(m)}:${pad(totalSeconds % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** SubRip time, e.g. `00:01:02,345` (milliseconds in). */
export function srtTime(ms: number): string {
  return cueTime(ms, ',');
}

/** WebVTT time, e.g. `00:01:02.345` (milliseconds in). */
export function vttTime(ms: number): string {
  return cueTime(ms, '.');
}

/**
 * Cue text lines: blank lines dropped (a blank line ends a cue in both formats). SubRip has no
 * escapes, so `-->` is broken up as `-- >` (a parser would take a line holding it for a timing
 * line); `<` and `&` stay as they are.
 */
function cueLines(message: string): string[] {
  return message.split('\n').filter((line) => line.trim() !== '');
}

/** SubRip text of a message: see {@link cueLines}. */
export function srtText(message: string): string {
  return cueLines(normaliseNewlines(message))
    .map((line) => line.replace(/-->/g, '-- >'))
    .join('\n');
}

/** `&`, `<` and `>` as WebVTT character references (so `-->` cannot appear either). */
export function vttEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** SubRip (.srt): numbered cues, `Role: message`, CRLF-free `\n` line ends. */
export function toSrt(input: TranscriptExportInput): string {
  const cues = transcriptCues(input.interaction.log, input.recordingEndSeconds);
  return cues
    .map((cue, i) => {
      const text = srtText(`${speakerLabel(cue.role)}: ${cue.message}`);
      return `${String(i + 1)}\n${srtTime(cue.startMs)} --> ${srtTime(cue.endMs)}\n${text}\n`;
    })
    .join('\n');
}

/** WebVTT (.vtt): a header naming the SID, then cues `<v Role>message` with text escaped. */
export function toVtt(input: TranscriptExportInput): string {
  const cues = transcriptCues(input.interaction.log, input.recordingEndSeconds);
  const header = `WEBVTT\n\nNOTE Interaction ${vttEscape(input.interaction.sid)}\n`;
  const blocks = cues.map((cue, i) => {
    const lines = cueLines(cue.message).map(vttEscape);
    const text = `<v ${vttEscape(speakerLabel(cue.role))}>${lines.join('\n')}`;
    return `${String(i + 1)}\n${vttTime(cue.startMs)} --> ${vttTime(cue.endMs)}\n${text}\n`;
  });
  return [header, ...blocks].join('\n');
}

/** Plain text: a header (SID, workspace, start in UTC) and one `[mm:ss] Role: message` line per entry. */
export function toTxt(input: TranscriptExportInput): string {
  const { interaction } = input;
  const header = [
    `Interaction: ${interaction.sid}`,
    `Workspace: ${oneLine(input.workspaceName)}`,
    `Started: ${utcLabel(interaction.startedAtMs)}`,
  ];
  return `${[...header, '', ...transcriptLines(interaction.log)].join('\n')}\n`;
}

/**
 * JSON: the interaction's fields and its log as Voice Review parsed it. The server's own log
 * timestamps are not kept after parsing, so each entry carries its computed `offsetSeconds`
 * (seconds from the start of the call, null when unknown) instead.
 */
export function toJson(input: TranscriptExportInput): string {
  const { interaction: i } = input;
  const document = {
    sid: i.sid,
    workspace: input.workspaceName,
    fromNumber: i.fromNumber,
    toNumber: i.toNumber,
    direction: i.direction,
    type: i.type,
    status: i.status,
    agentSid: i.agentSid,
    startedAt: i.startedAtMs === null ? null : utcLabel(i.startedAtMs),
    startedAtMs: i.startedAtMs,
    endedAtMs: i.endedAtMs,
    durationSeconds: i.durationSeconds,
    recordingEndSeconds: input.recordingEndSeconds,
    variables: i.variables,
    log: i.log.map((e) => ({ index: e.index, role: e.role, message: e.message, offsetSeconds: e.offsetSeconds })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The export of `input` in `format`. */
export function exportTranscript(format: TranscriptFormat, input: TranscriptExportInput): string {
  const writers = { txt: toTxt, json: toJson, srt: toSrt, vtt: toVtt } as const;
  return writers[format](input);
}

/**
 * A file name from the SID and the start time (UTC), e.g.
 * `interaction_1b4e…a427_2025-03-04_1012.srt` (the SID in full); without a start time,
 * `<sid>.srt`.
 * `extension` is given without its dot. The SID must already be a well-formed SID (letters,
 * digits, `_` and `-`), so the name needs no further cleaning.
 */
export function defaultFileName(sid: string, startedAtMs: number | null, extension: string): string {
  if (startedAtMs === null) return `${sid}.${extension}`;
  const d = new Date(startedAtMs);
  const date = `${String(d.getUTCFullYear())}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return `${sid}_${date}_${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}.${extension}`;
}
