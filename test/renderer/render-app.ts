/**
 * Renders the whole app as the window shows it (Root -> App) over a fake `window.api`
 * ({@link installFakeApi}), with a user-event session to drive it.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { SessionInfo } from '$shared/contract';
import Root from '../../renderer/src/Root.svelte';
import { installFakeApi, ok, type Replies } from './fake-api';

/** A user-event session, as `userEvent.setup()` returns it. */
export type User = ReturnType<typeof userEvent.setup>;

/** Renders the app whose `getSession` answers `session`; other methods answer `replies`. */
export function renderApp(session: SessionInfo, replies: Replies = {}) {
  const fake = installFakeApi({ getSession: ok(session), ...replies });
  const user = userEvent.setup();
  render(Root);
  return { fake, user };
}

/** {@link renderApp} with a workspace active, then waits for its Calls view. */
export async function renderWorkspace(session: SessionInfo, replies: Replies = {}) {
  const app = renderApp(session, replies);
  await screen.findByRole('textbox', { name: 'Interaction SID' });
  return app;
}

/** Goes to a section of the workspace ("Phones", "SIP trunks", "Webhooks", "Calls"). */
export async function goToSection(user: User, name: string): Promise<void> {
  await user.click(within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('button', { name }));
}
