/**
 * Which transcript entry is "current" at a playback time, and which timed entry comes next.
 */
import type { LogEntry } from '$shared/domain';

/**
 * Index (into `log`) of the last entry whose offset is at or before `timeSeconds`, by binary
 * search; -1 before the first timed entry. `log` must be sorted by offset, which the API client
 * guarantees (entries without an offset keep their place and are skipped over).
 * @param log transcript sorted by `offsetSeconds`
 * @param timeSeconds playback time in seconds
 */
export function activeEntryIndex(log: readonly LogEntry[], timeSeconds: number): number {
  let lo = 0;
  let hi = log.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (offsetAtOrBefore(log, mid) <= timeSeconds) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  // Step back over untimed entries so the highlight lands on an entry that has a time.
  while (found >= 0 && log[found]?.offsetSeconds === null) found -= 1;
  return found;
}

/**
 * Index (into `log`) of the first entry with a time after (`step` 1) or before (`step` -1)
 * position `from`, or null when there is none. `from` may be -1 or `log.length` to start at
 * either end.
 */
export function adjacentTimedEntry(log: readonly LogEntry[], from: number, step: 1 | -1): number | null {
  for (let i = from + step; i >= 0 && i < log.length; i += step) {
    if (log[i]?.offsetSeconds !== null) return i;
  }
  return null;
}

/**
 * The offset of entry `i`, or of the closest timed entry before it (untimed entries inherit);
 * -Infinity when no timed entry precedes it, so leading untimed entries sort first.
 */
function offsetAtOrBefore(log: readonly LogEntry[], i: number): number {
  for (let j = i; j >= 0; j -= 1) {
    const o = log[j]?.offsetSeconds;
    if (o !== null && o !== undefined) return o;
  }
  return Number.NEGATIVE_INFINITY;
}
