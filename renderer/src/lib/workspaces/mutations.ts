/**
 * The two writes that change which workspace is active from anywhere in the app: switching to a
 * saved workspace and opening the demo workspace. Both show the new session with every
 * workspace's cached data dropped first, and both share one flight: while one runs (from the
 * header, Settings, the Connect screen or the start-up problem screen), the others refuse to start.
 */
import { useQueryClient } from '@tanstack/svelte-query';
import type { SessionInfo } from '$shared/contract';
import { openDemoMutation, switchWorkspaceMutation } from '../queries';
import { createSingleFlightMutation, type SingleFlightMutation } from '../single-flight';
import { showSessionOfAnotherWorkspace } from './session-cache';

/**
 * Name of the flight shared by every write that changes the active workspace: switching, opening
 * the demo, connecting a new workspace, and replacing a workspace's key.
 */
export const ACTIVE_WORKSPACE_FLIGHT = 'active-workspace';

/**
 * Switching to a saved workspace; `submit(id)` takes the workspace id. Call during component
 * initialisation.
 * @param onSwitched runs after the new session is shown (e.g. to close Settings or say so)
 */
export function useSwitchWorkspace(
  onSwitched?: (info: SessionInfo) => void,
): SingleFlightMutation<SessionInfo, Error, string> {
  const queryClient = useQueryClient();
  return createSingleFlightMutation(
    () => ({
      ...switchWorkspaceMutation(),
      onSuccess: (info: SessionInfo) => {
        showSessionOfAnotherWorkspace(queryClient, info);
        onSwitched?.(info);
      },
    }),
    ACTIVE_WORKSPACE_FLIGHT,
  );
}

/** Opening the built-in demo workspace; `submit()` takes nothing. Call during component initialisation. */
export function useOpenDemo(): SingleFlightMutation<SessionInfo, Error, void> {
  const queryClient = useQueryClient();
  return createSingleFlightMutation(
    () => ({
      ...openDemoMutation(),
      onSuccess: (info: SessionInfo) => showSessionOfAnotherWorkspace(queryClient, info),
    }),
    ACTIVE_WORKSPACE_FLIGHT,
  );
}
