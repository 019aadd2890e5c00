/**
 * Notes as the call view draws them: marks on the waveform (a moment or a range, labelled with
 * the note's text) and badges beside the transcript entry that holds their start. Times are
 * seconds from the start of the recording.
 */
import type { LogEntry } from '$shared/domain';
import { formatClock } from '../format';

/** A note as a mark: where it is pinned and the words shown for it. */
export interface NoteMark {
  /** The note's id, or a draft's key before it is saved. */
  id: string;
  startSeconds: number;
  /** End of a range; null for a note at one moment. */
  endSeconds: number | null;
  /** "Note at 01:05: text" (the text cut to {@link LABEL_CHARS} characters). */
  label: string;
}

/** Characters of a note's text kept in its label. */
const LABEL_CHARS = 80;

/** The label of a note: where it is and the start of its text. */
export function noteLabel(startSeconds: number, endSeconds: number | null, text: string): string {
  const at =
    endSeconds === null ? formatClock(startSeconds) : `${formatClock(startSeconds)}–${formatClock(endSeconds)}`;
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const cut = oneLine.length > LABEL_CHARS ? `${oneLine.slice(0, LABEL_CHARS - 1)}…` : oneLine;
  return cut === '' ? `Note at ${at}` : `Note at ${at}: ${cut}`;
}

/**
 * The notes by the `LogEntry.index` of the entry that holds their start: the last timed entry
 * starting at or before it (the first timed entry for a note before any). Notes of a transcript
 * without times are not placed.
 */
export function notesByEntry(log: readonly LogEntry[], notes: readonly NoteMark[]): Map<number, NoteMark[]> {
  const timed = log
    .filter((e) => e.offsetSeconds !== null && Number.isFinite(e.offsetSeconds))
    .sort((a, b) => (a.offsetSeconds ?? 0) - (b.offsetSeconds ?? 0));
  const byEntry = new Map<number, NoteMark[]>();
  if (timed.length === 0) return byEntry;
  for (const note of [...notes].sort((a, b) => a.startSeconds - b.startSeconds)) {
    let holder = timed[0];
    for (const entry of timed) {
      if ((entry.offsetSeconds ?? 0) <= note.startSeconds) holder = entry;
      else break;
    }
    if (!holder) continue;
    const list = byEntry.get(holder.index) ?? [];
    list.push(note);
    byEntry.set(holder.index, list);
  }
  return byEntry;
}
