/**
 * Query keys and functions: every read and write of the renderer goes through svelte-query
 * with these, so loading and error states come from it and there are no hand-rolled caches.
 */
import { api } from './api';

/** Query keys. Everything under a workspace id, so switching workspace cannot mix data. */
export const keys = {
  session: ['session'] as const,
  interaction: (workspaceId: string, sid: string) => ['workspace', workspaceId, 'interaction', sid] as const,
};

/** Options for the session query (current workspace and demo SIDs). */
export function sessionQuery() {
  return { queryKey: keys.session, queryFn: () => api().getSession(), staleTime: Infinity };
}

/** Options for one interaction (spec 4 endpoint 1). */
export function interactionQuery(workspaceId: string, sid: string | null) {
  return {
    queryKey: keys.interaction(workspaceId, sid ?? ''),
    queryFn: () => api().getInteraction(sid ?? ''),
    enabled: sid !== null,
  };
}
