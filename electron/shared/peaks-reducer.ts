/**
 * Reduces decoded PCM to min/max peaks as it arrives, so no more than the current chunk of PCM is
 * ever held: the accumulator keeps one min and one max per fine bucket of 10 ms per channel, and
 * {@link PeakAccumulator.finish} downsamples those to the peaks the waveform draws.
 *
 * The one reducer of the app: main's peaks worker (electron/main/peaks/decode.ts) and the page's
 * decoder (renderer/src/lib/interaction/waveform/decode/) both feed it, so a recording gets the
 * same peaks whichever side decodes it. Pure code: no Node or DOM API.
 */
import type { RecordingPeaks } from '$shared/contract';

/** Peaks without the `fromCache` flag: what a computation (or a cache file) yields. */
export type ComputedPeaks = Omit<RecordingPeaks, 'fromCache'>;

/** Fine buckets per second of audio (each holds the min and max of 10 ms of samples). */
const FINE_BUCKETS_PER_SECOND = 100;

/** Peaks per channel for a recording of up to 2,000 s (about 33 minutes). */
const BASE_PEAK_COUNT = 8_000;

/**
 * Peaks per second of audio for long calls (so they keep detail): from 2,000 s on
 * (BASE_PEAK_COUNT / LONG_CALL_PEAKS_PER_SECOND) this gives more than {@link BASE_PEAK_COUNT}.
 */
const LONG_CALL_PEAKS_PER_SECOND = 4;

/**
 * Most fine buckets kept per channel. Past it, neighbouring buckets are merged in pairs and the
 * bucket doubles in length, so memory stays bounded (2 x 4 bytes x 2^20 = 8 MiB per channel) for
 * recordings of any length: 2^20 buckets of 10 ms are 2.9 hours.
 */
const MAX_FINE_BUCKETS = 1 << 20;

/** Stands in for a channel that is not there (never read: `add` returns early without channels). */
const NO_SAMPLES = new Float32Array(0);

/**
 * How many peaks per channel a recording of `durationSeconds` gets: 8,000, or 4 per second for
 * calls longer than about 33 minutes (a 40-minute call gets 9,600, an hour 14,400), never more
 * than the fine buckets available (a 30-second call gets 3,000: one per 10 ms).
 */
export function peakCountFor(durationSeconds: number, fineBuckets: number): number {
  const wanted = Math.max(BASE_PEAK_COUNT, Math.ceil(durationSeconds * LONG_CALL_PEAKS_PER_SECOND));
  return Math.max(0, Math.min(wanted, fineBuckets));
}

/** Rounds an amplitude to 4 decimals (1e-4 is below a pixel at any waveform height) and clamps it to [-1, 1]. */
function roundAmplitude(value: number): number {
  const clamped = value > 1 ? 1 : value < -1 ? -1 : value;
  const rounded = Math.round(clamped * 10_000) / 10_000;
  return rounded === 0 ? 0 : rounded; // no -0 in the JSON
}

/** One channel's fine buckets, in arrays that grow by doubling. */
class ChannelBuckets {
  min = new Float32Array(1024);
  max = new Float32Array(1024);

  ensure(capacity: number): void {
    if (capacity <= this.min.length) return;
    let size = this.min.length;
    while (size < capacity) size *= 2;
    const min = new Float32Array(size);
    const max = new Float32Array(size);
    min.set(this.min);
    max.set(this.max);
    this.min = min;
    this.max = max;
  }
}

/**
 * Streaming min/max reducer for one recording. Feed it every decoded chunk with {@link add}
 * (planar Float32 PCM in [-1, 1], one array per channel), then call {@link finish}.
 */
export class PeakAccumulator {
  readonly channelCount: number;
  readonly sampleRate: number;
  /** Samples per fine bucket (doubles when the recording outgrows {@link MAX_FINE_BUCKETS}). */
  private bucketSamples: number;
  private readonly buckets: ChannelBuckets[];
  /** Complete fine buckets so far. */
  private bucketCount = 0;
  /** Samples already in the bucket being filled (index `bucketCount`). */
  private filled = 0;
  private readonly openMin: Float64Array;
  private readonly openMax: Float64Array;
  /** Samples per channel received so far. */
  private totalSamples = 0;

  /**
   * @param channelCount channels to keep (1 or more); extra channels given to {@link add} are ignored.
   * @param sampleRate in Hz, as the decoder reports it.
   */
  constructor(channelCount: number, sampleRate: number) {
    this.channelCount = Math.max(1, Math.floor(channelCount));
    this.sampleRate = sampleRate;
    this.bucketSamples = Math.max(1, Math.round(sampleRate / FINE_BUCKETS_PER_SECOND));
    this.buckets = Array.from({ length: this.channelCount }, () => new ChannelBuckets());
    this.openMin = new Float64Array(this.channelCount).fill(Infinity);
    this.openMax = new Float64Array(this.channelCount).fill(-Infinity);
  }

