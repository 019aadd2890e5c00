/**
 * The Settings screen (workspaces, keychain failures, the request timeout), opened from the
 * header's workspace menu as a user does (Root -> App -> SettingsView), over a fake `window.api`.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ConnectionTestResult, SecretStorageStatus, SessionInfo } from '$shared/contract';
import {
  deferred,
  fail,
  ok,
  PRODUCTION,
  sessionDefaults,
  STAGING,
  twoWorkspacesSession,
  workspace,
  type Replies,
} from './fake-api';
import { renderApp } from './render-app';

type User = ReturnType<typeof userEvent.setup>;

/** Renders the app with `session` (Production active by default) and opens Settings from the menu. */
async function openSettings(replies: Replies = {}, session: SessionInfo = twoWorkspacesSession()) {
  const { fake, user } = renderApp(session, replies);
  const header = await screen.findByLabelText('Current workspace');
  await user.click(within(header).getByRole('button', { name: /^Workspace:/ }));
  await user.click(screen.getByRole('menuitem', { name: /Settings/ }));
  await screen.findByRole('heading', { name: 'Settings' });
  return { fake, user };
}

const list = () => screen.getByRole('list', { name: 'Saved workspaces' });
const row = (name: string) => within(list()).getByRole('listitem', { name });
const header = () => screen.getByLabelText('Current workspace');

describe('Settings: the list of workspaces', () => {
  it('shows each workspace with its base URL and marks the active one', async () => {
    await openSettings();

    const rows = within(list()).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(row('Production')).toHaveTextContent('https://api.example.com/v1');
    expect(within(row('Production')).getByText('Active')).toBeInTheDocument();
    expect(row('Staging')).toHaveTextContent('https://staging.example.com/v1');
    expect(within(row('Staging')).queryByText('Active')).not.toBeInTheDocument();
    // The active workspace has nothing to switch to.
    expect(within(row('Production')).queryByRole('button', { name: 'Switch' })).not.toBeInTheDocument();
    expect(within(row('Staging')).getByRole('button', { name: 'Switch' })).toBeInTheDocument();
  });

  it('marks the demo workspace and offers no key change for it', async () => {
    const demo = workspace('demo', 'Demo workspace', 'embedded', true);
    await openSettings({}, { ...sessionDefaults(), workspace: demo, workspaces: [demo, PRODUCTION] });

    expect(within(row('Demo workspace')).getByText('Demo')).toBeInTheDocument();
    expect(row('Demo workspace')).toHaveTextContent('Built-in demo service on this computer');
    expect(within(row('Demo workspace')).queryByRole('button', { name: 'Change key' })).not.toBeInTheDocument();
    expect(within(row('Production')).getByRole('button', { name: 'Change key' })).toBeInTheDocument();
  });

  it('switches from the list: the Active badge and the header follow', async () => {
    const { fake, user } = await openSettings({ switchWorkspace: ok(twoWorkspacesSession(STAGING.id)) });

    await user.click(within(row('Staging')).getByRole('button', { name: 'Switch' }));

    expect(fake.calls.switchWorkspace).toEqual([[STAGING.id]]);
    expect(await within(row('Staging')).findByText('Active')).toBeInTheDocument();
    expect(within(row('Production')).queryByText('Active')).not.toBeInTheDocument();
    expect(within(header()).getByText('Staging')).toBeInTheDocument();
    expect(screen.getByText('Staging is now the active workspace.')).toBeInTheDocument();
  });
});

