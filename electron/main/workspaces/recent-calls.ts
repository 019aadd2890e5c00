/**
 * The recent calls list: the last {@link RECENT_CALLS_MAX} interactions opened in each workspace
 * (SID, numbers, direction, start, when opened), so a call looked at yesterday can be found again
 * without its SID (the interface has no endpoint that lists interactions). Kept in
 * `recent-calls.json` next to settings.json, mode 0600, written atomically; it holds no key and
 * no transcript. A file that cannot be read or parsed counts as empty (and is replaced at the next
 * write): losing the history must never stop the app.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Interaction } from '$shared/domain';
import { RECENT_CALLS_MAX, type RecentCall } from '$shared/recent-calls';
import { writePrivateFile } from '../shell/private-file';

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

/** The file; an unreadable call is dropped, not the whole workspace. */
const fileSchema = z.object({
  version: z.literal(1),
  workspaces: z.record(
    z.string(),
    z.array(z.unknown()).transform((calls) =>
      calls.flatMap((c) => {
        const parsed = recentCallSchema.safeParse(c);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
  ),
});

type RecentCallsFile = z.output<typeof fileSchema>;

/**
 * Creates the store over `<userDataDir>/recent-calls.json`.
 * @param now the clock, in milliseconds since the Unix epoch (tests pass their own)
 */
export function createRecentCalls(userDataDir: string, now: () => number = Date.now): RecentCallsStore {
  const path = join(userDataDir, RECENT_CALLS_FILE);
  /** Changes run one after another, so two quick opens cannot lose one another. */
  let queue: Promise<unknown> = Promise.resolve();

  async function read(): Promise<RecentCallsFile> {
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Missing or not JSON: start afresh.
    }
    return { version: 1, workspaces: {} };
  }

  function change(edit: (file: RecentCallsFile) => void): Promise<void> {
    const next = queue.then(async () => {
      const file = await read();
      edit(file);
      await writePrivateFile(path, `${JSON.stringify(file, null, 2)}\n`);
    });
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    record: (workspaceId, interaction) =>
      change((file) => {
        const call: RecentCall = {
          sid: interaction.sid,
          fromNumber: interaction.fromNumber,
          toNumber: interaction.toNumber,
          direction: interaction.direction,
          status: interaction.status,
          startedAtMs: interaction.startedAtMs,
          openedAtMs: now(),
        };
        const others = (file.workspaces[workspaceId] ?? []).filter((c) => c.sid !== call.sid);
        file.workspaces[workspaceId] = [call, ...others].slice(0, RECENT_CALLS_MAX);
      }),
    list: async (workspaceId) => {
      await queue;
      return [...((await read()).workspaces[workspaceId] ?? [])].sort((a, b) => b.openedAtMs - a.openedAtMs);
    },
    clear: (workspaceId) =>
      change((file) => {
        file.workspaces = Object.fromEntries(Object.entries(file.workspaces).filter(([id]) => id !== workspaceId));
      }),
  };
}
