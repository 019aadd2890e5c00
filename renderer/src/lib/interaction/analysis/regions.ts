/**
 * Transcript entries as role-coloured stretches of the waveform.
 */
import type { LogEntry } from '$shared/domain';
import { roleWord, speakerKind } from '$shared/speakers';
import type { RoleRegion } from './types';

export { speakerKind };

/**
 * The word the app's screens use for an entry's role: "Caller" for every caller role (`user`,
 * `customer`, `caller`) and "Agent" for the agent's, as the waveform legend says; other roles
 * humanized ("Tool", "System"). Exported files keep the role as the server sent it.
 */
export const speakerLabel: (role: string) => string = roleWord;

/**
 * One region per timed entry, from its `offsetSeconds` to the next timed entry's (the last one to
 * `durationSeconds`), clamped to [0, durationSeconds]. Entries without a time get none, and a
 * region of zero or negative length (two entries at the same time, or one at or past the end of
 * the recording) is skipped. O(entries).
 * @param log transcript sorted by `offsetSeconds` (untimed entries anywhere)
 * @param durationSeconds length of the recording in seconds
 */
export function buildRoleRegions(log: readonly LogEntry[], durationSeconds: number): RoleRegion[] {
  const end = Number.isFinite(durationSeconds) ? Math.max(0, durationSeconds) : 0;
  const timed = log.filter((e) => e.offsetSeconds !== null);
  const regions: RoleRegion[] = [];
  timed.forEach((entry, i) => {
    const next = timed[i + 1]?.offsetSeconds ?? end;
    const startSeconds = clamp(entry.offsetSeconds ?? 0, end);
    const endSeconds = clamp(next, end);
    if (endSeconds <= startSeconds) return;
    regions.push({
      entryIndex: entry.index,
      kind: speakerKind(entry.role),
      roleLabel: speakerLabel(entry.role),
      text: entry.message,
      startSeconds,
      endSeconds,
    });
  });
  return regions;
}

function clamp(seconds: number, end: number): number {
  return Math.min(end, Math.max(0, seconds));
}
