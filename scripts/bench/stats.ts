/** Small statistics for the benchmark. Inputs are plain numbers; NaN values are ignored. */

/** Median, or NaN for no values. */
export function median(values: number[]): number {
  return percentile(values, 50);
}

/** The p-th percentile (0..100) by linear interpolation between closest ranks, or NaN for no values. */
export function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}
