/**
 * Shapes of what the Calls view works out from a call's transcript and peaks to help a
 * reviewer find a moment: role regions on the waveform, which stereo channel carries whom, turn
 * gaps, talk-over, silences and whether the transcript's times can be trusted. All times are in
 * seconds from the start of the recording.
 */

import type { SpeakerKind } from '$shared/speakers';

export type { SpeakerKind };

/**
 * One transcript entry as a stretch of the waveform: from the entry's time to the next timed
 * entry's time (the last one to the end of the recording). Entries without a time get none.
 */
export interface RoleRegion {
  /** `LogEntry.index` of the entry. */
  entryIndex: number;
  kind: SpeakerKind;
  /** The role as a person reads it ("Agent", "Caller", "Tool"…). */
  roleLabel: string;
  /** The entry's message (may be long; a hover shortens it). */
  text: string;
  startSeconds: number;
  endSeconds: number;
}

/**
 * Which lane of a stereo recording carries the agent and which the caller, inferred from each
 * channel's energy inside the agent's and the caller's transcript entries.
 * - `inferred`: the evidence is clear; `labels` are e.g. ["Agent (left)", "Caller (right)"].
 * - `unknown`: mono, no peaks, too few entries or ambiguous evidence; `labels` stay
 *   ["Channel 1 (left)", "Channel 2 (right)"] (or [] for mono) and `reason` says why.
 */
export type LaneRoles =
  | {
      kind: 'inferred';
      /** Channel index (0 = left, 1 = right) that carries the agent. */
      agentChannel: 0 | 1;
      labels: [string, string];
      /** How sure, for people: e.g. "inferred from the transcript (agent louder on the left in 9 of 10 turns)". */
      confidenceText: string;
      /** 0..1: share of the evidence that agrees. */
      confidence: number;
    }
  | { kind: 'unknown'; labels: string[]; reason: string };

/** A stretch of the recording, in seconds. */
export interface TimeSpan {
  startSeconds: number;
  endSeconds: number;
}

/**
 * The wait between the end of the caller's speech and the agent's reply, for an agent entry that
 * follows a user entry. `source` says whether the ends were found in the audio (peaks) or only
 * taken from the log's timestamps (mono without clear speech edges, or no peaks).
 */
export interface TurnGap extends TimeSpan {
  /** `LogEntry.index` of the user entry answered. */
  userEntryIndex: number;
  /** `LogEntry.index` of the agent's reply. */
  agentEntryIndex: number;
  /** endSeconds - startSeconds. */
  gapSeconds: number;
  source: 'audio' | 'log';
}

/** A moment worth a look, flagged on the waveform and beside the transcript row; N/P step through them in time order. */
export interface FlaggedMoment extends TimeSpan {
  kind: 'slow_turn' | 'talk_over' | 'silence';
  /** `LogEntry.index` of the entry the moment belongs to (the agent's reply for a slow turn), or null. */
  entryIndex: number | null;
  /** Words for people: "Slow reply: 3.2 s", "Talk-over: 1.4 s", "Silence: 6.0 s". */
  label: string;
}

/** Everything worked out about a call's turn timing. */
export interface TurnTiming {
  gaps: TurnGap[];
  /** Stereo only: both channels loud at once. */
  talkOver: TimeSpan[];
  /** Every channel quiet for longer than the silence threshold. */
  silences: TimeSpan[];
  /** Gaps over the threshold, talk-over and long silences, sorted by startSeconds. */
  flagged: FlaggedMoment[];
  summary: {
    medianGapSeconds: number | null;
    p90GapSeconds: number | null;
    longestGap: TurnGap | null;
    talkOverCount: number;
    longestSilence: TimeSpan | null;
  };
  /** 'audio' when speech edges came from the peaks, 'log' when only from timestamps. */
  basis: 'audio' | 'log';
  /** One sentence for people when the basis is 'log' (why the audio could not say), else null. */
  basisNote: string | null;
}

/** Thresholds for {@link TurnTiming}, in seconds. */
export interface TurnTimingOptions {
  /** A reply slower than this is flagged (the user's setting; default 1.5 s). */
  slowGapSeconds: number;
  /** A silence longer than this is flagged. */
  silenceSeconds: number;
}
