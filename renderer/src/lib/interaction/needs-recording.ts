/**
 * Actions that need a call's recording (download it, copy a link at a playback time, play a
 * stretch) are disabled when there is none, with a tooltip that says why.
 */
import type { RecordingSource } from '$shared/domain';

/**
 * Why an action that needs the recording cannot run: null when the call has a playable
 * recording, else one sentence for the disabled control's tooltip, e.g. "No recording: The call
 * has no recording."
 */
export function needsRecordingReason(recording: RecordingSource): string | null {
  if (recording.available) return null;
  const why = recording.reason.trim();
  return why === '' ? 'This call has no recording.' : `No recording: ${why}`;
}
