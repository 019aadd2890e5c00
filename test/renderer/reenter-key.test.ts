/**
 * A rejected key (the view says the key was rejected and offers to re-enter it for this
 * workspace; nothing else is cleared) and a workspace that could not be restored at start
 * (contract `SessionInfo.restoreProblem`), as the app shows them (Root -> App), over a fake
 * `window.api`.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '$shared/contract';
import type { ApiErrorData } from '$shared/errors';
import {
  demoSession,
  deferred,
  fail,
  interaction,
  ok,
  phone,
  PRODUCTION,
  STAGING,
  twoWorkspacesSession,
  type Replies,
} from './fake-api';
import { renderApp, renderWorkspace } from './render-app';

type User = ReturnType<typeof userEvent.setup>;

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const REJECTED: ApiErrorData = {
  kind: 'unauthorized',
  status: 401,
  message: 'The API key was rejected by api.example.com (HTTP 401).',
};

function openApp(replies: Replies = {}, session: SessionInfo = twoWorkspacesSession()) {
  return renderWorkspace(session, replies);
}

async function section(user: User, name: string) {
  await user.click(within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('button', { name }));
}

describe('401: re-enter the API key', () => {
  it('names the workspace whose key was rejected and offers "Re-enter API key"; success loads the view again', async () => {
    const { fake, user } = await openApp({
      listPhones: fail(REJECTED),
      changeWorkspaceKey: ok(twoWorkspacesSession()),
    });
    await section(user, 'Phones');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The phones could not be loaded');
    expect(alert).toHaveTextContent('The API key was rejected by api.example.com (HTTP 401).');
    expect(alert).toHaveTextContent('The API key saved for workspace “Production” was rejected.');

    await user.click(within(alert).getByRole('button', { name: 'Re-enter API key' }));
    const dialog = screen.getByRole('dialog', { name: 'Re-enter the API key for Production' });
    const field = within(dialog).getByLabelText('API key');
    expect(field).toHaveAttribute('type', 'password');
    expect(field).toHaveFocus();

    fake.reply('listPhones', ok([phone('Front desk', '+14155550100')]));
    await user.type(field, 'sk-current{Enter}');

    expect(fake.calls.changeWorkspaceKey).toEqual([[PRODUCTION.id, 'sk-current']]);
    expect(await screen.findByRole('button', { name: 'Open Front desk' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fake.calls.listPhones).toHaveLength(2);
  });

  it('clears nothing else: a call already shown stays on screen while the workspace reloads', async () => {
    const { fake, user } = await openApp({
      getInteraction: ok(interaction({ sid: SID, direction: 'inbound' })),
      listPhones: fail(REJECTED),
      changeWorkspaceKey: ok(twoWorkspacesSession()),
    });
    await user.click(screen.getByRole('textbox', { name: 'Interaction SID' }));
    await user.paste(SID);
    await user.click(screen.getByRole('button', { name: 'Show call' }));
    await screen.findByRole('heading', { name: 'Inbound call' });

    // The next read of the call stays pending: if the cache had been cleared, the call would vanish.
    const callAgain = deferred<ReturnType<typeof interaction>>();
    fake.reply('getInteraction', callAgain);
    await section(user, 'Phones');
    await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Re-enter API key' }));
    fake.reply('listPhones', ok([]));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('API key'), 'sk-current{Enter}');
    await screen.findByText('This account has no phone numbers yet.');

    await section(user, 'Calls');
    expect(screen.getByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Interaction SID' })).toHaveValue(SID);
  });

  it('a key that is rejected again keeps what was typed, in the open dialog, with the reason', async () => {
    const { user } = await openApp({
      listPhones: fail(REJECTED),
      changeWorkspaceKey: fail({
        kind: 'unauthorized',
        status: 401,
        message: 'api.example.com rejected this key too (HTTP 401).',
      }),
    });
    await section(user, 'Phones');
    await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Re-enter API key' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('API key'), 'sk-also-wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Test and save key' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('rejected this key too');
    expect(within(dialog).getByLabelText('API key')).toHaveValue('sk-also-wrong');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('Cancel and Escape close the dialog without sending anything', async () => {
    const { fake, user } = await openApp({ listPhones: fail(REJECTED) });
    await section(user, 'Phones');
    const reenter = within(await screen.findByRole('alert')).getByRole('button', { name: 'Re-enter API key' });

    await user.click(reenter);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(reenter);
    await user.type(within(screen.getByRole('dialog')).getByLabelText('API key'), 'sk-half');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fake.calls.changeWorkspaceKey).toHaveLength(0);
  });

  it('other errors offer Retry only', async () => {
    await openApp({
      listPhones: fail({ kind: 'network', message: 'Could not reach api.example.com: connection refused.' }),
    }).then(({ user }) => section(user, 'Phones'));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(within(alert).queryByRole('button', { name: 'Re-enter API key' })).not.toBeInTheDocument();
  });

  it('shows a "not found in workspace" message as main gives it', async () => {
    const message = `${SID} was not found in workspace Production.`;
    const { user } = await openApp({ getInteraction: fail({ kind: 'not_found', status: 404, message }) });
    await user.click(screen.getByRole('textbox', { name: 'Interaction SID' }));
    await user.paste(SID);
    await user.click(screen.getByRole('button', { name: 'Show call' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('is not offered for the demo workspace, whose key the app manages', async () => {
    const { user } = await openApp({ listPhones: fail(REJECTED) }, demoSession());
    await section(user, 'Phones');
    const alert = await screen.findByRole('alert');
    expect(within(alert).queryByRole('button', { name: 'Re-enter API key' })).not.toBeInTheDocument();
  });
});

describe('A workspace that could not be restored at start', () => {
  const problem: SessionInfo['restoreProblem'] = {
    workspaceId: PRODUCTION.id,
    error: { kind: 'keychain', message: 'The API key of Production is not in the system keychain. Enter it again.' },
  };
  const atStart = (): SessionInfo => ({ ...twoWorkspacesSession(null), restoreProblem: problem });

  async function openAtStart(replies: Replies = {}) {
    const app = renderApp(atStart(), replies);
    await screen.findByRole('heading', { name: '“Production” could not be opened' });
    return app;
  }

  it('names the workspace, shows why, and re-entering the key opens it', async () => {
    const { fake, user } = await openAtStart({ changeWorkspaceKey: ok(twoWorkspacesSession(PRODUCTION.id)) });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The API key of Production is not in the system keychain. Enter it again.',
    );

    await user.type(screen.getByLabelText('API key'), 'sk-prod');
    await user.click(screen.getByRole('button', { name: 'Test key and open' }));

    expect(fake.calls.changeWorkspaceKey).toEqual([[PRODUCTION.id, 'sk-prod']]);
    expect(await screen.findByRole('textbox', { name: 'Interaction SID' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Current workspace')).getByText('Production')).toBeInTheDocument();
    expect(fake.calls.switchWorkspace).toHaveLength(0);
  });

  it('opens the workspace itself when main saved the key but left it inactive', async () => {
    const { fake, user } = await openAtStart({
      changeWorkspaceKey: ok(twoWorkspacesSession(null)),
      switchWorkspace: ok(twoWorkspacesSession(PRODUCTION.id)),
    });
    await user.type(screen.getByLabelText('API key'), 'sk-prod');
    await user.click(screen.getByRole('button', { name: 'Test key and open' }));

    expect(await screen.findByRole('textbox', { name: 'Interaction SID' })).toBeInTheDocument();
    expect(fake.calls.switchWorkspace).toEqual([[PRODUCTION.id]]);
  });

  it('offers another saved workspace, the demo and a new workspace instead', async () => {
    const { fake, user } = await openAtStart({ switchWorkspace: ok(twoWorkspacesSession(STAGING.id)) });
    const others = screen.getByRole('list', { name: 'Other workspaces' });
    expect(within(others).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Open demo workspace' })).toBeInTheDocument();

    await user.click(within(others).getByRole('button', { name: 'Open Staging' }));

    expect(fake.calls.switchWorkspace).toEqual([[STAGING.id]]);
    expect(await screen.findByRole('textbox', { name: 'Interaction SID' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Current workspace')).getByText('Staging')).toBeInTheDocument();
  });

  it('"Add another workspace" shows the Connect screen', async () => {
    const { user } = await openAtStart();
    await user.click(screen.getByRole('button', { name: 'Add another workspace' }));
    expect(await screen.findByRole('heading', { name: 'Connect a workspace' })).toBeInTheDocument();
  });
});
