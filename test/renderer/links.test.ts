/**
 * `voice-review://` links in the page: what a link means in each session (link-plan.ts), the
 * window title, and the whole app receiving main's pushes through `window.appEvents` (built by the
 * shared createAppEvents, as the preload builds it): a link in the active workspace, a link naming
 * another saved workspace (asked, never switched silently), a link naming a workspace not set up
 * here (a note), a refusal in words, and the "Open link…" dialog opened from the menu.
 */
import '@testing-library/svelte/vitest';
import { screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppEvents } from '$shared/bridge';
import { PUSH_CHANNELS, type OpenLinkPush } from '$shared/contract';
import { openCallRequests } from '../../renderer/src/lib/interaction/open-request.svelte';
import { findNamedWorkspace, planLinkOpen } from '../../renderer/src/lib/links/link-plan';
import { setShownInteraction, windowTitle } from '../../renderer/src/lib/window-title.svelte';
import { noWorkspace, ok, PRODUCTION, STAGING, twoWorkspacesSession, workspace } from './fake-api';
import { renderApp, renderWorkspace } from './render-app';

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const link = (workspaceName: string | null, atSeconds: number | null = 30) => ({ sid: SID, atSeconds, workspaceName });

/** Installs `window.appEvents` over a local emitter; returns the function main's `webContents.send` stands for. */
function installAppEvents() {
  const listeners = new Map<string, Array<(payload: unknown) => void>>();
  window.appEvents = createAppEvents((channel, listener) => {
    listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    return () =>
      listeners.set(
        channel,
        (listeners.get(channel) ?? []).filter((l) => l !== listener),
      );
  });
  return (channel: string, payload: unknown) => {
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  };
}

afterEach(() => {
  delete window.appEvents;
  setShownInteraction(null);
});

describe('planLinkOpen', () => {
  it('opens in the active workspace when the link names it or none', () => {
    expect(planLinkOpen(link('Production'), twoWorkspacesSession())).toEqual({ kind: 'open', note: null });
    expect(planLinkOpen(link(null), twoWorkspacesSession())).toEqual({ kind: 'open', note: null });
    expect(planLinkOpen(link('production'), twoWorkspacesSession())).toEqual({ kind: 'open', note: null });
  });

  it('asks before switching when the link names another saved workspace', () => {
    expect(planLinkOpen(link('Staging'), twoWorkspacesSession())).toEqual({ kind: 'ask-switch', workspace: STAGING });
    expect(planLinkOpen(link('Staging'), twoWorkspacesSession(null))).toEqual({
      kind: 'ask-switch',
      workspace: STAGING,
    });
  });

  it('shows the call in the active workspace with a note when the named workspace is not set up here', () => {
    expect(planLinkOpen(link('Acme EU'), twoWorkspacesSession())).toEqual({
      kind: 'open',
      note: 'The link names workspace “Acme EU”, which is not set up here; showing the call in “Production”.',
    });
  });

  it('cannot open without an active workspace unless the link names a saved one', () => {
    expect(planLinkOpen(link('Acme EU'), noWorkspace())).toEqual({
      kind: 'cannot-open',
      message:
        'The link names workspace “Acme EU”, which is not set up here. Open or add a workspace, then open the link again.',
    });
    expect(planLinkOpen(link(null), noWorkspace())).toMatchObject({ kind: 'cannot-open' });
  });

  it('prefers the exact name, and refuses to guess between names differing only in case', () => {
    const session = { ...twoWorkspacesSession(), workspaces: [workspace('a', 'Prod'), workspace('b', 'PROD')] };
    expect(findNamedWorkspace(session, 'PROD')?.id).toBe('b');
    expect(findNamedWorkspace(session, 'prod')).toBeNull();
  });
});

describe('windowTitle', () => {
  it('names the call shown and the workspace', () => {
    expect(windowTitle('Production', SID)).toBe('interaction_1b4e28ba… — Production — Voice Review');
    expect(windowTitle('Production', null)).toBe('Production — Voice Review');
    expect(windowTitle(null, null)).toBe('Voice Review');
  });

  it('is the document title in the app, following the workspace and the call shown', async () => {
    await renderWorkspace(twoWorkspacesSession());
    await waitFor(() => expect(document.title).toBe('Production — Voice Review'));
    setShownInteraction(SID);
    await waitFor(() => expect(document.title).toBe('interaction_1b4e28ba… — Production — Voice Review'));
  });
});

