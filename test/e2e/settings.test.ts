/**
 * Workspaces end to end, in Chromium through the built preload, the IPC guard and main's stack:
 * two workspaces (the embedded demo and a second demo server started for each test, added through
 * the UI or, where the adding is not what is tested, through the handler), the Settings screen, a
 * rejected key (401) re-entered from the view, and an unreachable service. Each test starts from
 * the demo workspace alone, on a freshly loaded page.
 * Screenshots: test-artifacts/settings.png, workspace-menu.png, unauthorized.png,
 * unauthorized-reenter.png, unreachable.png, keychain-problem.png, keychain-weak-dialog.png,
 * settings-name-refused.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../electron/main/demo/server';
import { keyAccount } from '../../electron/main/keys/workspace-keys';
import type { IpcResult, SecretStorageStatus, SessionInfo } from '../../electron/shared/contract';
import { ensureBuilt } from './build';
import { checkPageErrorsEachTest } from './page-errors';
import { ARTIFACTS_DIR, openDemoAfresh, ROOT, startHarness, type Harness } from './harness';

const RESOURCES = join(ROOT, 'resources');
const SECOND = 'Second demo server';

let h: Harness;
/** A second demo service of the test's own, started for each test (tests stop or restart it). */
let second: DemoServer | null = null;

async function section(name: string) {
  await h.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
}

async function openMenuItem(name: RegExp) {
  await h.page
    .getByLabel('Current workspace')
    .getByRole('button', { name: /^Workspace:/ })
    .click();
  await h.page.getByRole('menu', { name: 'Workspaces' }).getByRole('menuitem', { name }).click();
}

/** The running second service (started by beforeEach; a test that stops it sets `second` to null). */
function secondServer(): DemoServer {
  if (!second) throw new Error('The second demo service is not running.');
  return second;
}

/** Adds the second service as a workspace (it becomes active) and loads the page again on it. */
async function addSecondWorkspace(): Promise<void> {
  const server = secondServer();
  const connected = await h.handlers.connect([{ name: SECOND, baseUrl: server.baseUrl, apiKey: server.apiKey }]);
  if (!connected.ok) throw new Error(`Could not add ${SECOND}: ${JSON.stringify(connected.error)}`);
  await h.page.reload();
  await h.page.getByLabel('Current workspace').getByText(SECOND).waitFor();
}

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  h = await startHarness({ viewport: { width: 1280, height: 820 } });
});

checkPageErrorsEachTest(() => h);

// Each test starts with a second service running and only the demo workspace, open on a fresh page.
beforeEach(async () => {
  second = await startDemoServer({ resourcesDir: RESOURCES });
  await openDemoAfresh(h);
});

afterEach(async () => {
  await second?.close();
  second = null;
});

afterAll(async () => {
  await h.close();
});

