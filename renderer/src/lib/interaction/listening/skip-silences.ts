/**
 * Skipping silences while a call plays: the quiet stretches between speech (every lane quiet,
 * from the call's speech activity, analysis/speech-activity.ts) that last at least the length the
 * reviewer chose become jumps. A little of each edge is kept, so the breath before a word and the
 * end of the word before are still heard. All times in seconds from the start of the recording.
 *
 * Only playback that runs into a silence jumps ({@link skipCrossed}); a seek that lands inside
 * one plays from there, since the reviewer asked for that moment.
 */
import { lastIndexWhere, unionOfSpans } from '../analysis/speech-activity';
import type { TimeSpan } from '../analysis/types';

/** Silence kept before the next speech and after the last, seconds. */
export const KEEP_SECONDS = 0.3;
/** Shortest silence the reviewer can choose to skip, and the default, seconds. */
export const MIN_SKIPPED_SILENCE_SECONDS = 1;
export const DEFAULT_SKIPPED_SILENCE_SECONDS = 2;

/** One jump: when playback reaches `fromSeconds`, it goes on from `toSeconds`. */
export interface SilenceSkip {
  fromSeconds: number;
  toSeconds: number;
}

/**
 * The jumps over every silence of at least `minSilenceSeconds` (never under
 * {@link MIN_SKIPPED_SILENCE_SECONDS}) in a recording of `durationSeconds` whose lanes speak
 * during `speechByLane` (sorted, non-overlapping spans per lane; any lane speaking counts):
 * each from {@link KEEP_SECONDS} into the silence to {@link KEEP_SECONDS} before the speech after
 * it. The silence before the first speech is skipped from 0; the one after the last speech runs
 * to the end. Sorted by `fromSeconds`.
 */
export function planSilenceSkips(
  speechByLane: readonly (readonly TimeSpan[])[],
  durationSeconds: number,
  minSilenceSeconds: number,
): SilenceSkip[] {
  const min = Math.max(MIN_SKIPPED_SILENCE_SECONDS, minSilenceSeconds);
  const speech = unionOfSpans(speechByLane);
  const skips: SilenceSkip[] = [];
  let quietFrom = 0;
  for (const span of [...speech, { startSeconds: durationSeconds, endSeconds: durationSeconds }]) {
    const quietTo = Math.min(span.startSeconds, durationSeconds);
    const atStart = quietFrom === 0;
    const atEnd = quietTo >= durationSeconds;
    if (quietTo - quietFrom >= min) {
      const fromSeconds = atStart ? 0 : quietFrom + KEEP_SECONDS;
      const toSeconds = atEnd ? durationSeconds : quietTo - KEEP_SECONDS;
      if (toSeconds > fromSeconds) skips.push({ fromSeconds, toSeconds });
    }
    quietFrom = Math.max(quietFrom, span.endSeconds);
  }
  return skips;
}

/**
 * The jump to make when playback went from `previousSeconds` to `currentSeconds` (two readings
 * of the clock while playing): the skip whose start was passed on the way, or null. A seek
 * (backwards, or forwards by more than `maxStepSeconds`) passes nothing.
 * @param maxStepSeconds the longest step between two readings that is still playing, not a seek
 *   (the media element's timeupdate comes every 250 ms at most; 1 s leaves room for a slow tick)
 */
export function skipCrossed(
  skips: readonly SilenceSkip[],
  previousSeconds: number,
  currentSeconds: number,
  maxStepSeconds = 1,
): SilenceSkip | null {
  const step = currentSeconds - previousSeconds;
  if (!(step > 0) || step > maxStepSeconds) return null;
  const skip = skips[lastIndexWhere(skips.length, (i) => (skips[i]?.fromSeconds ?? Infinity) <= currentSeconds)];
  if (!skip || skip.fromSeconds < previousSeconds || currentSeconds >= skip.toSeconds) return null;
  return skip;
}
