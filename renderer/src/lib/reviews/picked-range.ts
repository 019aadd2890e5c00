/**
 * The stretch of the recording that transcript entries picked for an excerpt cover: from the
 * first picked entry's time to the next timed entry after the last picked one (or the end of the
 * recording), in seconds.
 */
import type { LogEntry } from '$shared/domain';

/** @returns the range, or null when nothing timed is picked */
export function pickedRange(
  picked: readonly LogEntry[],
  log: readonly LogEntry[],
  durationSeconds: number | null,
): { startSeconds: number; endSeconds: number } | null {
  const times = picked.map((e) => e.offsetSeconds).filter((t): t is number => t !== null && Number.isFinite(t));
  if (times.length === 0) return null;
  const start = Math.min(...times);
  const lastPicked = Math.max(...times);
  const after = log
    .map((e) => e.offsetSeconds)
    .filter((t): t is number => t !== null && Number.isFinite(t) && t > lastPicked)
    .sort((a, b) => a - b)[0];
  const end = after ?? durationSeconds ?? lastPicked + 5;
  return end > start ? { startSeconds: start, endSeconds: end } : null;
}