describe('workspaces and the Settings screen', () => {
  it('adds a second workspace through the UI; Settings lists both, the new one active, and the key storage', async () => {
    const server = secondServer();
    await openMenuItem(/Add workspace…/);
    const form = h.page.getByRole('region', { name: 'Add a workspace' });
    await form.getByLabel('Workspace name').fill(SECOND);
    await form.getByLabel('Base URL').fill(server.baseUrl);
    await form.getByLabel('API key', { exact: true }).fill(server.apiKey);
    await form.getByText(`Will use ${server.baseUrl}`).waitFor();
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'settings-add.png') });
    await form.getByRole('button', { name: 'Add workspace' }).click();
    await h.page.getByText(`${SECOND} was added and is now the active workspace.`).waitFor();

    const list = h.page.getByRole('list', { name: 'Saved workspaces' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    const secondRow = list.getByRole('listitem', { name: SECOND });
    const demoRow = list.getByRole('listitem', { name: 'Demo workspace' });
    await expect.poll(() => secondRow.getByText('Active', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => demoRow.getByText('Demo', { exact: true }).isVisible()).toBe(true);
    await expect(secondRow.innerText()).resolves.toContain(server.baseUrl);
    await expect(h.page.getByLabel('Current workspace').innerText()).resolves.toContain(SECOND);

    await secondRow.getByRole('button', { name: 'Test connection' }).click();
    await secondRow.getByText(/Connected in \d+ ms/).waitFor();
    const storage = h.page.getByRole('region', { name: 'Key storage' });
    // The harness keeps keys in memory, and says so.
    await expect(storage.innerText()).resolves.toMatch(/Keys are stored in\s+Memory of this run only/);

    // Rule 1: the key typed into the form is nowhere in the page once saved.
    await expect(h.page.content()).resolves.not.toContain(server.apiKey);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'settings.png'), fullPage: true });

    // Remove asks first; Cancel removes nothing.
    await secondRow.getByRole('button', { name: 'Remove…' }).click();
    const dialog = h.page.getByRole('dialog', { name: `Remove workspace “${SECOND}”?` });
    await expect(dialog.innerText()).resolves.toContain('API key will be deleted from the system keychain');
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'settings-remove.png') });
    await h.page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await expect(h.secrets.get(keyAccount((await h.session.info()).workspace!))).resolves.toBe(server.apiKey);
  });

  it('refuses a workspace name with invisible characters in words, in the Add and Rename forms', async () => {
    const server = secondServer();
    await openMenuItem(/Add workspace…/);
    const form = h.page.getByRole('region', { name: 'Add a workspace' });
    const name = form.getByLabel('Workspace name');
    // A right-to-left override would make "Production\u202Eved" read as "Productiondev".
    await name.fill('Production\u202Eved');
    await form.getByLabel('Base URL').fill(server.baseUrl);
    await form.getByLabel('API key', { exact: true }).fill(server.apiKey);
    await form.getByRole('button', { name: 'Add workspace' }).click();
    await form.getByText(/^Use only printable characters: .*\(U\+202E\)/).waitFor();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect((await h.session.info()).workspaces.map((w) => w.name)).toEqual(['Demo workspace']);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'settings-name-refused.png') });

    await openMenuItem(/Settings/);
    const demoRow = h.page.getByRole('list', { name: 'Saved workspaces' }).getByRole('listitem', {
      name: 'Demo workspace',
    });
    await demoRow.getByRole('button', { name: 'Rename' }).click();
    const rename = demoRow.getByRole('form', { name: 'Rename Demo workspace' });
    await rename.getByLabel('New name').fill('Demo\u200Bworkspace');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await rename.getByText(/^Use only printable characters: .*\(U\+200B\)/).waitFor();
    expect((await h.session.info()).workspaces.map((w) => w.name)).toEqual(['Demo workspace']);
  });

  it('the header menu lists both workspaces, the active one checked', async () => {
    await addSecondWorkspace();
    await h.page
      .getByLabel('Current workspace')
      .getByRole('button', { name: /^Workspace:/ })
      .press('ArrowDown');
    const menu = h.page.getByRole('menu', { name: 'Workspaces' });
    await expect
      .poll(() => menu.getByRole('menuitemradio', { name: SECOND }).getAttribute('aria-checked'))
      .toBe('true');
    await expect
      .poll(() => menu.getByRole('menuitemradio', { name: /Demo workspace/ }).getAttribute('aria-checked'))
      .toBe('false');
    // The focus starts on the active workspace.
    await expect(
      h.page.evaluate(() => [
        document.activeElement?.getAttribute('role'),
        document.activeElement?.getAttribute('aria-checked'),
      ]),
    ).resolves.toEqual(['menuitemradio', 'true']);
    await h.page.screenshot({
      path: join(ARTIFACTS_DIR, 'workspace-menu.png'),
      clip: { x: 640, y: 0, width: 640, height: 260 },
    });
    await h.page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
  });

  it('a rejected key (401) is explained in the view and can be re-entered there; the view then loads', async () => {
    await addSecondWorkspace();
    // The second service now accepts another key only (a rotated key), on the same address.
    const port = Number(new URL(secondServer().baseUrl).port);
    await secondServer().close();
    second = await startDemoServer({ resourcesDir: RESOURCES, port, apiKey: 'demo_rotated0123456789abcdef' });

    await section('Phones');
    const phones = h.page.getByRole('region', { name: 'Phones' });
    const alert = phones.getByRole('alert');
    await alert.waitFor();
    await expect(alert.innerText()).resolves.toMatch(/rejected/i);
    await expect(alert.innerText()).resolves.toContain(`The API key saved for workspace “${SECOND}” was rejected.`);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'unauthorized.png') });

    await alert.getByRole('button', { name: 'Re-enter API key' }).click();
    const dialog = h.page.getByRole('dialog', { name: `Re-enter the API key for ${SECOND}` });
    await dialog.getByLabel('API key', { exact: true }).fill('demo_wrong');
    await dialog.getByRole('button', { name: 'Test and save key' }).click();
    await dialog.getByRole('alert').waitFor();
    await expect.poll(() => dialog.getByLabel('API key', { exact: true }).inputValue()).toBe('demo_wrong');
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'unauthorized-reenter.png') });

    await dialog.getByLabel('API key', { exact: true }).fill(secondServer().apiKey);
    await dialog.getByRole('button', { name: 'Test and save key' }).click();
    await phones.getByRole('table').waitFor();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => phones.getByRole('alert').count()).toBe(0);
  });

  it('an unreachable service says so, and Retry tries again', async () => {
    await addSecondWorkspace();
    const sid = secondServer().interactions[0]!.sid;
    await secondServer().close();
    second = null;

    await section('Calls');
    await h.page.getByLabel('Interaction SID').fill(sid);
    await h.page.getByRole('button', { name: 'Show call' }).click();
    const alert = h.page.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    const first = await alert.innerText();
    expect(first).toMatch(/reach|refused|unreachable/i);
    expect(first).not.toMatch(/Re-enter API key/);

    await alert.getByRole('button', { name: 'Retry' }).click();
    await alert.getByRole('button', { name: 'Retry' }).waitFor({ timeout: 30_000 });
    await expect(alert.innerText()).resolves.toMatch(/reach|refused|unreachable/i);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'unreachable.png') });
  });
});

