/**
 * Whether a call's transcript times agree with its recording.
 */
import type { RecordingPeaks } from '$shared/contract';
import type { LogEntry } from '$shared/domain';

/** One sentence when the log's times and the audio disagree, or null when they agree. */
export function checkTranscriptTiming(
  log: readonly LogEntry[],
  peaks: RecordingPeaks | null,
  call: { durationSeconds: number | null },
): string | null {
  log;
  peaks;
  call;
  return null;
}
