/**
 * Response gaps, talk-over and silences of a call, from its peaks, or from its log's timestamps
 * when the audio cannot say.
 */
import type { RecordingPeaks } from '$shared/contract';
import type { LogEntry } from '$shared/domain';
import { formatSeconds } from '../../format';
import { speakerKind } from './regions';
import {
  lastIndexWhere,
  lastStartingBefore,
  overlapsOf,
  silencesBetweenSpeech,
  speechActivity,
  type SpeechActivity,
} from './speech-activity';
import type { FlaggedMoment, LaneRoles, TimeSpan, TurnGap, TurnTiming, TurnTimingOptions } from './types';

/** Default thresholds: replies slower than 1.5 s and silences longer than 4 s are flagged. */
export const DEFAULT_TURN_TIMING: TurnTimingOptions = { slowGapSeconds: 1.5, silenceSeconds: 4 };

/** Both channels loud at once for at least this long (seconds) is talk-over. */
const TALK_OVER_MIN_SECONDS = 0.3;
/** Moments of talk-over less than this far apart (seconds) are one episode. */
const TALK_OVER_BRIDGE_SECONDS = 1;
/**
 * How early (seconds) the agent's speech may begin before its entry's time and still count as
 * that entry's start (a log stamps a turn a little late or early).
 */
const START_TOLERANCE_SECONDS = 0.3;
/** Speaking rate assumed for the caller when only the log's times are known: 150 words a minute. */
const WORDS_PER_SECOND = 2.5;

/** A timed agent entry directly after a timed user entry, and the time of the next timed entry after it. */
interface ReplyPair {
  user: LogEntry;
  agent: LogEntry;
  /** Seconds; the end of the recording (or Infinity) when none follows. */
  nextTime: number;
}

/** Every {@link ReplyPair} of the log, in one backward pass: O(entries). */
function replyPairs(log: readonly LogEntry[], end: number): ReplyPair[] {
  const pairs: ReplyPair[] = [];
  let nextTime = end;
  for (let i = log.length - 1; i >= 1; i -= 1) {
    const agent = log[i];
    const user = log[i - 1];
    if (!agent || !user) continue;
    if (user.offsetSeconds !== null && agent.offsetSeconds !== null) {
      if (speakerKind(user.role) === 'user' && speakerKind(agent.role) === 'agent') {
        pairs.push({ user, agent, nextTime });
      }
    }
    if (agent.offsetSeconds !== null) nextTime = agent.offsetSeconds;
  }
  return pairs.reverse();
}

/**
 * The gap of one reply from the log's times only: the caller is assumed to speak for their
 * message's word count at {@link WORDS_PER_SECOND} (never past the agent's time), and the gap runs
 * from there to the agent entry's time.
 */
function logGap(user: LogEntry, agent: LogEntry): TurnGap {
  const userTime = user.offsetSeconds ?? 0;
  const agentTime = Math.max(userTime, agent.offsetSeconds ?? 0);
  const words = user.message.split(/\s+/).filter(Boolean).length;
  const startSeconds = Math.min(agentTime, userTime + words / WORDS_PER_SECOND);
  return gap(user, agent, startSeconds, agentTime, 'log');
}

function gap(
  user: LogEntry,
  agent: LogEntry,
  startSeconds: number,
  endSeconds: number,
  source: 'audio' | 'log',
): TurnGap {
  return {
    userEntryIndex: user.index,
    agentEntryIndex: agent.index,
    startSeconds,
    endSeconds,
    gapSeconds: endSeconds - startSeconds,
    source,
  };
}

/** Speech spans of the agent and of the caller: their own channels when known, else all channels together. */
function roleSpans(activity: SpeechActivity, laneRoles: LaneRoles): { agent: TimeSpan[]; user: TimeSpan[] } {
  const { segments } = activity;
  if (laneRoles.kind === 'inferred' && segments.length === 2) {
    const agent = segments[laneRoles.agentChannel] ?? [];
    const user = segments[laneRoles.agentChannel === 0 ? 1 : 0] ?? [];
    return { agent, user };
  }
  const all = activity.speech;
  return { agent: all, user: all };
}

/**
 * The gap of one reply from the audio, or null when the speech edges are not found: the agent's
 * speech starts at the first speech span on the agent's spans beginning at or after the entry's
 * time (less {@link START_TOLERANCE_SECONDS}) and before `nextTime`, or at the entry's time when
 * the agent's channel is already speaking there (on a track shared by both, that is one unbroken
 * stretch of sound: no edge, null); the caller's speech ends at the end of the last span on
 * the caller's spans that starts before the agent's speech and ends after the user entry's time.
 * When the caller is still speaking as the agent starts, the gap is 0 at the agent's start.
 */
function audioGap(
  user: LogEntry,
  agent: LogEntry,
  nextTime: number,
  spans: { agent: TimeSpan[]; user: TimeSpan[] },
): TurnGap | null {
  const agentTime = agent.offsetSeconds ?? 0;
  const userTime = user.offsetSeconds ?? 0;
  const earliest = agentTime - START_TOLERANCE_SECONDS;
  const before = lastStartingBefore(spans.agent, earliest);
  const running = spans.agent[before];
  let agentStart: number;
  if (running && running.endSeconds > agentTime) {
    // One unbroken stretch of sound on a shared track: no edge between caller and agent to find.
    if (spans.agent === spans.user) return null;
    agentStart = agentTime;
  } else {
    const next = spans.agent[before + 1];
    if (!next || next.startSeconds >= nextTime) return null;
    agentStart = next.startSeconds;
  }
  const userSpan = spans.user[lastStartingBefore(spans.user, agentStart)];
  if (!userSpan || userSpan.endSeconds <= userTime) return null;
  const userEnd = Math.min(userSpan.endSeconds, agentStart);
  return gap(user, agent, userEnd, agentStart, 'audio');
}

