/**
 * The first bytes of audio go first: computing peaks downloads the whole recording, which on a
 * slow link or a busy machine would compete with the media element's first Range request. The
 * gate holds a peaks download back until the recording protocol has been streaming that
 * interaction's recording to the player for `graceMs` (time for the player to buffer and start),
 * or `maxWaitMs` has passed (a recording that is never played still gets its waveform). Cached
 * peaks do not wait: the service checks the cache before it asks the gate.
 */

/** See {@link createPlaybackGate}. */
export interface PlaybackGate {
  /** The recording protocol started streaming the recording of interaction `sid`. */
  opened(sid: string): void;
  /** Resolves `graceMs` after `sid` was opened, or after `maxWaitMs` (milliseconds). Never rejects. */
  wait(sid: string): Promise<void>;
}

/** How many recently opened SIDs are remembered. */
const REMEMBERED = 200;

/**
 * Creates a gate.
 * @param maxWaitMs longest hold, in milliseconds (default 1 000).
 * @param graceMs hold after the recording started streaming, in milliseconds (default 250).
 */
export function createPlaybackGate(maxWaitMs = 1_000, graceMs = 250): PlaybackGate {
  /** When each recently opened SID started streaming (performance.now(), milliseconds). */
  const openedSids = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  return {
    opened(sid) {
      // Every streamed request counts (a new view of the same call opens it again).
      openedSids.delete(sid);
      openedSids.set(sid, performance.now());
      if (openedSids.size > REMEMBERED) openedSids.delete(openedSids.keys().next().value as string);
      const releases = waiting.get(sid) ?? [];
      waiting.delete(sid);
      setTimeout(() => releases.forEach((release) => release()), graceMs);
    },
    wait(sid) {
      const openedAt = openedSids.get(sid);
      // Only a recent opening is this view's: an old one (an earlier view) must not let the
      // download run before this view's player has started.
      if (openedAt !== undefined && performance.now() - openedAt < maxWaitMs) {
        const left = openedAt + graceMs - performance.now();
        return left <= 0 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, left));
      }
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
