/**
 * Which channel of a stereo recording carries the agent, inferred from the transcript.
 */
import type { RecordingPeaks } from '$shared/contract';
import type { LogEntry } from '$shared/domain';
import type { LaneRoles } from './types';

/**
 * Infers which stereo lane carries the agent by comparing each channel's energy inside the
 * agent's and the caller's entries. Mono, no peaks or unclear evidence give `kind: 'unknown'`.
 */
export function inferLaneRoles(peaks: RecordingPeaks | null, log: readonly LogEntry[]): LaneRoles {
  log;
  return {
    kind: 'unknown',
    labels: peaks?.channels.length === 2 ? ['Channel 1 (left)', 'Channel 2 (right)'] : [],
    reason: 'Not worked out yet.',
  };
}