describe('key storage when the keychain is locked', () => {
  // The harness keeps keys in memory, so its keychain always works. Here getSession reports a
  // locked keychain and a weak safeStorage, as main does on such a laptop (the detection itself is
  // tested in test/main against a real gnome-keyring); the screen and its dialog are the real ones.
  const lockedWeak: SecretStorageStatus = {
    backend: 'keychain',
    description: 'System keychain (Secret Service)',
    keychainProblem: {
      problem: 'locked',
      message:
        'Your login keyring is locked. Unlock your login keyring (Passwords and Keys, or log out and in again), then retry.',
    },
    safeStorage: { available: true, weak: true, backendName: 'basic_text' },
  };

  it('explains the problem and asks twice before keys would only be obfuscated', async () => {
    const real = h.handlers.getSession;
    h.handlers.getSession = async (args) => {
      const result = (await real(args)) as IpcResult<SessionInfo>;
      return result.ok ? { ok: true, value: { ...result.value, secretStorage: lockedWeak } } : result;
    };
    try {
      await h.page.reload();
      await openMenuItem(/Settings/);
      const storage = h.page.getByRole('region', { name: 'Key storage' });
      await expect(storage.innerText()).resolves.toContain('The system keychain is locked');
      await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'keychain-problem.png') });
      await storage.getByRole('button', { name: 'Store keys in a file on this computer (not encrypted)' }).click();
      const dialog = h.page.getByRole('dialog', { name: 'Store API keys in a file that is only obfuscated?' });
      const confirm = dialog.getByRole('button', { name: 'Store keys obfuscated' });
      await expect.poll(() => confirm.isDisabled()).toBe(true);
      await dialog.getByRole('checkbox', { name: /I understand/ }).check();
      await expect.poll(() => confirm.isEnabled()).toBe(true);
      await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'keychain-weak-dialog.png') });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);
    } finally {
      h.handlers.getSession = real;
    }
  });
});
