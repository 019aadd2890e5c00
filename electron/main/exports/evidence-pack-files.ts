/**
 * The evidence pack as files: from the call's transcript, its review record, the decoded audio of
 * the range and the renderer's request, the list of files the pack folder holds, and the writer
 * that puts them into a new folder (each file written atomically, 0600: call data is personal).
 *
 *     clip.wav            the range's audio, PII turns silenced or bleeped (when the audio decodes)
 *     ticket.md           the "Copy for ticket" block
 *     excerpt.txt         the range's transcript, PII masked
 *     link.txt            the voice-review:// link at the range's start
 *     timing.txt          the timing facts of the range (when the renderer had them)
 *     README.txt          what each file is, and how the audio was (or could not be) redacted
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { formatInteractionLink } from '$shared/deep-link';
import type { LogEntry } from '$shared/domain';
import type { EvidencePackRequest } from '$shared/evidence-pack-request';
import {
  audioRedactionNote,
  entriesInRange,
  packExcerptText,
  spanLabel,
  ticketMarkdown,
  timingFactsText,
} from '$shared/evidence-pack';

export { entriesInRange };
import type { RedactionSettings } from '$shared/redaction';
import type { ReviewRecord } from '$shared/reviews';
import { writeAtomically } from './atomic-write';
import { piiAudioSpans } from './clip-spans';
import { DEFAULT_MASK_MARGIN_SECONDS, makeClip, type DecodedAudio } from './clip-wav';

/** What a pack is made from. */
export interface EvidencePackSource {
  /** Parsed by `evidencePackRequestSchema`. */
  request: EvidencePackRequest;
  workspaceName: string;
  /** The interaction's whole log, in order (spec 2 "Log entry fields"). */
  log: readonly LogEntry[];
  /** Where the recording ends, in seconds; null when unknown. */
  recordingEndSeconds: number | null;
  /** The decoded audio covering the range (clip-decode.ts), or null when there is none. */
  audio: DecodedAudio | null;
  /** Why there is no audio, in words, when `audio` is null (e.g. "This call has no recording."). */
  audioProblem: string | null;
  /** The call's review record, or null when it has none. */
  record: ReviewRecord | null;
  /** The PII rules of Settings (used when the request asks to redact). */
  redaction: RedactionSettings;
}

/** One file of the pack. */
export interface PackFile {
  name: string;
  content: string | Uint8Array;
}

/** A pack ready to write. */
export interface EvidencePack {
  /** Suggested folder name: `<sid>_<mm-ss>-<mm-ss>`. */
  folderName: string;
  files: PackFile[];
}

/**
 * Builds the pack's files (see the module comment).
 * @throws RangeError when the SID or workspace name cannot travel in a link (deep-link.ts)
 */
export function buildEvidencePack(source: EvidencePackSource): EvidencePack {
  const { request, record } = source;
  const redaction = request.redact ? source.redaction : null;
  const entries = entriesInRange(source.log, request.range, source.recordingEndSeconds);
  const link = formatInteractionLink(request.sid, request.range.startSeconds, source.workspaceName);
  const files: PackFile[] = [];
  let audioNote: string;
  if (source.audio) {
    const masks =
      redaction === null
        ? null
        : piiAudioSpans(source.log, redaction, source.recordingEndSeconds, request.range.endSeconds);
    const clip = makeClip(source.audio, {
      range: request.range,
      maskSpans: masks?.spans ?? [],
      marginSeconds: DEFAULT_MASK_MARGIN_SECONDS,
      mask: request.mask,
    });
    files.push({ name: 'clip.wav', content: clip.wav });
    audioNote =
      masks === null
        ? 'Audio redaction\nThe audio was not redacted: the pack was made with redaction off.\n'
        : audioRedactionNote(clip.maskedSpans, {
            clipStartSeconds: clip.startSeconds,
            marginSeconds: DEFAULT_MASK_MARGIN_SECONDS,
            mask: request.mask,
            untimedEntries: masks.untimed.length,
          });
  } else {
    audioNote = `Audio\nNo audio clip: ${source.audioProblem ?? 'the recording could not be read.'}\n`;
  }
  files.push({
    name: 'ticket.md',
    content: ticketMarkdown({
      sid: request.sid,
      workspaceName: source.workspaceName,
      range: request.range,
      entries,
      flagged: request.flagged,
      verdict: record?.verdict ?? 'none',
      scorePercent: record?.scorePercent ?? null,
      tags: record?.tags ?? [],
      ticket: record?.ticket ?? null,
      notes: record?.notes ?? [],
      redaction,
    }),
  });
  files.push({
    name: 'excerpt.txt',
    content: packExcerptText({ sid: request.sid, workspaceName: source.workspaceName, entries, redaction }),
  });
  files.push({ name: 'link.txt', content: `${link}\n` });
  if (request.timing)
    files.push({ name: 'timing.txt', content: timingFactsText({ range: request.range, ...request.timing }) });
  files.push({ name: 'README.txt', content: readme(source, files, audioNote) });
  return { folderName: `${request.sid}_${spanLabel(request.range).replace(/:/g, '-')}`, files };
}

function readme(source: EvidencePackSource, files: readonly PackFile[], audioNote: string): string {
  const what: Record<string, string> = {
    'clip.wav': 'the audio of the range (WAV, 16-bit PCM)',
    'ticket.md': 'the Markdown block for a ticket: link, verdict, flagged moments, notes and excerpt',
    'excerpt.txt': 'the transcript of the range',
    'link.txt': 'the voice-review:// link at the start of the range',
    'timing.txt': 'replies, gaps, talk-over and silences in the range',
  };
  const masked = source.request.redact
    ? 'Personal data in the text is masked.'
    : 'Redaction was off: the text is as spoken.';
  return [
    `Voice Review evidence pack: ${source.request.sid}, ${spanLabel(source.request.range)}, workspace ${source.workspaceName}`,
    masked,
    '',
    ...files.map((f) => `${f.name}: ${what[f.name] ?? ''}`),
    '',
    audioNote,
  ].join('\n');
}

/**
 * Writes `pack` into a new folder `dir` (created with mode 0700; it must not exist yet, so an
 * earlier pack is never overwritten), each file atomically with mode 0600.
 * @returns the paths written
 * @throws Error from the file system: EEXIST when `dir` exists, permissions, disk full
 */
export async function writeEvidencePack(dir: string, pack: EvidencePack): Promise<string[]> {
  await mkdir(dir, { mode: 0o700 });
  const written: string[] = [];
  for (const file of pack.files) {
    const path = join(dir, file.name);
    const source =
      typeof file.content === 'string'
        ? file.content
        : new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(file.content as Uint8Array);
              controller.close();
            },
          });
    await writeAtomically(path, source, { mode: 0o600 });
    written.push(path);
  }
  return written;
}
