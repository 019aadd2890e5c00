/**
 * "The first bytes of audio go first" (issue 5): computing peaks downloads the whole recording,
 * which on a slow link or a busy machine would compete with the media element's first Range
 * request. The gate holds a peaks download back until the recording protocol has started
 * streaming that interaction's recording to the player, or `maxWaitMs` has passed (a recording
 * that is never played still gets its waveform). Cached peaks do not wait: the service checks the
 * cache before it asks the gate.
 */

/** See {@link createPlaybackGate}. */
export interface PlaybackGate {
  /** The recording protocol started streaming the recording of interaction `sid`. */
  opened(sid: string): void;
  /** Resolves once `sid` was opened, or after the gate's `maxWaitMs` (milliseconds). Never rejects. */
  wait(sid: string): Promise<void>;
}

/** How many recently opened SIDs are remembered. */
const REMEMBERED = 200;

/**
 * Creates a gate.
 * @param maxWaitMs longest hold, in milliseconds (default 1 000).
 */
export function createPlaybackGate(maxWaitMs = 1_000): PlaybackGate {
  const openedSids = new Set<string>();
  const waiting = new Map<string, Array<() => void>>();
  return {
    opened(sid) {
      openedSids.delete(sid);
      openedSids.add(sid);
      if (openedSids.size > REMEMBERED) openedSids.delete(openedSids.values().next().value as string);
      for (const release of waiting.get(sid) ?? []) release();
      waiting.delete(sid);
    },
    wait(sid) {
      if (openedSids.has(sid)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, maxWaitMs);
        const release = () => {
          clearTimeout(timer);
          resolve();
        };
        waiting.set(sid, [...(waiting.get(sid) ?? []), release]);
      });
    },
  };
}
