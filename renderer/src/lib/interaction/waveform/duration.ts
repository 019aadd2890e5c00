/**
 * The length of a recording as the player works with it: the clock, the seek bar's bounds, the
 * waveform's regions and marks, and where the transcript's times sit, all take this one value.
 */

/** What is known of a recording's length, in seconds. */
export interface DurationSources {
  /** The duration of the decoded sound (the final peaks'), or null while they are not here. */
  decodedSeconds: number | null;
  /**
   * The media element's `duration`: NaN before its metadata, Infinity when the container states
   * no length (WebM as a browser's recorder writes it), else the container's length.
   */
  mediaSeconds: number;
  /** Seconds from the start that the peaks decoded so far cover, or null. */
  coveredSeconds: number | null;
  /** The call's length from the interaction's metadata, or null. */
  hintSeconds: number | null;
}

/** `value` when it is a usable length (finite, above 0), else 0. */
function usable(value: number | null): number {
  return value !== null && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * The recording's length in seconds (0 when nothing tells it yet): the decoded sound's once it is
 * known (exact, whatever the container says or leaves out); before that the media element's when
 * it reports a finite one; when it reports Infinity or NaN, the longer of the interaction's
 * length and what the peaks so far cover (the sound goes at least that far).
 */
export function playerDurationSeconds(sources: DurationSources): number {
  const decoded = usable(sources.decodedSeconds);
  if (decoded > 0) return decoded;
  const media = usable(sources.mediaSeconds);
  if (media > 0) return media;
  return Math.max(usable(sources.hintSeconds), usable(sources.coveredSeconds));
}
