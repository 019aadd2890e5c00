/**
 * The Connect screen, as the app shows it when no workspace is chosen yet (Root -> App ->
 * ConnectView), over a fake `window.api`.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '$shared/contract';
import Root from '../../renderer/src/Root.svelte';
import {
  deferred,
  demoSession,
  fail,
  installFakeApi,
  noWorkspace,
  ok,
  STAGING,
  twoWorkspacesSession,
  type Replies,
} from './fake-api';
import { renderApp } from './render-app';

/** Renders the app on the Connect screen and waits for it. */
async function openConnect(replies: Replies = {}, session: SessionInfo = noWorkspace()) {
  const app = renderApp(session, replies);
  await screen.findByRole('heading', { name: 'Connect a workspace' });
  return app;
}

const nameInput = () => screen.getByRole('textbox', { name: 'Workspace name' });
const urlInput = () => screen.getByRole('textbox', { name: 'Base URL' });
const keyInput = () => screen.getByLabelText('API key');
const connectButton = () => screen.getByRole('button', { name: /^(Connect|Checking the key…)$/ });

describe('Connect screen: base URL help', () => {
  it('shows the URL that will be used for a bare https origin', async () => {
    const { user } = await openConnect();
    await user.type(urlInput(), 'https://api.example.com');
    expect(urlInput()).toHaveAccessibleDescription('Will use https://api.example.com/v1');
  });

  it('adds https:// and /v1 to a bare host name', async () => {
    const { user } = await openConnect();
    await user.type(urlInput(), 'api.example.com');
    expect(urlInput()).toHaveAccessibleDescription('Will use https://api.example.com/v1');
  });

  it('refuses plain http to a remote host with the https message', async () => {
    const { user } = await openConnect();
    await user.type(urlInput(), 'http://example.com/v1');
    expect(urlInput()).toHaveAccessibleDescription(/Use https:\/\/ for this server/);
  });

  it('refuses a path after /v1', async () => {
    const { user } = await openConnect();
    await user.type(urlInput(), 'https://x/v1/extra');
    expect(urlInput()).toHaveAccessibleDescription(/must end with \/v1/);
    expect(urlInput()).not.toHaveAccessibleDescription(/Will use/);
  });
});

