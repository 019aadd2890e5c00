/** The review queue, as main keeps it per workspace and the renderer shows it. */

/** A call lined up for review in a workspace. */
export interface QueuedCall {
  /** Interaction SID (spec 2). */
  sid: string;
  /** True once the reviewer marked the call reviewed. */
  reviewed: boolean;
  /** When it was added to the queue, in milliseconds since the Unix epoch. */
  addedAtMs: number;
}

/** Most calls a workspace's queue holds; SIDs past it are not added. */
export const REVIEW_QUEUE_MAX = 200;
