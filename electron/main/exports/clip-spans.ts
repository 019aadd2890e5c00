/**
 * Which stretches of a clip's audio to mask, from the transcript: the log gives a time per entry
 * (a turn), not per word, so an entry whose text holds PII has its whole speech masked, from its
 * time to the next timed entry's time (the last one to the end of the recording). The clip then
 * widens each span by a margin (clip-wav.ts). This errs wide on purpose, and the pack says so
 * (shared/evidence-pack.ts `audioRedactionNote`).
 */
import type { LogEntry } from '$shared/domain';
import { findPii, type RedactionSettings } from '$shared/redaction';
import type { TimeSpan } from './clip-wav';

/** A masked entry's stretch of audio, and which entry it is. */
export interface EntryAudioSpan extends TimeSpan {
  /** `LogEntry.index` of the entry. */
  entryIndex: number;
}

/**
 * The audio spans of the entries whose message holds PII under `settings`.
 * An entry without a time cannot be placed: it is skipped here, and listed in `untimed` so the
 * pack can say its audio may be heard.
 * @param log the interaction's log, in order
 * @param recordingEndSeconds where the recording ends (the last entry's span ends there); null
 *   when unknown, then the last entry runs to `fallbackEndSeconds`
 * @param fallbackEndSeconds end for the last entry when the recording's end is unknown (the clip's end)
 */
export function piiAudioSpans(
  log: readonly LogEntry[],
  settings: RedactionSettings,
  recordingEndSeconds: number | null,
  fallbackEndSeconds: number,
): { spans: EntryAudioSpan[]; untimed: number[] } {
  const spans: EntryAudioSpan[] = [];
  const untimed: number[] = [];
  const timed = log.filter((e) => e.offsetSeconds !== null && Number.isFinite(e.offsetSeconds));
  const end = recordingEndSeconds ?? fallbackEndSeconds;
  for (const entry of log) {
    if (findPii(entry.message, settings).length === 0) continue;
    if (entry.offsetSeconds === null || !Number.isFinite(entry.offsetSeconds)) {
      untimed.push(entry.index);
      continue;
    }
    const start = entry.offsetSeconds;
    const next = timed.find((e) => (e.offsetSeconds ?? -Infinity) > start);
    spans.push({
      entryIndex: entry.index,
      startSeconds: start,
      endSeconds: Math.max(start, next?.offsetSeconds ?? end),
    });
  }
  return { spans, untimed };
}
