/** The recent calls list, as main keeps it per workspace and the renderer shows it. */

/** A call opened in a workspace, as the recent calls list keeps it (no transcript, no key). */
export interface RecentCall {
  /** Interaction SID (spec 2). */
  sid: string;
  /** E.164 numbers as the server sent them, or null. */
  fromNumber: string | null;
  toNumber: string | null;
  /** Open set: `inbound` is one value. */
  direction: string | null;
  /** Status as the server sent it (open set: `completed`, `failed`…), or null. */
  status: string | null;
  /** Start of the call, in milliseconds since the Unix epoch, or null. */
  startedAtMs: number | null;
  /** When it was last opened in Voice Review, in milliseconds since the Unix epoch. */
  openedAtMs: number;
}

/** Most calls kept per workspace. */
export const RECENT_CALLS_MAX = 50;
