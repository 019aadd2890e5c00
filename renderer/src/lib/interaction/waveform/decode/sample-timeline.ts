/**
 * Places decoded stretches of audio on the recording's timeline and feeds them to the reducer
 * ($shared/peaks-reducer), the way a player plays them: by their timestamps, a gap drawn as
 * silence, audio before 0 (encoder priming) or overlapping what came before dropped, samples an
 * MP3 declares as delay dropped, and the last stretch cut at the recording's end (decoders hand
 * out whole frames; the container says where the recording ends).
 *
 * The last stretch is held back until the next arrives or the end is known, so it can be cut.
 */
import { MAX_DURATION_SECONDS } from '$shared/peaks-decoding';
import { PeakAccumulator, type ComputedPeaks } from '$shared/peaks-reducer';

/** One decoded stretch (an AudioSample from mediabunny, or a stand-in in tests). */
export interface DecodedStretch {
  /** Presentation time of its first sample, in seconds (may be negative: priming). */
  readonly timestamp: number;
  readonly numberOfFrames: number;
  readonly numberOfChannels: number;
  /** Hz. */
  readonly sampleRate: number;
  /** Copies channel `channel` as Float32 in [-1, 1] into `into` (`numberOfFrames` long). */
  copyPlane(channel: number, into: Float32Array): void;
  /** Frees the stretch (called once it is fed or dropped). */
  close(): void;
}

/**
 * A stretch whose timestamp is off from the end of what came before by less than this (seconds)
 * is taken as contiguous: container timestamps are rounded (WebM to 1 ms), and following them to
 * the sample would insert or drop slivers of audio.
 */
export const CONTIGUOUS_TOLERANCE_SECONDS = 0.005;

/** Thrown past {@link MAX_DURATION_SECONDS}; the caller words it. */
export class TooLongError extends Error {}

/** A stretch placed on the timeline, waiting to be fed: `silence` samples before it, then its samples `from`..`from + count`. */
interface Placed {
  stretch: DecodedStretch;
  silence: number;
  from: number;
  count: number;
}

/** See the module comment. */
export class SampleTimeline {
  private accumulator: PeakAccumulator | null = null;
  private held: Placed | null = null;
  /** Timeline position (samples) after the last placed stretch, the held one included. */
  private placedEnd = 0;
  /** Planar copies of the stretch being fed, grown as needed. */
  private planes: Float32Array[] = [];

  /**
   * @param skipSamples samples to drop from the start of the decoded audio before the timeline's
   *   0 (an MP3's declared delay, see mp3-gapless.ts); 0 for other formats
   * @param startReducer makes the reducer from the first stretch's layout (the caller checks the caps there)
   */
  constructor(
    private readonly skipSamples: number,
    private readonly startReducer: (channels: number, sampleRate: number) => PeakAccumulator = (c, r) =>
      new PeakAccumulator(c, r),
  ) {}

  /** The reducer, once the first stretch arrived (for progress snapshots). */
  get reducer(): PeakAccumulator | null {
    return this.accumulator;
  }

  /**
   * Places `stretch` and feeds the one held before it. Takes ownership: the stretch is closed once fed or dropped.
   * @throws TooLongError past {@link MAX_DURATION_SECONDS}
   */
  add(stretch: DecodedStretch): void {
    const frames = stretch.numberOfFrames;
    if (frames <= 0) {
      stretch.close();
      return;
    }
    this.accumulator ??= this.startReducer(stretch.numberOfChannels, stretch.sampleRate);
    const rate = this.accumulator.sampleRate;
    const start = Math.round(stretch.timestamp * rate) - this.skipSamples;
    const offset = start - this.placedEnd;
    const tolerance = this.placedEnd === 0 ? 0 : CONTIGUOUS_TOLERANCE_SECONDS * rate;
    const silence = offset > tolerance ? offset : 0;
    const from = offset < -tolerance ? Math.min(frames, -offset) : 0;
    if (from >= frames) {
      stretch.close();
      return;
    }
    if (this.placedEnd + silence + frames - from > MAX_DURATION_SECONDS * rate) {
      stretch.close();
      throw new TooLongError();
    }
    this.feedHeld();
    this.held = { stretch, silence, from, count: frames - from };
    this.placedEnd += silence + frames - from;
  }

  /**
   * Feeds what is held, cut at `endSeconds` (the recording's end, as its container or LAME tag
   * says; null: not known, nothing is cut), pads with silence up to `padToSeconds` (null: none),
   * and returns the peaks. Null when no audio was decoded.
   */
  finish(endSeconds: number | null, padToSeconds: number | null = null): ComputedPeaks | null {
    const accumulator = this.accumulator;
    if (!accumulator) return null;
    const rate = accumulator.sampleRate;
    const held = this.held;
    if (held && endSeconds !== null) {
      const excess = this.placedEnd - Math.round(endSeconds * rate);
      if (excess > 0) held.count = Math.max(0, held.count - excess);
    }
    this.feedHeld();
    if (padToSeconds !== null) this.addSilence(accumulator, Math.round(padToSeconds * rate) - accumulator.samples);
    return accumulator.samples > 0 ? accumulator.finish() : null;
  }

  /** Frees what is held without feeding it (a decode that stopped). */
  dispose(): void {
    this.held?.stretch.close();
    this.held = null;
  }

  private feedHeld(): void {
    const held = this.held;
    const accumulator = this.accumulator;
    this.held = null;
    if (!held || !accumulator) return;
    try {
      this.addSilence(accumulator, held.silence);
      if (held.count <= 0) return;
      const { stretch } = held;
      const channels = accumulator.channelCount;
      for (let c = 0; c < channels; c++) {
        let plane = this.planes[c];
        if (!plane || plane.length < stretch.numberOfFrames)
          this.planes[c] = plane = new Float32Array(stretch.numberOfFrames);
        // A stretch with fewer channels than the first repeats its last one (as the reducer does).
        stretch.copyPlane(Math.min(c, stretch.numberOfChannels - 1), plane.subarray(0, stretch.numberOfFrames));
      }
      const end = held.from + held.count;
      accumulator.add(
        this.planes.slice(0, channels).map((plane) => plane.subarray(held.from, end)),
        held.count,
      );
    } finally {
      held.stretch.close();
    }
  }

  /** `samples` samples of silence on every channel. */
  private addSilence(accumulator: PeakAccumulator, samples: number): void {
    if (samples <= 0) return;
    const silence = new Float32Array(Math.min(samples, accumulator.sampleRate));
    for (let left = samples; left > 0; left -= silence.length)
      accumulator.add([silence], Math.min(left, silence.length));
  }
}
