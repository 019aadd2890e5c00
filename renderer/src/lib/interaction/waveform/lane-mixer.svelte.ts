/**
 * The mute, solo and levelling state of a player's two lanes, applied through {@link LaneAudio}.
 * It lives as long as the player (construct it while the component initialises): the media
 * element, once routed through Web Audio, only sounds through that graph, so the graph is kept
 * until the player goes. Another recording starts with both lanes sounding.
 *
 * Levelling (listening/lane-levels.ts) is on by default for a two-lane recording: a quiet lane is
 * raised from the moment the reviewer plays it. Its graph waits for that play (or a mute or solo),
 * never made on load, so an AudioContext is only started on the reviewer's own action.
 */
import { onDestroy, untrack } from 'svelte';
import type { RecordingPeaks } from '$shared/contract';
import { speechActivity } from '../analysis/speech-activity';
import { laneLevels, type LaneLevel } from '../listening/lane-levels';
import { FULL_MIX, LaneAudio, laneGains, toggleMute, toggleSolo, type LaneMix } from './lane-audio';

/** Mute/solo/levelling of the player's lanes; see the module comment. */
export class LaneMixer {
  /** Which lanes sound. */
  mix = $state<LaneMix>(FULL_MIX);
  /** Whether quiet lanes are raised (on by default; only a two-lane recording is levelled). */
  levelling = $state(true);
  /** Each lane's levelling from the final peaks of a two-lane recording; empty otherwise. */
  readonly levels: readonly LaneLevel[] = $derived.by(() => {
    const peaks = this.peaks();
    if (!peaks || peaks.channels.length !== 2) return [];
    return laneLevels(peaks, speechActivity(peaks)?.segments ?? []);
  });
  private audio: LaneAudio | null = null;
  private readonly media: () => HTMLMediaElement | undefined;
  private readonly peaks: () => RecordingPeaks | null;

  /**
   * @param media the player's media element
   * @param src the recording's URL; when it changes, both lanes sound again
   * @param peaks the recording's final peaks, or null until known (levelling waits for them)
   */
  constructor(media: () => HTMLMediaElement | undefined, src: () => string, peaks: () => RecordingPeaks | null) {
    this.media = media;
    this.peaks = peaks;
    $effect(() => {
      src();
      untrack(() => {
        this.set(FULL_MIX, false);
      });
    });
    $effect(() => {
      this.levelGains();
      untrack(() => this.apply(false));
    });
    $effect(() => {
      const element = this.media();
      const onPlay = () => this.apply(true);
      element?.addEventListener('play', onPlay);
      return () => element?.removeEventListener('play', onPlay);
    });
    onDestroy(() => this.audio?.close());
  }

  /** Mutes lane `lane` (0 left, 1 right), or unmutes it. */
  mute(lane: 0 | 1): void {
    this.set(toggleMute(this.mix, lane));
  }

  /** Solos lane `lane`, or ends its solo. */
  solo(lane: 0 | 1): void {
    this.set(toggleSolo(this.mix, lane));
  }

  /** Turns levelling on or off. */
  toggleLevelling(): void {
    this.levelling = !this.levelling;
    this.apply(true);
  }

  /** The levelling gain of each lane now applied: 1 and 1 when off or not known. */
  private levelGains(): [number, number] {
    const [left, right] = this.levels;
    return this.levelling && left && right ? [left.gain, right.gain] : [1, 1];
  }

  private set(next: LaneMix, byReviewer = true): void {
    this.mix = next;
    this.apply(byReviewer);
  }

  /**
   * Applies the mix and levels. The Web Audio graph is made here only when a lane is silenced or
   * raised, and then only on the reviewer's action (`byReviewer`: a click or a play) or while
   * the recording plays.
   */
  private apply(byReviewer: boolean): void {
    const media = this.media();
    if (!media) return;
    const levels = this.levelGains();
    const needed = laneGains(this.mix).some((gain, lane) => gain * (levels[lane] ?? 1) !== 1);
    if (!this.audio && (!needed || (!byReviewer && media.paused))) return;
    this.audio ??= new LaneAudio(media);
    this.audio.apply(this.mix, levels);
  }
}
