/**
 * Words for the lanes of a stereo recording: their labels, what the tooltip and the legend say
 * about how they were decided, and the sentence for screen readers. The lanes are named by party
 * only when the Calls view inferred them from the transcript (analysis/lane-roles.ts);
 * otherwise by channel.
 */
import type { LaneRoles } from '../analysis/types';
import { STEREO_LANE_LABELS } from './peaks';

/** What the player says about its two lanes. */
export interface LaneText {
  /** Left lane's label, then the right's. */
  labels: readonly [string, string];
  /** Tooltip of the labels: how sure the inference is, or why there is none; null when nothing is known. */
  note: string | null;
  /** Line for the legend when the lanes were inferred, e.g. "Lanes: Agent (left), Caller (right). Inferred from…"; else null. */
  legend: string | null;
  /** For screen readers. */
  sentence: string;
}

/**
 * The {@link LaneText} for `laneRoles` (null: not worked out). Labels that are not exactly two
 * fall back to the channel names.
 */
export function laneText(laneRoles: LaneRoles | null): LaneText {
  const [left, right, ...more] = laneRoles?.labels ?? [];
  const labels: readonly [string, string] =
    left?.trim() && right?.trim() && more.length === 0 ? [left, right] : STEREO_LANE_LABELS;
  const inferred = laneRoles?.kind === 'inferred' ? laneRoles.confidenceText : null;
  const shown = `Stereo recording: the waveform shows ${labels.join(' and ')} in two lanes`;
  return {
    labels,
    note: inferred ?? (laneRoles?.kind === 'unknown' ? laneRoles.reason : null),
    legend: inferred ? `Lanes: ${labels.join(', ')}. ${capitalised(inferred)}` : null,
    sentence: inferred ? `${shown}, ${inferred}.` : `${shown}.`,
  };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