describe('Settings: rename', () => {
  it('renames inline; the list and the header show the new name', async () => {
    const renamed = { ...PRODUCTION, name: 'Production EU' };
    const { fake, user } = await openSettings({
      renameWorkspace: ok({ ...twoWorkspacesSession(), workspace: renamed, workspaces: [renamed, STAGING] }),
    });
    await user.click(within(row('Production')).getByRole('button', { name: 'Rename' }));
    const field = screen.getByRole('textbox', { name: 'New name' });
    expect(field).toHaveValue('Production');
    expect(field).toHaveFocus();

    await user.clear(field);
    await user.type(field, '  Production EU {Enter}');

    expect(fake.calls.renameWorkspace).toEqual([[PRODUCTION.id, 'Production EU']]);
    expect(await within(list()).findByRole('listitem', { name: 'Production EU' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'New name' })).not.toBeInTheDocument();
    expect(within(header()).getByText('Production EU')).toBeInTheDocument();
  });

  it('explains an empty name and sends nothing; Escape leaves the name as it was', async () => {
    const { fake, user } = await openSettings();
    await user.click(within(row('Staging')).getByRole('button', { name: 'Rename' }));
    const field = screen.getByRole('textbox', { name: 'New name' });
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save name' }));

    expect(field).toHaveAccessibleDescription('Enter a name, e.g. Production or Staging.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls.renameWorkspace).toHaveLength(0);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'New name' })).not.toBeInTheDocument();
    expect(row('Staging')).toBeInTheDocument();
  });

  it('a failed rename keeps what was typed and shows why', async () => {
    const { user } = await openSettings({
      renameWorkspace: fail({ kind: 'bad_input', message: 'A workspace name has at most 200 characters.' }),
    });
    await user.click(within(row('Staging')).getByRole('button', { name: 'Rename' }));
    const field = screen.getByRole('textbox', { name: 'New name' });
    await user.clear(field);
    await user.type(field, 'Staging (old)');
    await user.click(screen.getByRole('button', { name: 'Save name' }));

    const alert = await within(row('Staging')).findByRole('alert');
    expect(alert).toHaveTextContent('The workspace was not renamed');
    expect(alert).toHaveTextContent('A workspace name has at most 200 characters.');
    expect(field).toHaveValue('Staging (old)');
  });
});

describe('Settings: change key', () => {
  async function startKeyChange(user: User, name: string) {
    await user.click(within(row(name)).getByRole('button', { name: 'Change key' }));
    return within(row(name)).getByLabelText('New API key');
  }

  it('is a write-only password field: empty at first, the old key is never shown', async () => {
    const { user } = await openSettings();
    const field = await startKeyChange(user, 'Staging');
    expect(field).toHaveAttribute('type', 'password');
    expect(field).toHaveValue('');
    expect(field).toHaveAccessibleDescription(/tested with a quick read before it replaces the saved key/i);
  });

  it('a rejected key keeps what was typed and shows the message from main', async () => {
    const { fake, user } = await openSettings({
      changeWorkspaceKey: fail({
        kind: 'unauthorized',
        status: 401,
        message: 'The API key was rejected by staging.example.com (HTTP 401).',
      }),
    });
    const field = await startKeyChange(user, 'Staging');
    await user.type(field, 'sk-typo');
    await user.click(within(row('Staging')).getByRole('button', { name: 'Test and save key' }));

    const alert = await within(row('Staging')).findByRole('alert');
    expect(alert).toHaveTextContent('The key was not saved; what you typed is still here');
    expect(alert).toHaveTextContent('The API key was rejected by staging.example.com (HTTP 401).');
    // The rejected key is the one just typed: no "re-enter" offer for the saved one here.
    expect(within(alert).queryByRole('button', { name: 'Re-enter API key' })).not.toBeInTheDocument();
    expect(field).toHaveValue('sk-typo');
    expect(fake.calls.changeWorkspaceKey).toEqual([[STAGING.id, 'sk-typo']]);
  });

  it('tests the new key once even when clicked twice, then confirms and empties the field', async () => {
    const pending = deferred<SessionInfo>();
    const { fake, user } = await openSettings({ changeWorkspaceKey: pending });
    const field = await startKeyChange(user, 'Staging');
    await user.type(field, 'sk-new');
    await user.click(within(row('Staging')).getByRole('button', { name: 'Test and save key' }));
    const testing = within(row('Staging')).getByRole('button', { name: 'Testing the key…' });
    expect(testing).toBeDisabled();
    await user.type(field, '{Enter}');
    expect(fake.calls.changeWorkspaceKey).toHaveLength(1);

    pending.resolve(twoWorkspacesSession());

    expect(
      await within(row('Staging')).findByText('New key saved for Staging. The old key was replaced.'),
    ).toBeInTheDocument();
    expect(within(row('Staging')).queryByLabelText('New API key')).not.toBeInTheDocument();
  });

  it('asks for a key instead of sending an empty one', async () => {
    const { fake, user } = await openSettings();
    const field = await startKeyChange(user, 'Staging');
    await user.click(within(row('Staging')).getByRole('button', { name: 'Test and save key' }));
    expect(field).toHaveAccessibleDescription(/Paste the API key from the API Keys page/);
    expect(fake.calls.changeWorkspaceKey).toHaveLength(0);
  });
});

describe('Settings: test connection', () => {
  const cases: Array<[string, ConnectionTestResult, RegExp[]]> = [
    ['success', { ok: true, message: 'Connected.', elapsedMs: 120.4 }, [/Connected in 120 ms/]],
    [
      'key rejected',
      {
        ok: false,
        problem: 'key_rejected',
        message: 'staging.example.com rejected the API key (HTTP 401). Change the key.',
      },
      [/Key rejected/, /rejected the API key \(HTTP 401\)\. Change the key\./],
    ],
    [
      'not a v1 endpoint',
      {
        ok: false,
        problem: 'not_v1',
        message: 'https://staging.example.com/v1 answered with a web page, not the v1 API.',
      },
      [/Not a v1 endpoint/, /answered with a web page/],
    ],
    [
      'unreachable',
      { ok: false, problem: 'unreachable', message: 'Could not reach staging.example.com: connection refused.' },
      [/Unreachable/, /connection refused/],
    ],
    [
      'TLS error',
      { ok: false, problem: 'tls', message: 'The certificate of staging.example.com is not trusted (self-signed).' },
      [/TLS error/, /self-signed/],
    ],
  ];

  it.each(cases)('shows the result in words: %s', async (_label, result, expected) => {
    const { fake, user } = await openSettings({ testWorkspace: ok(result) });

    await user.click(within(row('Staging')).getByRole('button', { name: 'Test connection' }));

    const status = within(row('Staging')).getByRole('status', { name: 'Connection test of Staging' });
    for (const pattern of expected) await within(status).findByText(pattern);
    expect(fake.calls.testWorkspace).toEqual([[STAGING.id]]);
    // Only the tested workspace shows a result.
    expect(within(row('Production')).getByRole('status', { name: 'Connection test of Production' })).toHaveTextContent(
      '',
    );
  });

  it('shows "Testing…" on a disabled button while the test runs', async () => {
    const pending = deferred<ConnectionTestResult>();
    const { fake, user } = await openSettings({ testWorkspace: pending });
    await user.click(within(row('Staging')).getByRole('button', { name: 'Test connection' }));

    expect(within(row('Staging')).getByRole('button', { name: 'Testing…' })).toBeDisabled();
    await user.click(within(row('Staging')).getByRole('button', { name: 'Testing…' }));
    expect(fake.calls.testWorkspace).toHaveLength(1);
    pending.resolve({ ok: true, message: 'Connected.', elapsedMs: 45 });
    expect(await within(row('Staging')).findByText(/Connected in 45 ms/)).toBeInTheDocument();
  });
});

describe('Settings: remove', () => {
  async function askToRemove(user: User, name: string) {
    await user.click(within(row(name)).getByRole('button', { name: 'Remove…' }));
    return screen.getByRole('dialog', { name: `Remove workspace “${name}”?` });
  }

  it('asks first, naming the workspace and saying its key will be deleted from the keychain', async () => {
    const { user } = await openSettings();
    const dialog = await askToRemove(user, 'Staging');

    expect(dialog).toHaveTextContent('Voice Review will forget Staging (https://staging.example.com/v1)');
    expect(dialog).toHaveTextContent('API key will be deleted from the system keychain');
    // Cancel comes first and has the focus, so Enter never removes by accident.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  });

  it('Cancel removes nothing', async () => {
    const { fake, user } = await openSettings();
    const dialog = await askToRemove(user, 'Staging');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fake.calls.removeWorkspace).toHaveLength(0);
    expect(row('Staging')).toBeInTheDocument();
  });

  it('Escape removes nothing', async () => {
    const { fake, user } = await openSettings();
    await askToRemove(user, 'Staging');
    await user.keyboard('{Escape}');

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fake.calls.removeWorkspace).toHaveLength(0);
  });

  it('confirming removes the workspace once and it leaves the list', async () => {
    const pending = deferred<SessionInfo>();
    const { fake, user } = await openSettings({ removeWorkspace: pending });
    const dialog = await askToRemove(user, 'Staging');
    await user.click(within(dialog).getByRole('button', { name: 'Remove workspace' }));
    await user.click(within(dialog).getByRole('button', { name: 'Removing…' }));
    expect(fake.calls.removeWorkspace).toEqual([[STAGING.id]]);

    pending.resolve({ ...twoWorkspacesSession(), workspaces: [PRODUCTION] });

    expect(await screen.findByText('Staging was removed and its key deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list()).queryByRole('listitem', { name: 'Staging' })).not.toBeInTheDocument();
  });

  it('a failed removal keeps the dialog open with the reason', async () => {
    const { user } = await openSettings({
      removeWorkspace: fail({
        kind: 'keychain',
        message: 'The key could not be deleted: the keyring is locked. Unlock it and try again.',
      }),
    });
    const dialog = await askToRemove(user, 'Staging');
    await user.click(within(dialog).getByRole('button', { name: 'Remove workspace' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('the keyring is locked');
    expect(row('Staging')).toBeInTheDocument();
  });
});

describe('Settings: key storage', () => {
  const working: SecretStorageStatus = {
    backend: 'keychain',
    description: 'System keychain (Secret Service)',
    keychainProblem: null,
    safeStorage: { available: true, weak: false, backendName: 'gnome_libsecret' },
  };
  const locked = (weak: boolean): SecretStorageStatus => ({
    backend: 'keychain',
    description: 'System keychain (Secret Service)',
    keychainProblem: {
      problem: 'locked',
      message: 'Your login keyring is locked. Unlock your login keyring (Passwords and Keys), then try again.',
    },
    safeStorage: { available: true, weak, backendName: weak ? 'basic_text' : 'kwallet5' },
  });
  const storage = () => screen.getByRole('region', { name: 'Key storage' });
  // The offer says plainly whether the file would be encrypted.
  const offer = 'Store keys in an encrypted file on this computer';
  const weakOffer = 'Store keys in a file on this computer (not encrypted)';

  it('shows where keys are stored, and offers nothing else while the keychain works', async () => {
    await openSettings({}, twoWorkspacesSession(PRODUCTION.id, { secretStorage: working }));
    expect(storage()).toHaveTextContent('System keychain (Secret Service)');
    expect(within(storage()).queryByRole('button', { name: offer })).not.toBeInTheDocument();
  });

  it('explains a locked keychain and switches to safeStorage only after the user agrees', async () => {
    const { fake, user } = await openSettings(
      {
        useSafeStorage: ok(
          twoWorkspacesSession(PRODUCTION.id, {
            secretStorage: {
              ...locked(false),
              backend: 'safe_storage',
              description: 'Encrypted file (Electron safeStorage, kwallet5)',
            },
          }),
        ),
      },
      twoWorkspacesSession(PRODUCTION.id, { secretStorage: locked(false) }),
    );
    expect(storage()).toHaveTextContent('The system keychain is locked');
    expect(storage()).toHaveTextContent('Unlock your login keyring');

    await user.click(within(storage()).getByRole('button', { name: offer }));
    let dialog = screen.getByRole('dialog', { name: 'Store API keys in an encrypted file?' });
    expect(dialog).toHaveTextContent('kwallet5');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.useSafeStorage).toHaveLength(0);

    await user.click(within(storage()).getByRole('button', { name: offer }));
    dialog = screen.getByRole('dialog', { name: 'Store API keys in an encrypted file?' });
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Use encrypted file' }));

    expect(fake.calls.useSafeStorage).toEqual([[false]]);
    expect(await within(storage()).findByText('Encrypted file (Electron safeStorage, kwallet5)')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('when safeStorage would only obfuscate (basic_text), says so and needs a second confirmation', async () => {
    const { fake, user } = await openSettings(
      {
        useSafeStorage: ok(
          twoWorkspacesSession(PRODUCTION.id, {
            secretStorage: { ...locked(true), backend: 'safe_storage', description: 'Obfuscated file (basic_text)' },
          }),
        ),
      },
      twoWorkspacesSession(PRODUCTION.id, { secretStorage: locked(true) }),
    );
    expect(storage()).toHaveTextContent('that file would only be obfuscated');
    await user.click(within(storage()).getByRole('button', { name: weakOffer }));
    const dialog = screen.getByRole('dialog', { name: 'Store API keys in a file that is only obfuscated?' });

    expect(dialog).toHaveTextContent('the keys would only be obfuscated, not protected');
    expect(dialog).toHaveTextContent('basic_text');
    const confirm = within(dialog).getByRole('button', { name: 'Store keys obfuscated' });
    expect(confirm).toBeDisabled();
    await user.click(confirm);
    expect(fake.calls.useSafeStorage).toHaveLength(0);

    await user.click(
      within(dialog).getByRole('checkbox', { name: /I understand the API keys would only be obfuscated/ }),
    );
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    expect(fake.calls.useSafeStorage).toEqual([[true]]);
    expect(await within(storage()).findByText('Obfuscated file (basic_text)')).toBeInTheDocument();
  });

  it('says so when safeStorage is not available either', async () => {
    await openSettings(
      {},
      twoWorkspacesSession(PRODUCTION.id, { secretStorage: { ...locked(false), safeStorage: null } }),
    );
    expect(storage()).toHaveTextContent('The system keychain is locked');
    expect(within(storage()).queryByRole('button', { name: offer })).not.toBeInTheDocument();
  });
});

describe('Settings: request timeout', () => {
  const field = () => screen.getByRole('spinbutton', { name: 'Request timeout (seconds)' });
  const save = () => screen.getByRole('button', { name: 'Save timeout' });

  it('starts from the saved value', async () => {
    await openSettings({}, twoWorkspacesSession(PRODUCTION.id, { preferences: { requestTimeoutSeconds: 25 } }));
    expect(field()).toHaveValue(25);
  });

  it.each([
    ['2', /from 3 to 120 seconds; 2 is out of range/],
    ['121', /from 3 to 120 seconds; 121 is out of range/],
    ['7.5', /Use whole seconds from 3 to 120/],
    ['', /Enter a number of seconds from 3 to 120/],
  ])('explains %j and sends nothing', async (typed, message) => {
    const { fake, user } = await openSettings();
    await user.clear(field());
    if (typed !== '') await user.type(field(), typed);
    await user.click(save());

    expect(field()).toHaveAccessibleDescription(message);
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls.setPreferences).toHaveLength(0);
  });

  it('saves a valid timeout and says so', async () => {
    const { fake, user } = await openSettings({
      setPreferences: ok(twoWorkspacesSession(PRODUCTION.id, { preferences: { requestTimeoutSeconds: 30 } })),
    });
    await user.clear(field());
    await user.type(field(), '30');
    await user.click(save());

    expect(fake.calls.setPreferences).toEqual([[{ requestTimeoutSeconds: 30 }]]);
    expect(await screen.findByText('Saved. Requests now wait up to 30 seconds.')).toBeInTheDocument();
  });

  it('a failed save keeps the typed value and shows why', async () => {
    const { user } = await openSettings({
      setPreferences: fail({ kind: 'server', message: 'settings.json could not be written: disk full.' }),
    });
    await user.clear(field());
    await user.type(field(), '40');
    await user.click(save());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('disk full');
    expect(field()).toHaveValue(40);
  });
});

describe('Settings: add a workspace', () => {
  it('adds a workspace through the same form as the Connect screen; it becomes the active one', async () => {
    const added = workspace('ws-sandbox', 'Customer sandbox', 'https://sandbox.example.com/v1');
    const after: SessionInfo = {
      ...twoWorkspacesSession(),
      workspace: added,
      workspaces: [PRODUCTION, STAGING, added],
    };
    const { fake, user } = await openSettings({ connect: ok(after) });
    await user.click(screen.getByRole('button', { name: 'Add workspace' }));
    const form = screen.getByRole('region', { name: 'Add a workspace' });
    await user.type(within(form).getByRole('textbox', { name: 'Workspace name' }), 'Customer sandbox');
    await user.type(within(form).getByRole('textbox', { name: 'Base URL' }), 'sandbox.example.com');
    expect(within(form).getByRole('textbox', { name: 'Base URL' })).toHaveAccessibleDescription(
      'Will use https://sandbox.example.com/v1',
    );
    await user.type(within(form).getByLabelText('API key'), 'sk-sandbox');
    await user.click(within(form).getByRole('button', { name: 'Add workspace' }));

    expect(fake.calls.connect).toEqual([
      [{ name: 'Customer sandbox', baseUrl: 'https://sandbox.example.com/v1', apiKey: 'sk-sandbox' }],
    ]);
    expect(await screen.findByText('Customer sandbox was added and is now the active workspace.')).toBeInTheDocument();
    expect(within(row('Customer sandbox')).getByText('Active')).toBeInTheDocument();
    expect(within(header()).getByText('Customer sandbox')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Add a workspace' })).not.toBeInTheDocument();
  });
});
