/**
 * A request to show a call from outside the Calls view's own lookup box: a
 * `voice-review://interactions/<sid>?t=<seconds>` link handed over by main, or a recent call
 * picked elsewhere. The producer calls {@link requestOpenInteraction}; the Calls view reads
 * {@link openRequest} reactively, shows the call (the view is brought to the front by whoever
 * asked) and, once the recording can play, seeks to `atSeconds` and plays.
 */

/** One request to show a call. `id` grows with every request, so asking twice for the same call acts twice. */
export interface OpenInteractionRequest {
  id: number;
  /** Interaction SID, already validated by the link parser. */
  sid: string;
  /** Where to start playback, in seconds from the start of the recording; null to start at 0 without playing. */
  atSeconds: number | null;
  /** A sentence to show with the call (e.g. the link named a workspace that does not exist here), or null. */
  note: string | null;
}

const state = $state<{ current: OpenInteractionRequest | null }>({ current: null });
let nextId = 1;

/** The latest request, or null before any (read it inside an effect or a derived to follow it). */
export function openRequest(): OpenInteractionRequest | null {
  return state.current;
}

/**
 * Asks the Calls view to show call `sid`, seeked to `atSeconds` (seconds) when given.
 * @returns the request made (its `id` lets the caller tell it apart from later ones)
 */
export function requestOpenInteraction(
  sid: string,
  atSeconds: number | null = null,
  note: string | null = null,
): OpenInteractionRequest {
  const request = { id: nextId++, sid, atSeconds, note };
  state.current = request;
  return request;
}
