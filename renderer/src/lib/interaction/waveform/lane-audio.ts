/**
 * Muting and soloing the lanes of a stereo recording with Web Audio: the player's media element
 * feeds `MediaElementAudioSourceNode -> ChannelSplitter(2) -> one GainNode per channel ->
 * ChannelMerger(2) -> destination`, so a lane's gain of 0 sends its sound nowhere while the other
 * plays on in its own ear.
 *
 * Each lane's gain is its mute/solo gain (0 or 1) times its levelling gain (listening/lane-levels.ts).
 *
 * The graph is built lazily, on the first mute or solo or levelling: until then the media element plays by
 * itself (no AudioContext is created on load, so the first sound is not delayed). Once a media
 * element feeds a source node it only sounds through the graph, so the graph then stays for the
 * element's life. The recording must be CORS-readable (the `<audio>` has `crossorigin`), or the
 * source node outputs silence.
 */

/** Which lanes the reviewer muted, and which one (if any) is soloed; index 0 is left, 1 right. */
export interface LaneMix {
  muted: readonly [boolean, boolean];
  solo: 0 | 1 | null;
}

/** Both lanes playing. */
export const FULL_MIX: LaneMix = { muted: [false, false], solo: null };

/**
 * Gain of each lane (0 or 1) for `mix`: a muted lane is silent; while a lane is soloed, the other
 * is silent too.
 */
export function laneGains(mix: LaneMix): [number, number] {
  const gain = (lane: 0 | 1) => (mix.muted[lane] || (mix.solo !== null && mix.solo !== lane) ? 0 : 1);
  return [gain(0), gain(1)];
}

/** `mix` with lane `lane`'s mute turned on or off. */
export function toggleMute(mix: LaneMix, lane: 0 | 1): LaneMix {
  const muted: [boolean, boolean] = [mix.muted[0], mix.muted[1]];
  muted[lane] = !muted[lane];
  return { ...mix, muted };
}

/** `mix` with lane `lane` soloed, or no solo when it already was. */
export function toggleSolo(mix: LaneMix, lane: 0 | 1): LaneMix {
  return { ...mix, solo: mix.solo === lane ? null : lane };
}

/** The parts of an AudioContext the graph uses (tests pass a stand-in). */
export type LaneAudioContext = Pick<
  AudioContext,
  'createMediaElementSource' | 'createChannelSplitter' | 'createChannelMerger' | 'createGain' | 'destination'
> & { state: string; resume(): Promise<void>; close(): Promise<void> };

/** The Web Audio graph of one media element; see the module comment. */
export class LaneAudio {
  private context: LaneAudioContext | null = null;
  private gains: GainNode[] = [];

  /**
   * @param media the player's media element (fed to the graph at most once)
   * @param createContext makes the AudioContext, on the first call of {@link apply} that silences
   *   or raises a lane
   */
  constructor(
    private readonly media: HTMLMediaElement,
    private readonly createContext: () => LaneAudioContext = () => new AudioContext(),
  ) {}

  /** Whether the graph exists (it does from the first mute or solo on). */
  get active(): boolean {
    return this.context !== null;
  }

  /**
   * Sets the lanes' gains for `mix` times `levels` (linear, per lane; 1 as recorded), building
   * the graph first when a lane is to be silenced or raised.
   */
  apply(mix: LaneMix, levels: readonly [number, number] = [1, 1]): void {
    const values = laneGains(mix).map((gain, lane) => gain * (levels[lane] ?? 1));
    if (!this.context && values.every((v) => v === 1)) return;
    const gains = this.build();
    values.forEach((value, lane) => {
      const node = gains[lane];
      if (node) node.gain.value = value;
    });
  }

  /** Closes the AudioContext, if one was made. */
  close(): void {
    const context = this.context;
    this.context = null;
    this.gains = [];
    if (context) void context.close().catch(() => undefined);
  }

  private build(): GainNode[] {
    if (this.context) return this.gains;
    let context: LaneAudioContext;
    try {
      context = this.createContext();
    } catch {
      // No Web Audio here (or no context to be had): the recording plays as it is, unlevelled.
      return [];
    }
    const source = context.createMediaElementSource(this.media);
    const splitter = context.createChannelSplitter(2);
    const merger = context.createChannelMerger(2);
    source.connect(splitter);
    this.gains = [0, 1].map((lane) => {
      const gain = context.createGain();
      splitter.connect(gain, lane);
      gain.connect(merger, 0, lane);
      return gain;
    });
    merger.connect(context.destination);
    // Made on a click, so it may start; a context created suspended is resumed.
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    this.context = context;
    return this.gains;
  }
}