describe('Connect screen: connecting', () => {
  it('asks for the key on submit without a key and does not call connect', async () => {
    const { fake, user } = await openConnect();
    await user.type(urlInput(), 'https://api.example.com/v1');
    expect(keyInput()).not.toHaveAccessibleDescription(/Enter the API key/);

    await user.click(connectButton());

    expect(keyInput()).toHaveAccessibleDescription(/Enter the API key from the API Keys page/);
    expect(keyInput()).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls.connect).toHaveLength(0);
  });

  it('keeps the API key out of sight (password field)', async () => {
    await openConnect();
    expect(keyInput()).toHaveAttribute('type', 'password');
  });

  it('sends the name, the normalized base URL and the key', async () => {
    const connected: SessionInfo = demoSession('Production');
    const { fake, user } = await openConnect({ connect: ok(connected) });
    await user.type(nameInput(), 'Production');
    await user.type(urlInput(), '  https://api.example.com/  ');
    await user.type(keyInput(), 'sk-test-123');

    await user.click(connectButton());

    expect(fake.calls.connect).toEqual([
      [{ name: 'Production', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-test-123' }],
    ]);
    // The new session replaces the Connect screen.
    expect(await screen.findByRole('textbox', { name: 'Interaction SID' })).toBeInTheDocument();
  });

  it('shows "Checking the key…" on a disabled button while the key is checked, and sends once', async () => {
    const pending = deferred<SessionInfo>();
    const { fake, user } = await openConnect({ connect: pending });
    await user.type(urlInput(), 'https://api.example.com/v1');
    await user.type(keyInput(), 'sk-test-123');

    await user.click(connectButton());
    const button = await screen.findByRole('button', { name: 'Checking the key…' });
    expect(button).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Open demo workspace' })).toBeDisabled();

    await user.click(button);
    // Enter in a field submits the form too; it must not send a second request either.
    await user.type(keyInput(), '{Enter}');
    expect(fake.calls.connect).toHaveLength(1);

    pending.fail({ kind: 'network', message: 'Could not reach api.example.com.' });
    expect(await screen.findByRole('button', { name: 'Connect' })).toBeEnabled();
  });

  it('shows a rejected key as an alert and keeps what was typed', async () => {
    const { user } = await openConnect({
      connect: fail({ kind: 'unauthorized', status: 401, message: 'The API key was rejected by api.example.com.' }),
    });
    await user.type(nameInput(), 'Staging');
    await user.type(urlInput(), 'https://api-staging.example.com/v1');
    await user.type(keyInput(), 'sk-wrong');

    await user.click(connectButton());

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not connect')).toBeInTheDocument();
    expect(within(alert).getByText('The API key was rejected by api.example.com.')).toBeInTheDocument();
    expect(nameInput()).toHaveValue('Staging');
    expect(urlInput()).toHaveValue('https://api-staging.example.com/v1');
    expect(connectButton()).toHaveTextContent('Connect');
    expect(connectButton()).toBeEnabled();
  });
});

describe('Connect screen: demo workspace', () => {
  it('opens the demo workspace and shows it by name in the header', async () => {
    const { fake, user } = await openConnect({ openDemo: ok(demoSession('Sample Clinic (demo)')) });

    await user.click(screen.getByRole('button', { name: 'Open demo workspace' }));

    expect(await screen.findByRole('textbox', { name: 'Interaction SID' })).toBeInTheDocument();
    expect(fake.calls.openDemo).toHaveLength(1);
    const header = screen.getByLabelText('Current workspace');
    expect(within(header).getByText('Sample Clinic (demo)')).toBeInTheDocument();
    expect(within(header).getByText('demo')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Connect a workspace' })).not.toBeInTheDocument();
  });

  it('shows why the demo did not start, with a Retry that tries again', async () => {
    const { fake, user } = await openConnect({
      openDemo: fail({ kind: 'server', message: 'The demo service could not listen on 127.0.0.1.' }),
    });
    await user.click(screen.getByRole('button', { name: 'Open demo workspace' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The demo service could not listen on 127.0.0.1.');

    fake.reply('openDemo', ok(demoSession('Demo after retry')));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Demo after retry')).toBeInTheDocument();
    expect(fake.calls.openDemo).toHaveLength(2);
  });
});

describe('Connect screen: saved workspaces and key storage', () => {
  it('offers the saved workspaces when none is active, and opens one', async () => {
    const { fake, user } = await openConnect(
      { switchWorkspace: ok(twoWorkspacesSession(STAGING.id)) },
      twoWorkspacesSession(null),
    );
    const saved = screen.getByRole('region', { name: 'Saved workspaces' });
    expect(saved).toHaveTextContent('https://api.example.com/v1');
    expect(saved).toHaveTextContent('https://staging.example.com/v1');

    await user.click(within(saved).getByRole('button', { name: 'Open Staging' }));

    expect(fake.calls.switchWorkspace).toEqual([[STAGING.id]]);
    expect(await screen.findByRole('textbox', { name: 'Interaction SID' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Current workspace')).getByText('Staging')).toBeInTheDocument();
  });

  it('shows no saved-workspace list on first start', async () => {
    await openConnect();
    expect(screen.queryByRole('region', { name: 'Saved workspaces' })).not.toBeInTheDocument();
  });

  it('says up front when the keychain cannot store keys, with a way to the key storage settings', async () => {
    const session: SessionInfo = {
      ...noWorkspace(),
      secretStorage: {
        backend: 'keychain',
        description: 'System keychain (Secret Service)',
        keychainProblem: {
          problem: 'unavailable',
          message: 'No Secret Service is running. Install gnome-keyring or KWallet, then restart Voice Review.',
        },
        safeStorage: { available: true, weak: false, backendName: 'gnome_libsecret' },
      },
    };
    const { user } = await openConnect({}, session);
    const note = screen.getByRole('note', { name: 'Key storage problem' });
    expect(note).toHaveTextContent('No system keychain is available');
    expect(note).toHaveTextContent('Install gnome-keyring or KWallet');

    await user.click(within(note).getByRole('button', { name: 'Key storage settings' }));
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Store keys in an encrypted file on this computer' }),
    ).toBeInTheDocument();
  });
});

describe('Start-up failure', () => {
  it('says Voice Review could not start, asks main once, and Retry asks again', async () => {
    const fake = installFakeApi({
      getSession: fail({ kind: 'server', message: 'settings.json is not valid JSON. Fix or delete it, then retry.' }),
    });
    const user = userEvent.setup();
    render(Root);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Voice Review could not start');
    expect(alert).toHaveTextContent('settings.json is not valid JSON');
    expect(fake.calls.getSession).toHaveLength(1);

    fake.reply('getSession', ok(noWorkspace()));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Connect a workspace' })).toBeInTheDocument();
    expect(fake.calls.getSession).toHaveLength(2);
  });
});
