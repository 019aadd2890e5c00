/**
 * How a new session replaces the old one in the svelte-query cache: switching workspace drops
 * every workspace's data, a change within one workspace keeps it.
 */
import type { QueryClient } from '@tanstack/svelte-query';
import type { SessionInfo } from '$shared/contract';
import { keys } from '../queries';

/** Prefix of every workspace's cached data (see lib/queries.ts `keys`). */
const WORKSPACE_DATA = ['workspace'] as const;

/**
 * Shows a session that belongs to another workspace, or to a new connection (switch, add, open
 * demo, disconnect): every workspace's cached data is dropped first, then the new session is
 * stored, so no account's data is ever shown under another workspace's name. Both happen in the same tick, before
 * Svelte renders again.
 */
export function showSessionOfAnotherWorkspace(client: QueryClient, info: SessionInfo): void {
  client.removeQueries({ queryKey: WORKSPACE_DATA });
  client.setQueryData(keys.session, info);
}

/**
 * Shows a session that keeps the same workspace (rename, new key, preferences, key storage,
 * removal of another workspace). If the active workspace changed anyway, it behaves as
 * {@link showSessionOfAnotherWorkspace}; data of workspaces no longer saved is dropped.
 */
export function showSession(client: QueryClient, info: SessionInfo): void {
  const previous = client.getQueryData<SessionInfo>(keys.session);
  if ((previous?.workspace?.id ?? null) !== (info.workspace?.id ?? null)) {
    showSessionOfAnotherWorkspace(client, info);
    return;
  }
  const saved = new Set(info.workspaces.map((w) => w.id));
  for (const w of previous?.workspaces ?? []) {
    if (!saved.has(w.id)) client.removeQueries({ queryKey: keys.workspace(w.id) });
  }
  client.setQueryData(keys.session, info);
}

/**
 * After a workspace's key was replaced (e.g. re-entered after the service rejected it): stores the new
 * session and marks that workspace's data stale so the views showing it load again with the new
 * key. Nothing is removed from the cache.
 */
export function showSessionAfterKeyChange(client: QueryClient, workspaceId: string, info: SessionInfo): void {
  showSession(client, info);
  void client.invalidateQueries({ queryKey: keys.workspace(workspaceId) });
}
