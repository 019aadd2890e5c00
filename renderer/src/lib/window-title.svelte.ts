/**
 * The window's title: the interaction shown and the active workspace, e.g.
 * "interaction_1b4e28ba… — Production — Voice Review" (Electron shows the page's title as the
 * window's). The Calls view says which call it shows with {@link setShownInteraction}; the
 * app puts {@link windowTitle} on `document.title`.
 */

const state = $state<{ sid: string | null }>({ sid: null });

/** Says which interaction the window shows now (its SID), or null when none. */
export function setShownInteraction(sid: string | null): void {
  state.sid = sid;
}

/** The SID last given to {@link setShownInteraction} (reactive: read it in an effect or a derived). */
export function shownInteraction(): string | null {
  return state.sid;
}

/** Characters of an interaction SID kept in the title: `interaction_` and the UUID's first group. */
const SHORT_SID_LENGTH = 'interaction_'.length + 8;

/**
 * The window title for a workspace name and a SID (either may be null).
 * @returns e.g. "interaction_1b4e28ba… — Production — Voice Review", or "Voice Review" alone
 */
export function windowTitle(workspaceName: string | null, sid: string | null): string {
  const shortSid = sid === null ? null : sid.length > SHORT_SID_LENGTH ? `${sid.slice(0, SHORT_SID_LENGTH)}…` : sid;
  return [shortSid, workspaceName, 'Voice Review'].filter((part) => part !== null).join(' — ');
}