/** `values` at rank `p` (0..1), nearest-rank; null when empty. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? null;
}

function longest<T extends TimeSpan>(spans: readonly T[]): T | null {
  let best: T | null = null;
  for (const s of spans) {
    if (!best || s.endSeconds - s.startSeconds > best.endSeconds - best.startSeconds) best = s;
  }
  return best;
}

/** The entry spoken at `seconds`: the last timed entry at or before it (binary search), or null. */
function entryAt(timed: readonly LogEntry[], seconds: number): number | null {
  const found = lastIndexWhere(timed.length, (i) => (timed[i]?.offsetSeconds ?? Infinity) <= seconds);
  return timed[found]?.index ?? null;
}

/**
 * The flagged moments, by start time: every reply slower than `slowGapSeconds`, every talk-over,
 * and every long silence that is not already a flagged slow reply (overlapping one).
 */
function flagMoments(
  log: readonly LogEntry[],
  timing: Pick<TurnTiming, 'gaps' | 'talkOver' | 'silences'>,
  slowGapSeconds: number,
): FlaggedMoment[] {
  const timed = log.filter((e) => e.offsetSeconds !== null);
  const slow = timing.gaps.filter((g) => g.gapSeconds > slowGapSeconds);
  const flags: FlaggedMoment[] = slow.map((g) => ({
    kind: 'slow_turn',
    startSeconds: g.startSeconds,
    endSeconds: g.endSeconds,
    entryIndex: g.agentEntryIndex,
    label: `Slow reply: ${formatSeconds(g.gapSeconds)}`,
  }));
  for (const span of timing.talkOver) {
    const label = `Talk-over: ${formatSeconds(span.endSeconds - span.startSeconds)}`;
    flags.push({ kind: 'talk_over', ...span, entryIndex: entryAt(timed, span.startSeconds), label });
  }
  for (const span of timing.silences) {
    const isSlowReply = slow.some((g) => g.startSeconds < span.endSeconds && span.startSeconds < g.endSeconds);
    if (isSlowReply) continue;
    const label = `Silence: ${formatSeconds(span.endSeconds - span.startSeconds)}`;
    flags.push({ kind: 'silence', ...span, entryIndex: entryAt(timed, span.startSeconds), label });
  }
  return flags.sort((a, b) => a.startSeconds - b.startSeconds);
}

/** Why the audio could not give the gaps, for people; null when it did. */
function basisNoteFor(activity: SpeechActivity | null, audioGaps: number, allGaps: number): string | null {
  if (activity === null) {
    return 'There is no waveform for this call, so reply gaps are estimated from the transcript times (assuming the caller speaks about 150 words a minute).';
  }
  if (activity.segments.every((s) => s.length === 0)) {
    return 'No speech was found in the recording, so reply gaps are estimated from the transcript times.';
  }
  if (allGaps > 0 && audioGaps * 2 < allGaps) {
    return 'The recording shows no clear pauses between the caller and the agent, so reply gaps are estimated from the transcript times.';
  }
  return null;
}

/**
 * Works out a call's turn timing.
 * - Gaps: for every timed agent entry directly after a timed user entry, the wait from the end of
 *   the caller's speech to the start of the agent's, found in the peaks (see `speechActivity` for
 *   "speech"; on a stereo recording whose lanes are inferred, the caller's and the agent's own
 *   channels, otherwise all channels together). A reply whose edges are not found falls back to
 *   the log: the caller speaks for their word count at 150 words a minute, the gap runs to the
 *   agent entry's time (`source: 'log'`).
 * - Talk-over (two channels only): both channels speaking at once for at least 0.3 s (moments
 *   less than 1 s apart are one episode).
 * - Silences: every channel quiet for longer than `silenceSeconds`, between the first and the last
 *   speech (quiet before the first word and after the last is ringing and hanging up, ignored).
 * - `basis` is 'log' (with a `basisNote`) when there are no peaks, no speech in them, or fewer
 *   than half the gaps were found in the audio.
 * O(peaks + entries) apart from sorting the gaps and the speech spans.
 */
export function analyseTurnTiming(
  log: readonly LogEntry[],
  peaks: RecordingPeaks | null,
  laneRoles: LaneRoles,
  options: TurnTimingOptions,
): TurnTiming {
  const activity = speechActivity(peaks);
  const spans = activity ? roleSpans(activity, laneRoles) : null;
  const gaps = replyPairs(log, activity?.durationSeconds ?? Infinity).map(
    ({ user, agent, nextTime }) => (spans && audioGap(user, agent, nextTime, spans)) ?? logGap(user, agent),
  );
  const audioGaps = gaps.filter((g) => g.source === 'audio').length;
  const segments = activity?.segments ?? [];
  const [first, second] = segments;
  const talkOver =
    segments.length === 2 && first && second
      ? overlapsOf(first, second, TALK_OVER_MIN_SECONDS, TALK_OVER_BRIDGE_SECONDS)
      : [];
  const silences = activity ? silencesBetweenSpeech(activity, options.silenceSeconds) : [];
  const basisNote = basisNoteFor(activity, audioGaps, gaps.length);
  const sorted = gaps.map((g) => g.gapSeconds).sort((a, b) => a - b);
  return {
    gaps,
    talkOver,
    silences,
    flagged: flagMoments(log, { gaps, talkOver, silences }, options.slowGapSeconds),
    summary: {
      medianGapSeconds: percentile(sorted, 0.5),
      p90GapSeconds: percentile(sorted, 0.9),
      longestGap: longest(gaps),
      talkOverCount: talkOver.length,
      longestSilence: longest(silences),
    },
    basis: basisNote === null ? 'audio' : 'log',
    basisNote,
  };
}
