/**
 * Turns the peaks main computes (the renderer never decodes a recording) into what wavesurfer.js 8
 * draws, so wavesurfer never fetches or decodes the recording itself.
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

/** Most peaks per channel a partial waveform is stretched to (a 6-hour call's final count is 86,400). */
const MAX_STRETCHED_LENGTH = 100_000;

/**
 * What to draw while the peaks are computed: the peaks of the first `progress.coveredSeconds`,
 * followed by silence (zeros) up to `fullSeconds`, so the drawn part sits where it belongs on a
 * waveform as long as the recording and the seek bar stays right. `fullSeconds` is an estimate
 * (the media element's duration, else the interaction's); when it is unknown (0) or not beyond
 * the covered part, the partial peaks are drawn as they are. Null when nothing is covered yet, or
 * when so little is that stretching would need more than {@link MAX_STRETCHED_LENGTH} peaks.
 */
export function stretchedPeaks(progress: PeaksProgress, fullSeconds: number): RecordingPeaks | null {
  const { peaks, coveredSeconds } = progress;
  if (!(coveredSeconds > 0) || peaks.length === 0) return null;
  if (!(fullSeconds > coveredSeconds)) return peaks;
  const length = Math.max(peaks.length, Math.round((peaks.length * fullSeconds) / coveredSeconds));
  if (length > MAX_STRETCHED_LENGTH) return null;
  const pad = (values: number[]) => values.concat(new Array<number>(length - values.length).fill(0));
  return {
    ...peaks,
    durationSeconds: fullSeconds,
    length,
    channels: peaks.channels.map((c) => ({ min: pad(c.min), max: pad(c.max) })),
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
