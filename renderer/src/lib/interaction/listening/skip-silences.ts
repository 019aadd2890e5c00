/**
 * Skipping silences while a call plays: the quiet stretches between speech (every lane quiet,
 * from the call's speech activity, analysis/speech-activity.ts) that last at least the length the
 * reviewer chose become jumps. A little of each edge is kept, so the breath before a word and the
 * end of the word before are still heard. All times in seconds from the start of the recording.
 *
 * Only playback that runs into a silence jumps ({@link skipCrossed}); a seek that lands inside
 * one plays from there, since the reviewer asked for that moment.
 */
import { lastIndexWhere, type SpeechActivity } from '../analysis/speech-activity';

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
 * The jumps over every silence of `activity` (its `silences`: where no lane speaks, worked out
 * once per peaks in analysis/speech-activity.ts) lasting at least `minSilenceSeconds` (never
 * under {@link MIN_SKIPPED_SILENCE_SECONDS}): each from {@link KEEP_SECONDS} into the silence to
 * {@link KEEP_SECONDS} before the speech after it. The silence before the first speech is skipped
 * from 0; the one after the last speech runs to the end. Sorted by `fromSeconds`.
 */
export function planSilenceSkips(
  activity: Pick<SpeechActivity, 'silences' | 'durationSeconds'>,
  minSilenceSeconds: number,
): SilenceSkip[] {
  const min = Math.max(MIN_SKIPPED_SILENCE_SECONDS, minSilenceSeconds);
  const skips: SilenceSkip[] = [];
  for (const silence of activity.silences) {
    if (silence.endSeconds - silence.startSeconds < min) continue;
    const atStart = silence.startSeconds <= 0;
    const atEnd = silence.endSeconds >= activity.durationSeconds;
    const fromSeconds = atStart ? 0 : silence.startSeconds + KEEP_SECONDS;
    const toSeconds = atEnd ? activity.durationSeconds : silence.endSeconds - KEEP_SECONDS;
    if (toSeconds > fromSeconds) skips.push({ fromSeconds, toSeconds });
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
