/**
 * Finding one's way among a call's flagged moments (slow replies, talk-over, long silences):
 * the next or previous one from a playback time, and those of each transcript entry.
 */
import type { FlaggedMoment } from './analysis/types';

/** How far into a flagged moment playback may be for "previous" to go to the one before it, in seconds. */
const PREVIOUS_FLAG_GRACE_SECONDS = 1;
/** How close two times must be to count as the same moment, in seconds. */
const SAME_TIME_SECONDS = 0.05;

/**
 * The flagged moment after (1) or before (-1) `timeSeconds`, or null when there is none.
 * "Before" skips the moment playback is just inside (less than a second in), as a player's
 * "previous" does, so pressing it twice moves back twice.
 * @param flags sorted by `startSeconds`
 */
export function adjacentFlag(
  flags: readonly FlaggedMoment[],
  timeSeconds: number,
  direction: 1 | -1,
): FlaggedMoment | null {
  if (direction === 1) return flags.find((f) => f.startSeconds > timeSeconds + SAME_TIME_SECONDS) ?? null;
  return flags.findLast((f) => f.startSeconds < timeSeconds - PREVIOUS_FLAG_GRACE_SECONDS) ?? null;
}

/** Flagged moments that belong to an entry, grouped by `LogEntry.index` (time order kept). */
export function flagsByEntry(flags: readonly FlaggedMoment[]): Map<number, FlaggedMoment[]> {
  const byEntry = new Map<number, FlaggedMoment[]>();
  for (const flag of flags) {
    if (flag.entryIndex === null) continue;
    const list = byEntry.get(flag.entryIndex);
    if (list) list.push(flag);
    else byEntry.set(flag.entryIndex, [flag]);
  }
  return byEntry;
}
