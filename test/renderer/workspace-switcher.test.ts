/**
 * The header's workspace menu (the active workspace is always visible; switching workspace
 * clears the previous workspace's cached data), as the app shows it (Root -> App), over a fake
 * `window.api`.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Phone } from '$shared/domain';
import { deferred, fail, ok, phone, PRODUCTION, STAGING, twoWorkspacesSession, type Replies } from './fake-api';
import { goToSection, renderWorkspace } from './render-app';

/** Renders the app with Production active (Staging saved too) and waits for the workspace. */
function openApp(replies: Replies = {}) {
  return renderWorkspace(twoWorkspacesSession(), replies);
}

const header = () => screen.getByLabelText('Current workspace');
const menuButton = () => within(header()).getByRole('button', { name: /^Workspace:/ });

describe('Workspace menu', () => {
  it('shows the active workspace in the header and lists the saved ones with the active one checked', async () => {
    const { user } = await openApp();
    expect(menuButton()).toHaveTextContent('Production');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');

    await user.click(menuButton());

    const menu = screen.getByRole('menu', { name: 'Workspaces' });
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((i) => i.textContent.trim())).toEqual([
      expect.stringContaining('Production'),
      expect.stringContaining('Staging'),
    ]);
    expect(within(menu).getByRole('menuitemradio', { name: /Production/ })).toHaveAttribute('aria-checked', 'true');
    expect(within(menu).getByRole('menuitemradio', { name: /Staging/ })).toHaveAttribute('aria-checked', 'false');
    expect(within(menu).getByRole('menuitem', { name: /Add workspace…/ })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: /Settings/ })).toBeInTheDocument();
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
  });

  it('works from the keyboard: opens on the current workspace, arrows move, Enter switches', async () => {
    const { fake, user } = await openApp({ switchWorkspace: ok(twoWorkspacesSession(STAGING.id)) });
    menuButton().focus();

    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitemradio', { name: /Production/ })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitemradio', { name: /Staging/ })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: /Settings/ })).toHaveFocus();
    await user.keyboard('{Home}{ArrowDown}{Enter}');

    expect(fake.calls.switchWorkspace).toEqual([[STAGING.id]]);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(await within(header()).findByText('Staging')).toBeInTheDocument();
    expect(within(header()).queryByText('Production')).not.toBeInTheDocument();
  });

  it('closes on Escape, returns the focus to the button and switches nothing', async () => {
    const { fake, user } = await openApp();
    await user.click(menuButton());
    expect(screen.getByRole('menuitemradio', { name: /Production/ })).toHaveFocus();

    await user.keyboard('{ArrowDown}{Escape}');

    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(menuButton()).toHaveFocus();
    expect(fake.calls.switchWorkspace).toHaveLength(0);
  });

  it("drops the previous workspace's data: Staging never shows Production's phones, and Production loads again afterwards", async () => {
    const stagingPhones = deferred<Phone[]>();
    const { fake, user } = await openApp({
      listPhones: ok([phone('Production front desk', '+14155550100')]),
      switchWorkspace: ok(twoWorkspacesSession(STAGING.id)),
    });
    await goToSection(user, 'Phones');
    expect(await screen.findByRole('button', { name: 'Open Production front desk' })).toBeInTheDocument();

    fake.reply('listPhones', stagingPhones);
    await user.click(menuButton());
    await user.click(screen.getByRole('menuitemradio', { name: /Staging/ }));
    await within(header()).findByText('Staging');
    await goToSection(user, 'Phones');

    expect(screen.getByRole('status')).toHaveTextContent('Loading phones…');
    expect(screen.queryByText('Production front desk')).not.toBeInTheDocument();
    stagingPhones.resolve([phone('Staging test line', '+14155550199')]);
    expect(await screen.findByRole('button', { name: 'Open Staging test line' })).toBeInTheDocument();
    expect(screen.queryByText('Production front desk')).not.toBeInTheDocument();

    // Back to Production: its phones were dropped from the cache, so they are asked for again
    // (the old list is not shown while they load).
    const productionAgain = deferred<Phone[]>();
    fake.reply('listPhones', productionAgain);
    fake.reply('switchWorkspace', ok(twoWorkspacesSession(PRODUCTION.id)));
    await user.click(menuButton());
    await user.click(screen.getByRole('menuitemradio', { name: /Production/ }));
    await within(header()).findByText('Production');
    await goToSection(user, 'Phones');
    expect(screen.getByRole('status')).toHaveTextContent('Loading phones…');
    expect(screen.queryByText('Production front desk')).not.toBeInTheDocument();
    expect(screen.queryByText('Staging test line')).not.toBeInTheDocument();
    expect(fake.calls.listPhones).toHaveLength(3);
    productionAgain.resolve([phone('Production front desk', '+14155550100')]);
    expect(await screen.findByRole('button', { name: 'Open Production front desk' })).toBeInTheDocument();
  });

  it('says which workspace could not be opened and keeps the current one', async () => {
    const { user } = await openApp({
      switchWorkspace: fail({
        kind: 'keychain',
        message: 'The system keychain is locked. Unlock your login keyring and try again.',
      }),
    });
    await user.click(menuButton());
    await user.click(screen.getByRole('menuitemradio', { name: /Staging/ }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Workspace “Staging” could not be opened');
    expect(alert).toHaveTextContent('Unlock your login keyring');
    expect(within(header()).getByText('Production')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Interaction SID' })).toBeVisible();
  });

  it('shows "Opening Staging…" in the header while the switch runs, and switches once', async () => {
    const pending = deferred<ReturnType<typeof twoWorkspacesSession>>();
    const { fake, user } = await openApp({ switchWorkspace: pending });
    await user.click(menuButton());
    await user.click(screen.getByRole('menuitemradio', { name: /Staging/ }));
    expect(await within(header()).findByText('Opening Staging…')).toBeInTheDocument();

    // A second choice while the first runs is refused.
    await user.click(menuButton());
    await user.click(screen.getByRole('menuitemradio', { name: /Staging/ }));
    expect(fake.calls.switchWorkspace).toHaveLength(1);

    pending.resolve(twoWorkspacesSession(STAGING.id));
    expect(await within(header()).findByText('Staging')).toBeInTheDocument();
  });

  it('"Add workspace…" opens Settings with the add form, cursor in the name field', async () => {
    const { user } = await openApp();
    await user.click(menuButton());
    await user.click(screen.getByRole('menuitem', { name: /Add workspace…/ }));

    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    const form = screen.getByRole('region', { name: 'Add a workspace' });
    expect(within(form).getByRole('textbox', { name: 'Workspace name' })).toHaveFocus();
    expect(screen.queryByRole('textbox', { name: 'Interaction SID' })).not.toBeInTheDocument();
  });

  it('"Settings" opens the Settings screen and "Back to Production" returns to the workspace as it was', async () => {
    const { user } = await openApp();
    await user.type(screen.getByRole('textbox', { name: 'Interaction SID' }), 'half-typed');
    await user.click(menuButton());
    await user.click(screen.getByRole('menuitem', { name: /Settings/ }));
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to Production' }));

    expect(screen.queryByRole('heading', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Interaction SID' })).toHaveValue('half-typed');
  });
});
