/**
 * The benchmark's statistics: medians and percentiles of samples, and paired ratios, the figure
 * every target is judged on. A paired ratio divides what one subject (the app) measured in a run
 * by what its reference measured in the same run, back to back; the summary is the median of
 * those per-run ratios with their range (min–max) and count. One slow run of either side then
 * moves one ratio, not the whole figure.
 * Inputs are plain numbers; NaN and infinite values are ignored.
 */

/** Median, or NaN for no values. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** The p-th percentile (0..100) by linear interpolation between closest ranks, or NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/** How the samples of one run are reduced to the run's figure. */
export type RunStat = 'median' | 'p95';

/** Reduces one run's samples to its figure (`p95` = 95th percentile). NaN for no samples. */
export function reduceRun(values: readonly number[], stat: RunStat): number {
  return stat === 'median' ? median(values) : percentile(values, 95);
}

/** Median of per-run ratios, their range and how many runs had both sides. */
export interface RatioSummary {
  /** Median of the per-run ratios; NaN when no run had both sides. */
  median: number;
  min: number;
  max: number;
  /** Runs with a finite ratio. */
  n: number;
  /** The per-run ratios, in run order. */
  ratios: number[];
}

/**
 * Paired ratios: for every run present in both maps (run number -> that run's figure), the
 * subject's figure divided by the reference's. A run whose ratio is not finite (a side missing,
 * zero or NaN) is left out.
 */
export function pairedRatios(
  subject: ReadonlyMap<number, number>,
  reference: ReadonlyMap<number, number>,
): RatioSummary {
  const ratios: number[] = [];
  for (const run of [...subject.keys()].sort((a, b) => a - b)) {
    const ratio = subject.get(run)! / (reference.get(run) ?? Number.NaN);
    if (Number.isFinite(ratio)) ratios.push(ratio);
  }
  return summarize(ratios);
}

/** The summary of ratios already computed (one per run). */
export function summarize(ratios: readonly number[]): RatioSummary {
  const finite = ratios.filter((r) => Number.isFinite(r));
  return {
    median: median(finite),
    min: finite.length ? Math.min(...finite) : Number.NaN,
    max: finite.length ? Math.max(...finite) : Number.NaN,
    n: finite.length,
    ratios: finite,
  };
}

/** A target's verdict; NOT RUN when no run measured both sides. */
export type Verdict = 'PASS' | 'FAIL' | 'inconclusive' | 'NOT RUN';

/**
 * Verdict of "ratio <= limit": inconclusive when the range straddles the limit (some runs under
 * it, some over), otherwise PASS or FAIL on the median (which then agrees with every run).
 */
export function verdictAtMost(summary: RatioSummary, limit: number): Verdict {
  if (summary.n === 0) return 'NOT RUN';
  if (summary.min <= limit && summary.max > limit) return 'inconclusive';
  return summary.median <= limit ? 'PASS' : 'FAIL';
}

/** The band every median ratio of a build against itself should fall in (the self-check). */
export const SELF_CHECK_BAND = { low: 0.85, high: 1.15 } as const;

/** True when a build-against-itself ratio's median lies within {@link SELF_CHECK_BAND} (inclusive). */
export function steadyInSelfCheck(summary: RatioSummary): boolean {
  return summary.n > 0 && summary.median >= SELF_CHECK_BAND.low && summary.median <= SELF_CHECK_BAND.high;
}

/** How far a ratio is from 1 on a log scale (0.8x and 1.25x are equally far). */
export function distanceFromOne(ratio: number): number {
  return Math.abs(Math.log(ratio));
}

/**
 * Of named summaries, the one whose median is furthest from 1 (the "widest" of a self-check), or
 * null when none has a median.
 */
export function widest<T extends { summary: RatioSummary }>(items: readonly T[]): T | null {
  let best: T | null = null;
  for (const item of items) {
    if (!Number.isFinite(item.summary.median)) continue;
    if (!best || distanceFromOne(item.summary.median) > distanceFromOne(best.summary.median)) best = item;
  }
  return best;
}

/**
 * How a new build compares with an old one on a figure where lower is better (times, memory):
 * "lower" when every run's new/old ratio is under 1, "higher" when every one is over 1, otherwise
 * "within range" (the runs disagree, so the difference is not shown by this run).
 */
export function direction(summary: RatioSummary): 'lower' | 'higher' | 'within range' | 'not run' {
  if (summary.n === 0) return 'not run';
  if (summary.max < 1) return 'lower';
  if (summary.min > 1) return 'higher';
  return 'within range';
}
