/**
 * What opening a `voice-review://` link means in this app's state: a link names a call and maybe
 * a workspace; the call is shown in the active workspace when the link names it (or none), after
 * asking when the link names another saved workspace (a link never switches workspaces silently),
 * and in the active workspace with a note when the named workspace is not set up here.
 */
import type { SessionInfo, WorkspaceInfo } from '$shared/contract';
import type { InteractionLink } from '$shared/deep-link';

/**
 * - `open`: show the call in the active workspace, with `note` (or null) beside it;
 * - `ask-switch`: the link names `workspace`, a saved workspace that is not the active one; ask
 *   before switching to it;
 * - `cannot-open`: no workspace is active and none is named; `message` says what to do.
 */
export type LinkPlan =
  | { kind: 'open'; note: string | null }
  | { kind: 'ask-switch'; workspace: WorkspaceInfo }
  | { kind: 'cannot-open'; message: string };

/**
 * The saved workspace a link's name means: the one with exactly that name, else the only one
 * whose name matches ignoring letter case; null when none (or several) match.
 */
export function findNamedWorkspace(session: SessionInfo, name: string): WorkspaceInfo | null {
  const exact = session.workspaces.find((w) => w.name === name);
  if (exact) return exact;
  const fold = (text: string) => text.normalize('NFC').toLocaleLowerCase();
  const loose = session.workspaces.filter((w) => fold(w.name) === fold(name));
  return loose.length === 1 ? (loose[0] ?? null) : null;
}

/** Decides what to do with `link` given the current `session` (see {@link LinkPlan}). */
export function planLinkOpen(link: InteractionLink, session: SessionInfo): LinkPlan {
  const active = session.workspace;
  const named = link.workspaceName === null ? null : findNamedWorkspace(session, link.workspaceName);
  if (named && named.id !== active?.id) return { kind: 'ask-switch', workspace: named };
  if (active) {
    const note =
      link.workspaceName !== null && !named
        ? `The link names workspace “${link.workspaceName}”, which is not set up here; showing the call in “${active.name}”.`
        : null;
    return { kind: 'open', note };
  }
  const first =
    link.workspaceName === null
      ? 'No workspace is open.'
      : `The link names workspace “${link.workspaceName}”, which is not set up here.`;
  return { kind: 'cannot-open', message: `${first} Open or add a workspace, then open the link again.` };
}
