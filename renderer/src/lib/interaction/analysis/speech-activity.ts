/**
 * Where there is speech in a recording, from its peaks: a loudness threshold per channel relative
 * to the recording's own level, and the stretches above it. Everything here is O(peaks).
 */
import type { RecordingPeaks } from '$shared/contract';
import type { TimeSpan } from './types';

/**
 * Fraction of the way from a channel's noise floor to its speech level above which a peak counts
 * as loud. Low enough to keep quiet syllables, high enough to stay above hiss and echo.
 */
const LOUD_FRACTION = 0.12;
/** Percentile (0..1) of a channel's peak amplitudes taken as its noise floor. */
const FLOOR_PERCENTILE = 0.1;
/** Percentile (0..1) of a channel's peak amplitudes taken as its speech level (a channel may speak 10 % of the time). */
const SPEECH_PERCENTILE = 0.99;
/**
 * A channel's speech level is at least this share of the loudest channel's, so a channel with
 * (almost) no speech does not turn its own hiss into "speech".
 */
const LEVEL_SHARE_OF_LOUDEST = 0.25;
/** No amplitude below this (of full scale) counts as loud. */
const MIN_LOUD_AMPLITUDE = 0.01;
/** Quiet stretches shorter than this (seconds) are pauses between words, not the end of speech. */
export const BRIDGE_SECONDS = 0.3;
/** Loud stretches shorter than this (seconds) are clicks, not speech. */
const MIN_SPEECH_SECONDS = 0.1;
/** Bins of the amplitude histogram used for percentiles (amplitudes are in [0, 1]). */
const HISTOGRAM_BINS = 1000;

/** Speech found in a recording's peaks. */
export interface SpeechActivity {
  /** Length of the recording, seconds. */
  durationSeconds: number;
  /** Seconds covered by one peak. */
  secondsPerPeak: number;
  /** Per channel: speech stretches in seconds, sorted and not overlapping. */
  segments: TimeSpan[][];
  /** Where any channel speaks: the union of `segments`, sorted and not overlapping. */
  speech: TimeSpan[];
  /**
   * Where no channel speaks, from 0 to `durationSeconds`: before the first speech, between
   * stretches of `speech`, and after the last (the whole recording when there is no speech).
   * Sorted; each of positive length. The turn timing's silences and the skipped silences are
   * both read from here.
   */
  silences: TimeSpan[];
}

/**
 * The speech stretches of every channel of `peaks`, or null when the peaks hold no audio (no
 * channels, no peaks or no duration). A peak is loud when its amplitude (max(|min|, |max|)) is at
 * or above the channel's threshold: noise floor (10th percentile) plus 12 % of the way to the
 * speech level (99th percentile, at least a quarter of the loudest channel's, so a silent lane
 * stays silent). Quiet gaps under {@link BRIDGE_SECONDS} are bridged; loud bits under 0.1 s dropped.
 */
export function speechActivity(peaks: RecordingPeaks | null): SpeechActivity | null {
  if (peaks === null) return null;
  // The turn timing, the timing check, lane levelling and silence skipping all read the same
  // final peaks: one pass over them serves every reader (peaks are never changed once received,
  // and no reader changes the spans it is given).
  const known = activityOf.get(peaks);
  if (known !== undefined) return known;
  const activity = measureSpeech(peaks);
  activityOf.set(peaks, activity);
  return activity;
}

/** Speech activity already worked out, by the peaks it was worked out from. */
const activityOf = new WeakMap<RecordingPeaks, SpeechActivity | null>();

/** {@link speechActivity} without the memory of earlier answers. */
function measureSpeech(peaks: RecordingPeaks): SpeechActivity | null {
  if (peaks.length <= 0 || peaks.channels.length === 0) return null;
  if (!(peaks.durationSeconds > 0)) return null;
  const secondsPerPeak = peaks.durationSeconds / peaks.length;
  const amplitudes = peaks.channels.map((channel) => amplitudesOf(channel, peaks.length));
  const levels = amplitudes.map((a) => percentiles(a, [FLOOR_PERCENTILE, SPEECH_PERCENTILE]));
  const loudest = Math.max(...levels.map(([, speech]) => speech ?? 0));
  const segments = amplitudes.map((a, c) => {
    const [floor = 0, speech = 0] = levels[c] ?? [];
    const level = Math.max(speech, LEVEL_SHARE_OF_LOUDEST * loudest);
    const threshold = Math.max(MIN_LOUD_AMPLITUDE, floor + LOUD_FRACTION * (level - floor));
    return speechSegments(a, threshold, secondsPerPeak);
  });
  const speech = unionOfSpans(segments);
  const silences = quietStretches(speech, peaks.durationSeconds);
  return { durationSeconds: peaks.durationSeconds, secondsPerPeak, segments, speech, silences };
}

/**
 * The stretches of [0, `durationSeconds`] outside `speech` (sorted, non-overlapping spans),
 * each of positive length, in order. O(spans).
 */
