/**
 * Whether a call's transcript times agree with its recording. The interface leaves timestamp
 * units open, so a server may send times on another clock or scale; this is how a reviewer learns
 * that the transcript cannot be trusted to find a moment in that call.
 */
import type { RecordingPeaks } from '$shared/contract';
import type { LogEntry } from '$shared/domain';
import { formatClock, formatCount, formatDuration } from '../../format';
import { speakerKind } from './regions';
import { lastStartingBefore, speechActivity } from './speech-activity';

/** An entry this far (seconds) past the end of the recording is "beyond the end" (rounding aside). */
const BEYOND_END_TOLERANCE_SECONDS = 1;
/** The recording is "much shorter" than the call when it misses more than this share of it… */
const SHORT_RECORDING_SHARE = 0.2;
/** …and more than this many seconds. */
const SHORT_RECORDING_MIN_SECONDS = 5;
/** Speech this long before (seconds) an entry's time still counts as its start. */
const SPEECH_BEFORE_SECONDS = 0.5;
/** Speech this long after (seconds) an entry's time still counts as its start. */
const SPEECH_AFTER_SECONDS = 1;
/** Fewest spoken entries on silence, and least share (0..1) of the spoken entries, that count. */
const MIN_SILENT_STARTS = 3;
const MIN_SILENT_SHARE = 0.25;
const MISMATCH = "so the transcript's times may not match the audio.";

/**
 * One sentence when the log's times and the recording disagree, or null when they agree (or
 * without peaks there is nothing to compare). Checked in this order, the first that applies:
 * 1. a timed entry more than 1 s past the end of the recording;
 * 2. the recording is much shorter than the call (`call.durationSeconds`, from its start and end
 *    times): more than 20 % and more than 5 s shorter;
 * 3. agent and caller entries that start on silence in every channel (no speech from 0.5 s before
 *    to 1 s after their time): at least 3 of them, and at least a quarter of those entries.
 * O(peaks + entries × log(speech stretches)).
 */
export function checkTranscriptTiming(
  log: readonly LogEntry[],
  peaks: RecordingPeaks | null,
  call: { durationSeconds: number | null },
): string | null {
  if (peaks === null || !(peaks.durationSeconds > 0)) return null;
  const recording = peaks.durationSeconds;
  const timed = log.filter((e) => e.offsetSeconds !== null);
  const beyond = timed.filter((e) => (e.offsetSeconds ?? 0) > recording + BEYOND_END_TOLERANCE_SECONDS).length;
  if (beyond > 0) {
    const verb = beyond === 1 ? 'is' : 'are';
    return `${formatCount(beyond, 'transcript entry', 'transcript entries')} ${verb} timed after the recording ends (${formatClock(recording)}), ${MISMATCH}`;
  }
  const callSeconds = call.durationSeconds;
  if (callSeconds !== null && callSeconds > 0) {
    const missing = callSeconds - recording;
    if (missing > SHORT_RECORDING_MIN_SECONDS && missing > SHORT_RECORDING_SHARE * callSeconds) {
      return `The recording is ${formatDuration(recording)} long but the call lasted ${formatDuration(callSeconds)}, ${MISMATCH}`;
    }
  }
  return silentStarts(timed, peaks);
}

/** The sentence for spoken entries that start on silence in every channel, or null. */
function silentStarts(timed: readonly LogEntry[], peaks: RecordingPeaks): string | null {
  const activity = speechActivity(peaks);
  if (activity === null) return null;
  const { speech } = activity;
  const spoken = timed.filter((e) => speakerKind(e.role) !== 'event');
  const silent = spoken.filter((e) => {
    const t = e.offsetSeconds ?? 0;
    const span = speech[lastStartingBefore(speech, t + SPEECH_AFTER_SECONDS)];
    return !span || span.endSeconds < t - SPEECH_BEFORE_SECONDS;
  }).length;
  if (silent < MIN_SILENT_STARTS || silent < MIN_SILENT_SHARE * spoken.length) return null;
  return `${String(silent)} of ${formatCount(spoken.length, 'spoken entry', 'spoken entries')} start where the recording is silent, ${MISMATCH}`;
}
