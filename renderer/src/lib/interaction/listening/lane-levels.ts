/**
 * Per-lane loudness levelling: a quiet lane (an 8 kHz caller on a poor line beside a loud agent)
 * gets a gain that brings its speech up to the louder lane's, from what the waveform already
 * knows: each lane's peaks and where it speaks (analysis/speech-activity.ts). Gains only raise
 * (a loud lane is never turned down), are capped so a lane of hiss is not blown up, and never
 * push a lane's loudest peak into clipping. Applied by the player's Web Audio graph, one gain
 * per lane (waveform/lane-audio.ts), on by default and off with one click.
 */
import type { RecordingPeaks } from '$shared/contract';
import type { TimeSpan } from '../analysis/types';

/** Most a lane is raised: 4x (+12 dB). */
export const MAX_LEVELLING_GAIN = 4;
/** Speech level every lane is brought up to at least, of full scale (a whole call recorded quietly is raised too). */
export const TARGET_SPEECH_LEVEL = 0.5;
/** Largest peak a raised lane may reach, of full scale. */
const CEILING = 0.95;
/** Share of a lane's speech peaks at or under its speech level (its loud syllables, not one click). */
const SPEECH_LEVEL_RANK = 0.9;

/** One lane's levelling. */
export interface LaneLevel {
  /** Linear gain (1 = as recorded). */
  gain: number;
  /** The same in decibels, rounded to 0.1 dB, for people ("+9.5 dB"). */
  decibels: number;
}

/** The value at rank `rank` (0..1) of `values`, or 0 when there are none. */
function rankValue(values: number[], rank: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(rank * (sorted.length - 1)))] ?? 0;
}

/** Amplitudes (max of |min|, |max|) of one lane's peaks that fall in its speech. */
function speechAmplitudes(
  channel: { min: number[]; max: number[] },
  speech: readonly TimeSpan[],
  secondsPerPeak: number,
): number[] {
  const out: number[] = [];
  for (const span of speech) {
    const from = Math.max(0, Math.floor(span.startSeconds / secondsPerPeak));
    const to = Math.min(channel.max.length, Math.ceil(span.endSeconds / secondsPerPeak));
    for (let i = from; i < to; i++) out.push(Math.max(Math.abs(channel.min[i] ?? 0), Math.abs(channel.max[i] ?? 0)));
  }
  return out;
}

/**
 * The levelling gain of every lane of `peaks`: each lane's speech level (the 90th percentile of
 * its peak amplitudes during its speech, `speechByLane[lane]`) raised to the loudest lane's level
 * or {@link TARGET_SPEECH_LEVEL}, whichever is higher, at most {@link MAX_LEVELLING_GAIN} and so
 * that the lane's loudest peak stays under 0.95. A lane with no speech keeps gain 1.
 */
export function laneLevels(peaks: RecordingPeaks, speechByLane: readonly (readonly TimeSpan[])[]): LaneLevel[] {
  const secondsPerPeak = peaks.length > 0 ? peaks.durationSeconds / peaks.length : 0;
  const lanes = peaks.channels.map((channel, lane) => {
    const amplitudes = secondsPerPeak > 0 ? speechAmplitudes(channel, speechByLane[lane] ?? [], secondsPerPeak) : [];
    return { level: rankValue(amplitudes, SPEECH_LEVEL_RANK), loudest: Math.max(0, ...amplitudes) };
  });
  const target = Math.max(TARGET_SPEECH_LEVEL, ...lanes.map((l) => l.level));
  return lanes.map(({ level, loudest }) => {
    if (!(level > 0)) return { gain: 1, decibels: 0 };
    const gain = Math.max(1, Math.min(MAX_LEVELLING_GAIN, target / level, CEILING / loudest));
    return { gain, decibels: Math.round(200 * Math.log10(gain)) / 10 };
  });
}