export function quietStretches(speech: readonly TimeSpan[], durationSeconds: number): TimeSpan[] {
  const quiet: TimeSpan[] = [];
  let from = 0;
  for (const span of [...speech, { startSeconds: durationSeconds, endSeconds: durationSeconds }]) {
    const to = Math.min(span.startSeconds, durationSeconds);
    if (to > from) quiet.push({ startSeconds: from, endSeconds: to });
    from = Math.max(from, span.endSeconds);
  }
  return quiet;
}

/**
 * The silences of `activity` between two stretches of speech (not before the first word or after
 * the last) longer than `minSeconds`.
 */
export function silencesBetweenSpeech(activity: SpeechActivity, minSeconds: number): TimeSpan[] {
  return activity.silences.filter(
    (s) => s.startSeconds > 0 && s.endSeconds < activity.durationSeconds && s.endSeconds - s.startSeconds > minSeconds,
  );
}

/** Per-peak amplitude max(|min|, |max|) of one channel, in [0, 1]. */
function amplitudesOf(channel: { min: number[]; max: number[] }, length: number): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i += 1) {
    out[i] = Math.min(1, Math.max(Math.abs(channel.min[i] ?? 0), Math.abs(channel.max[i] ?? 0)));
  }
  return out;
}

/** The values at the given percentiles (0..1) of amplitudes in [0, 1], by histogram: O(n). */
function percentiles(values: Float32Array, ranks: number[]): number[] {
  const counts = new Uint32Array(HISTOGRAM_BINS);
  for (const v of values) {
    const bin = Math.min(HISTOGRAM_BINS - 1, Math.floor(v * HISTOGRAM_BINS));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  return ranks.map((rank) => {
    const wanted = Math.max(1, Math.ceil(rank * values.length));
    let seen = 0;
    for (let bin = 0; bin < HISTOGRAM_BINS; bin += 1) {
      seen += counts[bin] ?? 0;
      if (seen >= wanted) return (bin + 1) / HISTOGRAM_BINS;
    }
    return 1;
  });
}

/** Loud runs of one channel as time spans, short pauses bridged and clicks dropped. */
function speechSegments(amplitudes: Float32Array, threshold: number, secondsPerPeak: number): TimeSpan[] {
  const runs: TimeSpan[] = [];
  let start = -1;
  for (let i = 0; i <= amplitudes.length; i += 1) {
    const loud = i < amplitudes.length && (amplitudes[i] ?? 0) >= threshold;
    if (loud && start < 0) start = i;
    if (!loud && start >= 0) {
      const span = { startSeconds: start * secondsPerPeak, endSeconds: i * secondsPerPeak };
      const last = runs.at(-1);
      if (last && span.startSeconds - last.endSeconds < BRIDGE_SECONDS) last.endSeconds = span.endSeconds;
      else runs.push(span);
      start = -1;
    }
  }
  return runs.filter((s) => s.endSeconds - s.startSeconds >= MIN_SPEECH_SECONDS);
}

/** Union of sorted, non-overlapping span lists: the stretches where any of them has speech. O(total). */
export function unionOfSpans(lists: readonly (readonly TimeSpan[])[]): TimeSpan[] {
  const all = lists.flat().sort((a, b) => a.startSeconds - b.startSeconds);
  const out: TimeSpan[] = [];
  for (const span of all) {
    const last = out.at(-1);
    if (last && span.startSeconds <= last.endSeconds) last.endSeconds = Math.max(last.endSeconds, span.endSeconds);
    else out.push({ ...span });
  }
  return out;
}

/**
 * Stretches where both sorted span lists have speech at once: intersections less than
 * `bridgeSeconds` apart are one stretch (one episode of talking over each other, with a breath in
 * it), and stretches shorter than `minSeconds` are dropped. O(a + b).
 */
export function overlapsOf(
  a: readonly TimeSpan[],
  b: readonly TimeSpan[],
  minSeconds: number,
  bridgeSeconds: number,
): TimeSpan[] {
  const out: TimeSpan[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (!x || !y) break;
    const startSeconds = Math.max(x.startSeconds, y.startSeconds);
    const endSeconds = Math.min(x.endSeconds, y.endSeconds);
    if (endSeconds > startSeconds) {
      const last = out.at(-1);
      if (last && startSeconds - last.endSeconds < bridgeSeconds) last.endSeconds = endSeconds;
      else out.push({ startSeconds, endSeconds });
    }
    if (x.endSeconds < y.endSeconds) i += 1;
    else j += 1;
  }
  return out.filter((s) => s.endSeconds - s.startSeconds >= minSeconds);
}

/**
 * The last index in [0, `length`) for which `holds` is true, or -1, where `holds` is true up to
 * some index and false from there on (a sorted list's "at or before"). Binary search: O(log n).
 */
export function lastIndexWhere(length: number, holds: (index: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Index of the last span starting before `seconds`, or -1 (spans sorted by start). */
export function lastStartingBefore(spans: readonly TimeSpan[], seconds: number): number {
  return lastIndexWhere(spans.length, (i) => (spans[i]?.startSeconds ?? Infinity) < seconds);
}
