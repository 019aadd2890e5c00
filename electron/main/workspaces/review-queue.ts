/**
 * The review queue: the calls a reviewer lined up in each workspace (pasted from a ticket, or
 * opened from several links), in the order added, each with whether it was marked reviewed. Kept
 * in `queue.json` next to settings.json, mode 0600, written atomically (writePrivateFile), so it
 * survives a restart; it holds SIDs only, no key and no transcript. An unreadable file counts as
 * empty (workspace-lists.ts): a lost queue must never stop the app.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { REVIEW_QUEUE_MAX, type QueuedCall } from '$shared/review-queue';
import { createWorkspaceListFile } from './workspace-lists';

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

/**
 * Creates the store over `<userDataDir>/queue.json`.
 * @param now the clock, in milliseconds since the Unix epoch (tests pass their own)
 */
export function createReviewQueue(userDataDir: string, now: () => number = Date.now): ReviewQueueStore {
  const file = createWorkspaceListFile<QueuedCall>(join(userDataDir, REVIEW_QUEUE_FILE), queuedCallSchema);

  return {
    list: (workspaceId) => file.list(workspaceId),
    add: (workspaceId, sids) =>
      file.change(workspaceId, (calls) => {
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
      file.change(workspaceId, (calls) => calls.map((c) => (c.sid === sid ? { ...c, reviewed } : c))),
    remove: (workspaceId, sid) => file.change(workspaceId, (calls) => calls.filter((c) => c.sid !== sid)),
    clear: (workspaceId) => file.change(workspaceId, () => []),
  };
}
