/**
 * The recent calls list: the last {@link RECENT_CALLS_MAX} interactions opened in each workspace
 * (SID, numbers, direction, start, when opened), so a call looked at yesterday can be found again
 * without its SID (the interface has no endpoint that lists interactions). Kept in
 * `recent-calls.json` next to settings.json, mode 0600, written atomically; it holds no key and
 * no transcript. An unreadable file counts as empty (workspace-lists.ts): losing the history must
 * never stop the app.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { Interaction } from '$shared/domain';
import { RECENT_CALLS_MAX, type RecentCall } from '$shared/recent-calls';
import { createWorkspaceListFile } from './workspace-lists';

/** File name of the list, in the user-data folder. */
export const RECENT_CALLS_FILE = 'recent-calls.json';

/** The interaction fields a recent call keeps. */
export type RecentCallSource = Pick<
  Interaction,
  'sid' | 'fromNumber' | 'toNumber' | 'direction' | 'status' | 'startedAtMs'
>;

/** See {@link createRecentCalls}. Methods reject only when the file cannot be written. */
export interface RecentCallsStore {
  /** Puts `interaction` first in workspace `workspaceId`'s list (once: an older entry of the SID goes). */
  record(workspaceId: string, interaction: RecentCallSource): Promise<void>;
  /** Workspace `workspaceId`'s calls, most recently opened first. */
  list(workspaceId: string): Promise<RecentCall[]>;
  /** Forgets workspace `workspaceId`'s calls (the list was cleared, or the workspace removed). */
  clear(workspaceId: string): Promise<void>;
}

const nullableString = z.string().max(200).nullable().catch(null);
const recentCallSchema = z.object({
  sid: z.string().min(1).max(200),
  fromNumber: nullableString,
  toNumber: nullableString,
  direction: nullableString,
  status: nullableString,
  startedAtMs: z.number().nullable().catch(null),
  openedAtMs: z.number(),
});

/**
 * Creates the store over `<userDataDir>/recent-calls.json`.
 * @param now the clock, in milliseconds since the Unix epoch (tests pass their own)
 */
export function createRecentCalls(userDataDir: string, now: () => number = Date.now): RecentCallsStore {
  const file = createWorkspaceListFile<RecentCall>(join(userDataDir, RECENT_CALLS_FILE), recentCallSchema);

  return {
    record: async (workspaceId, interaction) => {
      const call: RecentCall = {
        sid: interaction.sid,
        fromNumber: interaction.fromNumber,
        toNumber: interaction.toNumber,
        direction: interaction.direction,
        status: interaction.status,
        startedAtMs: interaction.startedAtMs,
        openedAtMs: now(),
      };
      await file.change(workspaceId, (calls) =>
        [call, ...calls.filter((c) => c.sid !== call.sid)].slice(0, RECENT_CALLS_MAX),
      );
    },
    list: async (workspaceId) => [...(await file.list(workspaceId))].sort((a, b) => b.openedAtMs - a.openedAtMs),
    clear: async (workspaceId) => {
      await file.change(workspaceId, () => []);
    },
  };
}
