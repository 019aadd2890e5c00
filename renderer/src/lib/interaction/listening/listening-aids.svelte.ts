/**
 * The player's listening aids as state: the A–B loop (ab-loop.ts) and skipping silences
 * (skip-silences.ts). It only decides; the player reads {@link ListeningAids.jumpFor} on each
 * clock reading while playing and seeks where it says. All times in seconds.
 */
import type { RecordingPeaks } from '$shared/contract';
import { speechActivity } from '../analysis/speech-activity';
import { loopJump, NO_LOOP, pressLoop, type AbLoop } from './ab-loop';
import { DEFAULT_SKIPPED_SILENCE_SECONDS, planSilenceSkips, skipCrossed, type SilenceSkip } from './skip-silences';

/** The silence lengths the reviewer can choose to skip, seconds. */
export const SKIPPED_SILENCE_CHOICES = [1, 2, 3, 5] as const;

/** What the aids read of the player: its final peaks (null until known) and its length, seconds. */
export interface ListeningSource {
  peaks: () => RecordingPeaks | null;
  durationSeconds: () => number;
}

/** The A–B loop and silence skipping of one player; see the module comment. */
export class ListeningAids {
  /** The A–B loop: off, A marked, or looping. */
  loop = $state<AbLoop>(NO_LOOP);
  /** Whether playback jumps over silences; off until the reviewer turns it on. */
  skipSilences = $state(false);
  /** Shortest silence that is skipped, seconds (one of {@link SKIPPED_SILENCE_CHOICES}). */
  minSilenceSeconds = $state<number>(DEFAULT_SKIPPED_SILENCE_SECONDS);

  /**
   * The jumps over silences, only while skipping is on and the peaks are known: the silences of
   * the recording's speech activity (shared with the turn timing and lane levelling, worked out
   * once per peaks) at least as long as chosen.
   */
  readonly skips: SilenceSkip[] = $derived.by(() => {
    if (!this.skipSilences) return [];
    const activity = speechActivity(this.source.peaks());
    return activity ? planSilenceSkips(activity, this.minSilenceSeconds) : [];
  });

  constructor(private readonly source: ListeningSource) {}

  /** The loop key at `timeSeconds`: marks A, then B (looping), then clears (see {@link pressLoop}). */
  pressLoop(timeSeconds: number): void {
    this.loop = pressLoop(this.loop, timeSeconds);
  }

  /** Ends the loop, or forgets A when B was not set yet. */
  clearLoop(): void {
    this.loop = NO_LOOP;
  }

  /** Turns skipping silences on or off. */
  toggleSkipSilences(): void {
    this.skipSilences = !this.skipSilences;
  }

  /**
   * Where playback should go when it went from `previousSeconds` to `currentSeconds` while
   * playing, or null to play on: back to A when it reached B, else past a silence it ran into
   * (back to A instead when that silence runs past B). A seek (backwards, or a jump forwards)
   * never triggers either.
   */
  jumpFor(previousSeconds: number, currentSeconds: number): number | null {
    const toA = loopJump(this.loop, previousSeconds, currentSeconds, this.source.durationSeconds());
    if (toA !== null) return toA;
    const skip = skipCrossed(this.skips, previousSeconds, currentSeconds);
    if (!skip) return null;
    // A silence that runs past B, met inside the loop, goes round the loop rather than out of it.
    const loop = this.loop;
    const inLoop = loop.kind === 'looping' && previousSeconds >= loop.aSeconds && previousSeconds < loop.bSeconds;
    return inLoop && skip.toSeconds >= loop.bSeconds ? loop.aSeconds : skip.toSeconds;
  }
}
