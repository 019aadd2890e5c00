/**
 * Turns a recording's peaks (main's, or the page decoder's for a format main does not read:
 * recording-session.svelte.ts) into what wavesurfer.js 8 draws, so wavesurfer never fetches or decodes the
 * recording itself.
 */
import type { PeaksProgress, RecordingPeaks } from '$shared/contract';

/** How the waveform box draws a recording: one combined waveform, or one lane per channel. */
interface WaveformLayout {
  /**
   * Arrays for wavesurfer's `peaks` option, values in [0, 1] (amplitudes), `peaks.length` slices
   * each. Mono: `[max, |min|]`, which wavesurfer draws as the top and bottom half of one
   * waveform, so an asymmetric signal looks as it is. Stereo: one array per channel (the larger
   * of |min| and |max|), drawn mirrored in its own lane with `splitChannels`.
   */
  channelData: Float32Array[];
  /** Lanes to draw: 1 for mono, 2 for stereo (further channels are not drawn). */
  lanes: number;
}

/**
 * Builds the {@link WaveformLayout} for `peaks`.
 * @param peaks peaks per channel as main sends them (min/max in [-1, 1], equal length per channel)
 */
export function waveformLayout(peaks: RecordingPeaks): WaveformLayout {
  const channels = peaks.channels;
  if (channels.length >= 2) {
    const lanes = channels.slice(0, 2).map((c) => {
      const out = new Float32Array(c.max.length);
      for (let i = 0; i < out.length; i += 1) out[i] = Math.max(Math.abs(c.max[i] ?? 0), Math.abs(c.min[i] ?? 0));
      return out;
    });
    return { channelData: lanes, lanes: 2 };
  }
  const only = channels[0] ?? { min: [], max: [] };
  return { channelData: [magnitudes(only.max), magnitudes(only.min)], lanes: 1 };
}

/** |v| of each value, as wavesurfer's peaks (a plain loop: Float32Array.from with a mapping function is several times slower). */
function magnitudes(values: readonly number[]): Float32Array {
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i += 1) out[i] = Math.abs(values[i] ?? 0);
  return out;
}

/**
 * Labels of the lanes of a stereo recording, left then right. The API does not say which
 * channel carries the caller and which the agent (spec 2 only gives a `recording_url`), so the
 * lanes are named by channel rather than by party.
 */
export const STEREO_LANE_LABELS = ['Channel 1 (left)', 'Channel 2 (right)'] as const;

/**
 * Peaks per channel a partial waveform is drawn with over the full length, at least: the count main
 * gives every call up to about 33 minutes (electron/main/peaks/reduce.ts), about 2 peaks per pixel
 * of a wide waveform box.
 */
const DRAWN_LENGTH = 8_000;

/**
 * What to draw while the peaks are computed: the peaks of the first `progress.coveredSeconds`,
 * followed by silence (zeros) up to `fullSeconds`, so the drawn part sits where it belongs on a
 * waveform as long as the recording and the seek bar stays right. `fullSeconds` is an estimate
 * (the media element's duration, else the interaction's); when it is unknown (0) or not beyond
 * the covered part, the partial peaks are drawn as they are. Null when nothing is covered yet.
 *
 * The whole length gets at most {@link DRAWN_LENGTH} peaks (or as many as `progress` holds, if
 * more): main reports the covered part with at least 8,000 peaks however short it is, so early in
 * a long call the covered part is merged down (each drawn peak the min and max of the ones it
 * spans) instead of the waveform being stretched to tens of thousands of peaks, which wavesurfer
 * would draw again on every update.
 */
export function stretchedPeaks(progress: PeaksProgress, fullSeconds: number): RecordingPeaks | null {
  const { coveredSeconds } = progress;
  if (!(coveredSeconds > 0) || progress.peaks.length === 0) return null;
  if (!(fullSeconds > coveredSeconds)) return progress.peaks;
  const drawnLength = Math.max(DRAWN_LENGTH, progress.peaks.length);
  const coveredLength = Math.max(1, Math.round((drawnLength * coveredSeconds) / fullSeconds));
  const peaks = coveredLength < progress.peaks.length ? mergedPeaks(progress.peaks, coveredLength) : progress.peaks;
  const length = Math.max(peaks.length, Math.round((peaks.length * fullSeconds) / coveredSeconds));
  const pad = (values: number[]) => values.concat(new Array<number>(length - values.length).fill(0));
  return {
    ...peaks,
    durationSeconds: fullSeconds,
    length,
    channels: peaks.channels.map((c) => ({ min: pad(c.min), max: pad(c.max) })),
  };
}

/** `peaks` with `length` (fewer) peaks per channel: peak i is the min and max of its equal share of the originals. */
function mergedPeaks(peaks: RecordingPeaks, length: number): RecordingPeaks {
  const from = peaks.length;
  const merge = (values: number[], pick: (a: number, b: number) => number) => {
    const out = new Array<number>(length);
    for (let i = 0; i < length; i += 1) {
      const start = Math.floor((i * from) / length);
      const end = Math.max(start + 1, Math.floor(((i + 1) * from) / length));
      let v = values[start] ?? 0;
      for (let j = start + 1; j < end; j += 1) v = pick(v, values[j] ?? 0);
      out[i] = v;
    }
    return out;
  };
  return {
    ...peaks,
    length,
    channels: peaks.channels.map((c) => ({ min: merge(c.min, Math.min), max: merge(c.max, Math.max) })),
  };
}

/** How wavesurfer draws the waveform (bars, colours, the cursor; drag to seek, normalised height). */
export const WAVEFORM_STYLE = {
  waveColor: '#a5b4fc',
  progressColor: '#4f46e5',
  cursorColor: '#1e1b4b',
  cursorWidth: 2,
  barWidth: 2,
  barGap: 1,
  barRadius: 2,
  dragToSeek: true,
  normalize: true,
} as const;

/** Colours of the lanes of a stereo recording, left then right (wavesurfer's `splitChannels`). */
export const STEREO_LANE_STYLES = [
  { waveColor: '#a5b4fc', progressColor: '#4f46e5' },
  { waveColor: '#99d5cf', progressColor: '#0f766e' },
] as const;

/** Playback rates offered by the speed list, slowest first (1 = normal). */
export const PLAYBACK_SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/**
 * The speed one place up (`direction` 1) or down (-1) {@link PLAYBACK_SPEEDS} from `speed`,
 * staying at the ends; a speed not in the list steps from normal (1).
 */
export function nextSpeed(speed: number, direction: 1 | -1): number {
  const at = PLAYBACK_SPEEDS.findIndex((s) => s === speed);
  const index = Math.min(
    PLAYBACK_SPEEDS.length - 1,
    Math.max(0, (at < 0 ? PLAYBACK_SPEEDS.indexOf(1) : at) + direction),
  );
  return PLAYBACK_SPEEDS[index] ?? 1;
}
