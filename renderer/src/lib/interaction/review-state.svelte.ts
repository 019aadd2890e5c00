/**
 * What the Calls view works out about the call it shows, as reactive state: role regions,
 * which stereo lane carries whom, turn gaps with their flagged moments, and whether the
 * transcript's times can be trusted. Everything is derived, so it is worked out again only when
 * the transcript, the peaks or the slow-reply threshold change (not on every playback tick).
 */
import type { RecordingPeaks } from '$shared/contract';
import type { LogEntry } from '$shared/domain';
import { inferLaneRoles } from './analysis/lane-roles';
import { buildRoleRegions } from './analysis/regions';
import { checkTranscriptTiming } from './analysis/timing-check';
import { analyseTurnTiming, DEFAULT_TURN_TIMING } from './analysis/turn-timing';
import { flagsByEntry } from './flagged-moments';
import type { FlaggedMoment, LaneRoles, RoleRegion, TurnTiming } from './analysis/types';
import { loadSlowReplySeconds, parseSlowReplySeconds, saveSlowReplySeconds } from './timing-settings';

/** What the analysis is worked out from. */
export interface CallAnalysisInput {
  log: readonly LogEntry[];
  /** The complete peaks, or null while they are computed (partial peaks are not analysed) or failed. */
  peaks: RecordingPeaks | null;
  /** Length of the call from its metadata (`ended_at - started_at`), in seconds, or null. */
  durationSeconds: number | null;
}

/** The analysis of one call: create it in a component with a getter for its current input. */
export class CallAnalysis {
  /** Replies slower than this are flagged, in seconds (the reviewer's setting, kept across runs). */
  slowGapSeconds = $state(loadSlowReplySeconds());

  readonly #input: () => CallAnalysisInput;

  /** Length the regions are laid over: the decoded recording's, else the call's, else the last entry's time. */
  readonly lengthSeconds: number = $derived.by(() => {
    const { peaks, durationSeconds, log } = this.#input();
    if (peaks) return peaks.durationSeconds;
    if (durationSeconds !== null && durationSeconds > 0) return durationSeconds;
    return log.reduce((end, e) => Math.max(end, e.offsetSeconds ?? 0), 0);
  });
  /** Each timed entry as a stretch of the waveform. */
  readonly regions: RoleRegion[] = $derived.by(() => buildRoleRegions(this.#input().log, this.lengthSeconds));
  /** Which lane carries the agent (stereo, complete peaks only). */
  readonly laneRoles: LaneRoles = $derived.by(() => inferLaneRoles(this.#input().peaks, this.#input().log));
  /** Turn gaps, talk-over, silences and the flagged moments, with the reviewer's threshold. */
  readonly timing: TurnTiming = $derived.by(() =>
    analyseTurnTiming(this.#input().log, this.#input().peaks, this.laneRoles, {
      ...DEFAULT_TURN_TIMING,
      slowGapSeconds: this.slowGapSeconds,
    }),
  );
  /** One sentence when the transcript's times and the recording disagree, else null. */
  readonly timingCheck: string | null = $derived.by(() => {
    const { log, peaks, durationSeconds } = this.#input();
    return checkTranscriptTiming(log, peaks, { durationSeconds });
  });
  /** Flagged moments by `LogEntry.index`, for the transcript rows' badges. */
  readonly flagsByEntry: Map<number, FlaggedMoment[]> = $derived.by(() => flagsByEntry(this.timing.flagged));

  /** @param input returns what to analyse (read reactively) */
  constructor(input: () => CallAnalysisInput) {
    this.#input = input;
  }

  /**
   * Sets the slow-reply threshold and stores it for later runs.
   * @returns false (nothing changes) when `seconds` is out of range or off the 0.5 s grid
   */
  setSlowGapSeconds(seconds: number): boolean {
    if (parseSlowReplySeconds(seconds) === null) return false;
    this.slowGapSeconds = seconds;
    // Where storage refuses, the setting still holds for this call.
    saveSlowReplySeconds(seconds);
    return true;
  }
}