  /** Samples per channel received so far. */
  get samples(): number {
    return this.totalSamples;
  }

  /**
   * Adds `samples` samples of each channel. A channel missing from `channelData` repeats the
   * last one given (a decoder that turns stereo into mono mid-stream still fills both lanes), and
   * a channel given as the same array as the one before it (MP3 decodes mono as two equal
   * channels) is scanned once for both.
   */
  add(channelData: readonly Float32Array[], samples: number): void {
    if (samples <= 0 || channelData.length === 0) return;
    let offset = 0;
    while (offset < samples) {
      const take = Math.min(samples - offset, this.bucketSamples - this.filled);
      const end = offset + take;
      let scanned: Float32Array | null = null;
      let lo = Infinity;
      let hi = -Infinity;
      for (let c = 0; c < this.channelCount; c++) {
        const data = channelData[Math.min(c, channelData.length - 1)] ?? NO_SAMPLES;
        if (data !== scanned) {
          scanned = data;
          lo = Infinity;
          hi = -Infinity;
          for (let i = offset; i < end; i++) {
            const v = data[i] ?? 0;
            if (v < lo) lo = v;
            if (v > hi) hi = v;
          }
        }
        if (lo < (this.openMin[c] ?? Infinity)) this.openMin[c] = lo;
        if (hi > (this.openMax[c] ?? -Infinity)) this.openMax[c] = hi;
      }
      offset += take;
      this.filled += take;
      if (this.filled === this.bucketSamples) this.closeBucket();
    }
    this.totalSamples += samples;
  }

  /**
   * The peaks: `length` = {@link peakCountFor} the duration, each peak the min/max of an equal
   * share of the fine buckets (slice edges fall on fine-bucket edges, at most 10 ms off for
   * recordings under 2.9 hours). Duration is exact: samples received / sample rate.
   */
  finish(): ComputedPeaks {
    if (this.filled > 0) this.closeBucket();
    const durationSeconds = this.sampleRate > 0 ? this.totalSamples / this.sampleRate : 0;
    return this.reduce(this.bucketCount, durationSeconds);
  }

  /**
   * The peaks of the complete fine buckets so far, without closing the open one (so {@link add}
   * goes on as if nothing happened): `durationSeconds` is the audio they cover, at most one fine
   * bucket (10 ms, more past 2.9 hours) short of {@link samples}. Costs one pass over the fine
   * buckets; the caller decides how often.
   */
  snapshot(): ComputedPeaks {
    const covered = this.sampleRate > 0 ? (this.bucketCount * this.bucketSamples) / this.sampleRate : 0;
    return this.reduce(this.bucketCount, covered);
  }

  /** Downsamples the first `fine` fine buckets to {@link peakCountFor} `durationSeconds` peaks. */
  private reduce(fine: number, durationSeconds: number): ComputedPeaks {
    const length = peakCountFor(durationSeconds, fine);
    const channels = this.buckets.map((channel) => {
      const min = new Array<number>(length);
      const max = new Array<number>(length);
      for (let i = 0; i < length; i++) {
        const from = Math.floor((i * fine) / length);
        const to = Math.max(from + 1, Math.floor(((i + 1) * fine) / length));
        let lo = Infinity;
        let hi = -Infinity;
        for (let j = from; j < to; j++) {
          const a = channel.min[j] ?? Infinity;
          const b = channel.max[j] ?? -Infinity;
          if (a < lo) lo = a;
          if (b > hi) hi = b;
        }
        min[i] = roundAmplitude(lo);
        max[i] = roundAmplitude(hi);
      }
      return { min, max };
    });
    return { durationSeconds, sampleRate: this.sampleRate, length, channels };
  }

  private closeBucket(): void {
    const index = this.bucketCount;
    for (const [c, channel] of this.buckets.entries()) {
      channel.ensure(index + 1);
      channel.min[index] = this.openMin[c] ?? Infinity;
      channel.max[index] = this.openMax[c] ?? -Infinity;
      this.openMin[c] = Infinity;
      this.openMax[c] = -Infinity;
    }
    this.bucketCount++;
    this.filled = 0;
    if (this.bucketCount === MAX_FINE_BUCKETS) this.mergePairs();
  }

  /** Halves the resolution: bucket k becomes buckets 2k and 2k+1 merged. */
  private mergePairs(): void {
    const half = Math.floor(this.bucketCount / 2);
    for (const channel of this.buckets) {
      for (let k = 0; k < half; k++) {
        channel.min[k] = Math.min(channel.min[2 * k] ?? Infinity, channel.min[2 * k + 1] ?? Infinity);
        channel.max[k] = Math.max(channel.max[2 * k] ?? -Infinity, channel.max[2 * k + 1] ?? -Infinity);
      }
    }
    this.bucketCount = half;
    this.bucketSamples *= 2;
  }
}
