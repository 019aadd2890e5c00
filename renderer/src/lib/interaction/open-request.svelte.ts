/**
 * A request to show a call from outside the Calls view's own lookup box: a
 * `voice-review://interactions/<sid>?t=<seconds>` link handed over by main, or a recent call
 * picked elsewhere. The producer calls {@link requestOpenInteraction}; the workspace view brings
 * the Calls view to the front and the Calls view shows the call (both read {@link openCallRequests})
 * with the playhead at `atSeconds`, not playing.
 */
import { RequestChannel, type Request } from '../request-channel.svelte';

/** What a request to show a call carries. */
export interface OpenCall {
  /** Interaction SID, already validated by the link parser. */
  sid: string;
  /** Where to put the playhead, in seconds from the start of the recording (playback does not start); null for 0. */
  atSeconds: number | null;
  /** A sentence to show with the call (e.g. the link named a workspace that does not exist here), or null. */
  note: string | null;
}

/** One request to show a call; its `id` lets the player tell a repeated request from the last. */
export type OpenCallRequest = Request<OpenCall>;

/** The page's requests to show a call. */
export const openCallRequests = new RequestChannel<OpenCall>();

/**
 * Asks the Calls view to show call `sid`, seeked to `atSeconds` (seconds) when given.
 * @returns the request made (its `id` lets the caller tell it apart from later ones)
 */
export function requestOpenInteraction(
  sid: string,
  atSeconds: number | null = null,
  note: string | null = null,
): OpenCallRequest {
  return openCallRequests.send({ sid, atSeconds, note });
}
