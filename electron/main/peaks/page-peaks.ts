/**
 * Peaks as the page hands them to main (contract `storePeaks`): the waveform of a recording main
 * left to the page's decoder, checked before it goes into the peaks disk cache. Bounded as main's
 * own peaks are, so one call cannot fill memory or the cache: at most 8 channels, 6 hours, 384 kHz,
 * and as many peaks per channel as main's reducer makes for the duration (peaks-reducer.ts).
 */
import { z } from 'zod';
import { MAX_CHANNELS, MAX_DURATION_SECONDS, MAX_SAMPLE_RATE } from '$shared/peaks-decoding';
import { peakCountFor, type ComputedPeaks } from '$shared/peaks-reducer';

/** Most peaks per channel main's reducer makes for a recording of `durationSeconds` seconds. */
function mostPeaksFor(durationSeconds: number): number {
  return peakCountFor(durationSeconds, Number.POSITIVE_INFINITY);
}

const amplitudes = z.array(z.number().min(-1).max(1)).max(mostPeaksFor(MAX_DURATION_SECONDS));

const shape = z
  .strictObject({
    durationSeconds: z.number().positive().max(MAX_DURATION_SECONDS),
    sampleRate: z.number().positive().max(MAX_SAMPLE_RATE),
    length: z.number().int().positive(),
    channels: z
      .array(z.strictObject({ min: amplitudes, max: amplitudes }))
      .min(1)
      .max(MAX_CHANNELS),
  })
  .refine(
    (peaks) =>
      peaks.length <= mostPeaksFor(peaks.durationSeconds) &&
      peaks.channels.every((c) => c.min.length === peaks.length && c.max.length === peaks.length),
  );

/**
 * Peaks without `fromCache` ({@link ComputedPeaks}): `durationSeconds` in (0, 6 h], `sampleRate`
 * in Hz in (0, 384,000], `length` peaks per channel (at least 1, at most what main's reducer makes
 * for the duration), 1 to 8 channels each with `length` min and max amplitudes in [-1, 1], and
 * nothing else. Anything else fails with one sentence (the handler's `bad_input` message).
 */
export const pagePeaksSchema = z.custom<ComputedPeaks>(
  (value) => shape.safeParse(value).success,
  "The page's waveform is not in the shape Voice Review keeps, so it was not stored.",
);
