/**
 * The review queue: the calls a reviewer lined up in each workspace (pasted from a ticket, or
 * opened from several links), in the order added, each with whether it was marked reviewed. Kept
 * in `queue.json` next to settings.json, mode 0600, written atomically (writePrivateFile), so it
 * survives a restart; it holds SIDs only, no key and no transcript. A file that cannot be read or
 * parsed counts as empty (and is replaced at the next write): a lost queue must never stop the app.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { REVIEW_QUEUE_MAX, type QueuedCall } from '$shared/review-queue';
import { writePrivateFile } from '../shell/private-file';

/** File name of the queue, in the user-data folder. */
export const REVIEW_QUEUE_FILE = 'queue.json';

/**
 * See {@link createReviewQueue}. Each method returns workspace `workspaceId`'s queue as it is
 * afterwards, in the order added; changes reject only when the file cannot be written.
 */
export interface ReviewQueueStore {
  list(workspaceId: string): Promise<QueuedCall[]>;
  /** Appends the SIDs not queued yet, in the order given, up to {@link REVIEW_QUEUE_MAX} in all. */
  add(workspaceId: string, sids: readonly string[]): Promise<QueuedCall[]>;
  /** Marks `sid` reviewed (or not); an SID not in the queue changes nothing. */
  setReviewed(workspaceId: string, sid: string, reviewed: boolean): Promise<QueuedCall[]>;
  remove(workspaceId: string, sid: string): Promise<QueuedCall[]>;
  /** Empties the workspace's queue (also when the workspace is removed). */
  clear(workspaceId: string): Promise<QueuedCall[]>;
}

const queuedCallSchema = z.object({
  sid: z.string().min(1).max(200),
  reviewed: z.boolean().catch(false),
  addedAtMs: z.number().catch(0),
});

/** The file; an unreadable entry is dropped, not the whole queue. */
const fileSchema = z.object({
  version: z.literal(1),
  workspaces: z.record(
    z.string(),
    z.array(z.unknown()).transform((calls) =>
      calls.flatMap((c) => {
        const parsed = queuedCallSchema.safeParse(c);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
  ),
});

type QueueFile = z.output<typeof fileSchema>;

/**
 * Creates the store over `<userDataDir>/queue.json`.
 * @param now the clock, in milliseconds since the Unix epoch (tests pass their own)
 */
export function createReviewQueue(userDataDir: string, now: () => number = Date.now): ReviewQueueStore {
  const path = join(userDataDir, REVIEW_QUEUE_FILE);
  /** Changes run one after another, so two quick changes cannot lose one another. */
  let pending: Promise<unknown> = Promise.resolve();

  async function read(): Promise<QueueFile> {
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Missing or not JSON: start afresh.
    }
    return { version: 1, workspaces: {} };
  }

  function change(workspaceId: string, edit: (calls: QueuedCall[]) => QueuedCall[]): Promise<QueuedCall[]> {
    const next = pending.then(async () => {
      const file = await read();
      const calls = edit(file.workspaces[workspaceId] ?? []);
      file.workspaces = Object.fromEntries(
        Object.entries({ ...file.workspaces, [workspaceId]: calls }).filter(([, kept]) => kept.length > 0),
      );
      await writePrivateFile(path, `${JSON.stringify(file, null, 2)}\n`);
      return calls;
    });
    pending = next.catch(() => undefined);
    return next;
  }

  return {
    list: async (workspaceId) => {
      await pending;
      return (await read()).workspaces[workspaceId] ?? [];
    },
    add: (workspaceId, sids) =>
      change(workspaceId, (calls) => {
        const known = new Set(calls.map((c) => c.sid));
        const added: QueuedCall[] = [];
        for (const sid of sids) {
          if (known.has(sid)) continue;
          known.add(sid);
          added.push({ sid, reviewed: false, addedAtMs: now() });
        }
        return [...calls, ...added].slice(0, REVIEW_QUEUE_MAX);
      }),
    setReviewed: (workspaceId, sid, reviewed) =>
      change(workspaceId, (calls) => calls.map((c) => (c.sid === sid ? { ...c, reviewed } : c))),
    remove: (workspaceId, sid) => change(workspaceId, (calls) => calls.filter((c) => c.sid !== sid)),
    clear: (workspaceId) => change(workspaceId, () => []),
  };
}
