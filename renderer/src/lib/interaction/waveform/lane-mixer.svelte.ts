/**
 * The mute and solo state of a player's two lanes, applied through {@link LaneAudio}. It lives
 * as long as the player (construct it while the component initialises): the media element, once
 * routed through Web Audio, only sounds through that graph, so the graph is kept until the player
 * goes. Another recording starts with both lanes sounding.
 */
import { onDestroy, untrack } from 'svelte';
import { FULL_MIX, LaneAudio, toggleMute, toggleSolo, type LaneMix } from './lane-audio';

/** Mute/solo of the player's lanes; see the module comment. */
export class LaneMixer {
  /** Which lanes sound. */
  mix = $state<LaneMix>(FULL_MIX);
  private audio: LaneAudio | null = null;
  private readonly media: () => HTMLMediaElement | undefined;

  /**
   * @param media the player's media element
   * @param src the recording's URL; when it changes, both lanes sound again
   */
  constructor(media: () => HTMLMediaElement | undefined, src: () => string) {
    this.media = media;
    $effect(() => {
      src();
      untrack(() => {
        this.set(FULL_MIX);
      });
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

  // The Web Audio graph is made here, on the first mute or solo, never on load.
  private set(next: LaneMix): void {
    this.mix = next;
    const media = this.media();
    if (!media || (!this.audio && next === FULL_MIX)) return;
    this.audio ??= new LaneAudio(media);
    this.audio.apply(next);
  }
}
