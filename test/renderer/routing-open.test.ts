/**
 * Opening a phone or a webhook from elsewhere in the workspace (the call's routing panel): the
 * request brings the Phones or Webhooks screen to the front with that item's details open, once;
 * a request for another workspace is ignored. The app as shown (Root -> App) over a fake
 * `window.api`.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { requestOpenPhone, requestOpenWebhook } from '../../renderer/src/lib/account/open-request.svelte';
import { demoSession, ok, phone, webhook } from './fake-api';
import { renderWorkspace } from './render-app';

const SALES = phone('Sales line', '+14155550123');
const HOOK = webhook({ callEndedEvent: false, phoneNumber: null });

describe('opening an account item from a call', () => {
  it('shows the phone asked for, then the webhook asked for, each in its own screen', async () => {
    const session = demoSession();
    await renderWorkspace(session, {
      listPhones: ok([SALES]),
      getPhone: ok(SALES),
      listWebhooks: ok([HOOK]),
      getWebhook: ok(HOOK),
    });
    const workspaceId = session.workspace!.id;

    flushSync(() => requestOpenPhone(workspaceId, SALES.number));
    const phoneDetail = await screen.findByRole('region', { name: 'Phone details' });
    expect(await within(phoneDetail).findByRole('heading', { name: 'Sales line' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Phones' })).toHaveAttribute('aria-current', 'page');

    flushSync(() => requestOpenWebhook(workspaceId, HOOK.sid));
    const hookDetail = await screen.findByRole('region', { name: 'Webhook details' });
    expect(await within(hookDetail).findByText('https://hooks.example.com/calls')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Webhooks' })).toHaveAttribute('aria-current', 'page');
  });

  it('ignores a request for another workspace', async () => {
    await renderWorkspace(demoSession(), { listPhones: ok([SALES]) });
    flushSync(() => requestOpenPhone('another-workspace', SALES.number));
    expect(screen.getByRole('button', { name: 'Calls' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('region', { name: 'Phone details' })).toBeNull();
  });
});
