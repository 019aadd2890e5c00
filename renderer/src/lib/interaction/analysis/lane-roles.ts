/**
 * Which channel of a stereo recording carries the agent, inferred from the transcript: in the
 * agent's turns the agent's channel is the louder one, in the caller's turns the other.
 */
import type { RecordingPeaks } from '$shared/contract';
import type { LogEntry } from '$shared/domain';
import { buildRoleRegions } from './regions';
import type { LaneRoles, RoleRegion } from './types';

/** Lane labels when nobody can say who is on which channel. */
export const CHANNEL_LABELS: [string, string] = ['Channel 1 (left)', 'Channel 2 (right)'];
/**
 * A turn votes only when one channel is clearly louder: (louder - quieter) / (sum) at least this
 * (0.2 = the louder channel has 1.5 times the other's mean amplitude).
 */
const DECISIVE_CONTRAST = 0.2;
/** Fewest voting turns (agent and caller together, at least one of each) for a verdict. */
const MIN_VOTING_TURNS = 4;
/** Least share (0..1) of voting turns that must agree. */
const MIN_AGREEMENT = 0.8;
/** Least mean contrast of the agreeing turns: the margin must be large, not just consistent. */
const MIN_MEAN_CONTRAST = 0.35;
/** Agreement at or above which the labels say "very likely" rather than "likely". */
const VERY_LIKELY_AGREEMENT = 0.95;
const SIDE = ['left', 'right'] as const;

/**
 * Decides which lane of a stereo recording carries the agent. Each timed agent or caller entry
 * (see `speakerKind`) is a turn spanning its role region; a turn votes "agent on the left" when
 * the left channel's mean amplitude there is clearly higher (an agent turn) or clearly lower (a
 * caller turn), and "agent on the right" the other way round. The verdict is `inferred` when at
 * least 4 turns vote (agent and caller both among them), 80 % or more agree and their mean
 * contrast is at least 0.35; `confidence` is the share that agrees. Otherwise `unknown`, with
 * the reason: mono (no labels), no peaks, more than two channels, too few turns, or ambiguous.
 * O(peaks + entries).
 */
export function inferLaneRoles(peaks: RecordingPeaks | null, log: readonly LogEntry[]): LaneRoles {
  if (peaks === null || peaks.length <= 0 || peaks.channels.length === 0) {
    return unknown(CHANNEL_LABELS, 'There is no waveform yet, so the lanes cannot be told apart.');
  }
  if (peaks.channels.length === 1) return unknown([], 'The recording has one channel.');
  if (peaks.channels.length > 2) {
    const labels = peaks.channels.map((_, c) => `Channel ${String(c + 1)}`);
    return unknown(labels, 'Only two-channel recordings are matched to the agent and the caller.');
  }
  const votes = turnVotes(peaks, buildRoleRegions(log, peaks.durationSeconds));
  const agentTurns = votes.filter((v) => v.kind === 'agent').length;
  if (votes.length < MIN_VOTING_TURNS || agentTurns === 0 || agentTurns === votes.length) {
    return unknown(
      CHANNEL_LABELS,
      'Too few agent and caller turns are clearly louder on one channel to tell the lanes apart.',
    );
  }
  const left = votes.filter((v) => v.agentChannel === 0);
  const winners = left.length * 2 >= votes.length ? left : votes.filter((v) => v.agentChannel === 1);
  const agreement = winners.length / votes.length;
  const meanContrast = winners.reduce((sum, v) => sum + v.contrast, 0) / winners.length;
  const tally = `${String(winners.length)} of ${String(votes.length)} turns`;
  if (agreement < MIN_AGREEMENT || meanContrast < MIN_MEAN_CONTRAST) {
    return unknown(
      CHANNEL_LABELS,
      `The channels' loudness does not clearly follow the agent's and the caller's turns (${tally} agree).`,
    );
  }
  const agentChannel = winners === left ? 0 : 1;
  const agentSide = SIDE[agentChannel];
  const labels: [string, string] =
    agentChannel === 0 ? ['Agent (left)', 'Caller (right)'] : ['Caller (left)', 'Agent (right)'];
  const sureness = agreement >= VERY_LIKELY_AGREEMENT ? 'Very likely' : 'Likely';
  return {
    kind: 'inferred',
    agentChannel,
    labels,
    confidence: agreement,
    confidenceText: `${sureness}, inferred from the transcript: the ${agentSide} channel is louder in the agent's turns and quieter in the caller's (${tally} agree).`,
  };
}

function unknown(labels: string[], reason: string): LaneRoles {
  return { kind: 'unknown', labels: [...labels], reason };
}

/** One turn's vote: which channel it says carries the agent, and how clearly (0..1). */
interface Vote {
  kind: 'agent' | 'user';
  agentChannel: 0 | 1;
  contrast: number;
}

/** The votes of the agent and caller regions whose channels differ clearly. Prefix sums: O(peaks + regions). */
function turnVotes(peaks: RecordingPeaks, regions: readonly RoleRegion[]): Vote[] {
  const [left, right] = peaks.channels.map((ch) => prefixAmplitudes(ch, peaks.length));
  if (!left || !right) return [];
  const peaksPerSecond = peaks.length / peaks.durationSeconds;
  const votes: Vote[] = [];
  for (const region of regions) {
    if (region.kind === 'event') continue;
    const from = Math.max(0, Math.floor(region.startSeconds * peaksPerSecond));
    const to = Math.min(peaks.length, Math.ceil(region.endSeconds * peaksPerSecond));
    if (to <= from) continue;
    const l = (left[to] ?? 0) - (left[from] ?? 0);
    const r = (right[to] ?? 0) - (right[from] ?? 0);
    if (l + r <= 0) continue;
    const contrast = Math.abs(l - r) / (l + r);
    if (contrast < DECISIVE_CONTRAST) continue;
    const louder: 0 | 1 = l > r ? 0 : 1;
    const agentChannel = region.kind === 'agent' ? louder : louder === 0 ? 1 : 0;
    votes.push({ kind: region.kind, agentChannel, contrast });
  }
  return votes;
}

/** Running sums of max(|min|, |max|): entry i is the sum over peaks [0, i). */
function prefixAmplitudes(channel: { min: number[]; max: number[] }, length: number): Float64Array {
  const sums = new Float64Array(length + 1);
  for (let i = 0; i < length; i += 1) {
    const a = Math.max(Math.abs(channel.min[i] ?? 0), Math.abs(channel.max[i] ?? 0));
    sums[i + 1] = (sums[i] ?? 0) + a;
  }
  return sums;
}