describe('links pushed by main', () => {
  it('shows the call at the time in the active workspace', async () => {
    const push = installAppEvents();
    await renderWorkspace(twoWorkspacesSession());
    const before = openCallRequests.latest()?.id ?? 0;
    push(PUSH_CHANNELS.openLink, { ok: true, link: link('Production', 30) } satisfies OpenLinkPush);
    await waitFor(() => expect(openCallRequests.latest()).toMatchObject({ sid: SID, atSeconds: 30, note: null }));
    expect(openCallRequests.latest()!.id).toBeGreaterThan(before);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Interaction SID' })).toHaveValue(SID));
  });

  it('asks before switching to the workspace the link names, and switches only on yes', async () => {
    const push = installAppEvents();
    const { fake, user } = await renderWorkspace(twoWorkspacesSession(), {
      switchWorkspace: ok(twoWorkspacesSession(STAGING.id)),
    });
    const before = openCallRequests.latest()?.id ?? 0;
    push(PUSH_CHANNELS.openLink, { ok: true, link: link('Staging', 12.5) });
    let dialog = await screen.findByRole('dialog', { name: 'Open this call in another workspace?' });
    expect(dialog).toHaveTextContent('The link is for a call in workspace “Staging”; you are in “Production”.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.switchWorkspace).toEqual([]);
    expect(openCallRequests.latest()?.id ?? 0).toBe(before);

    push(PUSH_CHANNELS.openLink, { ok: true, link: link('Staging', 12.5) });
    dialog = await screen.findByRole('dialog', { name: 'Open this call in another workspace?' });
    await user.click(within(dialog).getByRole('button', { name: 'Switch to “Staging”' }));
    await waitFor(() => expect(openCallRequests.latest()).toMatchObject({ sid: SID, atSeconds: 12.5, note: null }));
    expect(fake.calls.switchWorkspace).toEqual([[STAGING.id]]);
    expect(screen.getByLabelText('Current workspace')).toHaveTextContent('Staging');
  });

  it('shows the call in the current workspace with a note when the named one is not set up here', async () => {
    const push = installAppEvents();
    await renderWorkspace(twoWorkspacesSession());
    push(PUSH_CHANNELS.openLink, { ok: true, link: link('Acme EU', null) });
    await waitFor(() =>
      expect(openCallRequests.latest()).toMatchObject({
        sid: SID,
        atSeconds: null,
        note: 'The link names workspace “Acme EU”, which is not set up here; showing the call in “Production”.',
      }),
    );
  });

  it("shows main's refusal in words", async () => {
    const push = installAppEvents();
    const { user } = await renderWorkspace(twoWorkspacesSession());
    push(PUSH_CHANNELS.openLink, { ok: false, message: 'This link does not name a well-formed interaction SID.' });
    const dialog = await screen.findByRole('dialog', { name: 'This link cannot be opened' });
    expect(dialog).toHaveTextContent('This link does not name a well-formed interaction SID.');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog', { name: 'This link cannot be opened' })).toBeNull();
  });

  it('drops a push of the wrong shape', async () => {
    const push = installAppEvents();
    await renderWorkspace(twoWorkspacesSession());
    const before = openCallRequests.latest();
    push(PUSH_CHANNELS.openLink, { ok: true, link: { sid: '../../etc/passwd', atSeconds: 1, workspaceName: null } });
    push(PUSH_CHANNELS.openLink, { ok: true, link: { sid: SID, atSeconds: -4, workspaceName: null } });
    push(PUSH_CHANNELS.openLink, 'voice-review://interactions/x');
    // A well-formed push after them is acted on, and it is the only request the four made.
    push(PUSH_CHANNELS.openLink, { ok: true, link: link('Production', 8) });
    await waitFor(() => expect(openCallRequests.latest()).toMatchObject({ sid: SID, atSeconds: 8 }));
    expect(openCallRequests.latest()!.id).toBe((before?.id ?? 0) + 1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says what to do when no workspace is open', async () => {
    const push = installAppEvents();
    renderApp(noWorkspace());
    await screen.findByRole('button', { name: 'Open demo workspace' });
    push(PUSH_CHANNELS.openLink, { ok: true, link: link(null) });
    const dialog = await screen.findByRole('dialog', { name: 'This link cannot be opened' });
    expect(dialog).toHaveTextContent('No workspace is open. Open or add a workspace, then open the link again.');
  });
});

describe('Open link… from the menu', () => {
  it('refuses a hostile link with words under the field, keeps the text, then opens a good one', async () => {
    const push = installAppEvents();
    const { user } = await renderWorkspace(twoWorkspacesSession());
    push(PUSH_CHANNELS.menuCommand, 'open-link');
    const dialog = await screen.findByRole('dialog', { name: 'Open link' });
    const field = within(dialog).getByRole('textbox', { name: 'Link' });
    expect(field).toHaveFocus();
    await user.type(field, `voice-review://interactions/${SID}?api_key=sk_live_123`);
    await user.click(within(dialog).getByRole('button', { name: 'Open' }));
    expect(field).toHaveAccessibleDescription(/never carries a key/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue(`voice-review://interactions/${SID}?api_key=sk_live_123`);

    await user.clear(field);
    await user.type(field, `  voice-review://interactions/${SID}?t=42 {Enter}`);
    await waitFor(() => expect(openCallRequests.latest()).toMatchObject({ sid: SID, atSeconds: 42 }));
    expect(screen.queryByRole('dialog', { name: 'Open link' })).toBeNull();
  });

  it('opens the keyboard shortcut sheet from Help', async () => {
    const push = installAppEvents();
    await renderWorkspace(twoWorkspacesSession());
    push(PUSH_CHANNELS.menuCommand, 'shortcuts');
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    push(PUSH_CHANNELS.menuCommand, 'export');
    push(PUSH_CHANNELS.menuCommand, 'not-a-command');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  it('leaves the app working without the preload (no window.appEvents)', async () => {
    await renderWorkspace({ ...twoWorkspacesSession(), workspaces: [PRODUCTION] });
    expect(screen.getByRole('textbox', { name: 'Interaction SID' })).toBeVisible();
  });
});
