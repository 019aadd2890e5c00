/**
 * The Phones, SIP trunks and Webhooks lists: every row opens (a click anywhere in it, or its
 * "Open" button from the keyboard), and a row whose name the service sent empty still has a
 * label a person can see and can be opened and edited. The app as shown (Root -> App) over a
 * fake `window.api`.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Phone, SipTrunk, Webhook } from '$shared/domain';
import { demoSession, ok, phone, type Replies } from './fake-api';
import { goToSection, renderWorkspace } from './render-app';

/** A SIP trunk with the given SID and name; other fields empty. */
function trunk(sid: string, name: string | null): SipTrunk {
  return {
    sid,
    name,
    terminationUri: 'sip:pbx.example.com',
    createdAt: null,
    updatedAt: null,
    sipUsername: null,
    sipPassword: null,
  };
}

/** A webhook with the given SID and URL; other fields empty. */
function webhook(sid: string, url: string | null): Webhook {
  return {
    sid,
    url,
    callStartedEvent: true,
    callEndedEvent: false,
    createdAt: null,
    updatedAt: null,
    apiKey: null,
    phoneNumber: null,
  };
}

/** Opens the app on the demo workspace and goes to `section`. */
async function openSection(section: string, replies: Replies) {
  const app = await renderWorkspace(demoSession(), replies);
  await goToSection(app.user, section);
  return app;
}

const FRONT_DESK = phone('Front desk', '+14155550100');
const SALES = phone('Sales line', '+14155550123');

describe('Every row opens', () => {
  it('opens a phone by a click on a cell that is not its button', async () => {
    const { user } = await openSection('Phones', {
      listPhones: ok([FRONT_DESK, SALES]),
      getPhone: (number: string) => ok(number === SALES.number ? SALES : FRONT_DESK),
    });
    const list = screen.getByRole('region', { name: 'Phones' });
    await user.click(await within(list).findByText('+1 415 555 0123'));

    const detail = screen.getByRole('region', { name: 'Phone details' });
    expect(await within(detail).findByRole('heading', { name: 'Sales line' })).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Open Sales line' })).toHaveAttribute('aria-current', 'true');
    expect(within(list).getByRole('button', { name: 'Open Front desk' })).not.toHaveAttribute('aria-current');
  });

  it('opens a phone from the keyboard: Tab to its row, Enter or Space', async () => {
    const { user } = await openSection('Phones', {
      listPhones: ok([FRONT_DESK, SALES]),
      getPhone: (number: string) => ok(number === SALES.number ? SALES : FRONT_DESK),
    });
    const list = screen.getByRole('region', { name: 'Phones' });
    await within(list).findByRole('button', { name: 'Open Front desk' });
    within(list).getByRole('combobox', { name: 'Sort phones' }).focus();

    await user.tab();
    expect(within(list).getByRole('button', { name: 'Open Front desk' })).toHaveFocus();
    await user.keyboard('{Enter}');
    const detail = screen.getByRole('region', { name: 'Phone details' });
    expect(await within(detail).findByRole('heading', { name: 'Front desk' })).toBeInTheDocument();

    await user.tab();
    expect(within(list).getByRole('button', { name: 'Open Sales line' })).toHaveFocus();
    await user.keyboard(' ');
    expect(await within(detail).findByRole('heading', { name: 'Sales line' })).toBeInTheDocument();
  });

  it('shows a phone named "" as "Unnamed phone", opens it and saves a name for it', async () => {
    const unnamed = phone('', '+14155550142');
    // The server's copy of the phone, changed by updatePhone as the service would.
    let stored: Phone = unnamed;
    const { fake, user } = await openSection('Phones', {
      listPhones: () => ok([FRONT_DESK, stored]),
      getPhone: () => ok(stored),
      updatePhone: (_number, update) => ok((stored = { ...stored, ...update })),
    });
    const list = screen.getByRole('region', { name: 'Phones' });
    const open = await within(list).findByRole('button', { name: 'Open Unnamed phone +1 415 555 0142' });
    expect(open).toHaveTextContent('Unnamed phone');
    expect(open).toBeVisible();

    await user.click(open);
    const detail = screen.getByRole('region', { name: 'Phone details' });
    expect(await within(detail).findByRole('heading', { name: '+1 415 555 0142' })).toBeInTheDocument();
    const form = within(detail).getByRole('form', { name: 'Edit phone' });
    expect(within(form).getByLabelText('Name')).toHaveValue('');
    await user.type(within(form).getByLabelText('Name'), 'Support');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(fake.calls.updatePhone).toEqual([['+14155550142', { name: 'Support' }]]);
    expect(await within(list).findByRole('button', { name: 'Open Support' })).toHaveTextContent('Support');
  });

  it('opens a SIP trunk by a click on its termination URI, and names an unnamed one', async () => {
    const { user } = await openSection('SIP trunks', {
      listSipTrunks: ok([trunk('trunk_1', 'Office PBX'), trunk('trunk_2', '')]),
      getSipTrunk: (sid: string) => ok(trunk(sid, sid === 'trunk_1' ? 'Office PBX' : '')),
    });
    const list = screen.getByRole('region', { name: 'SIP trunks' });
    const unnamed = await within(list).findByRole('button', { name: 'Open Unnamed SIP trunk sip:pbx.example.com' });
    expect(unnamed).toHaveTextContent('Unnamed SIP trunk');

    const rows = within(list).getAllByRole('row');
    await user.click(within(rows[1]!).getByText('sip:pbx.example.com'));
    const panel = screen.getByRole('region', { name: 'SIP trunk panel' });
    expect(await within(panel).findByText('trunk_1')).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { name: 'Office PBX' })).toBeInTheDocument();
  });

  it('opens a webhook by a click on a cell, but its Delete button only asks to delete', async () => {
    const { fake, user } = await openSection('Webhooks', {
      listWebhooks: ok([webhook('wh_1', 'https://hooks.example.com/a'), webhook('wh_2', '')]),
      getWebhook: (sid: string) => ok(webhook(sid, sid === 'wh_1' ? 'https://hooks.example.com/a' : '')),
    });
    const list = screen.getByRole('region', { name: 'Webhooks' });
    expect(await within(list).findByRole('button', { name: 'Open wh_2' })).toHaveTextContent('wh_2');

    await user.click(within(list).getByRole('button', { name: 'Delete wh_2' }));
    expect(screen.getByRole('dialog', { name: 'Delete this webhook?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(fake.calls.getWebhook).toHaveLength(0);

    const rows = within(list).getAllByRole('row');
    await user.click(within(rows[1]!).getByText('On'));
    const detail = screen.getByRole('region', { name: 'Webhook details' });
    expect(await within(detail).findByText('wh_1')).toBeInTheDocument();
    expect(fake.calls.getWebhook).toEqual([['wh_1']]);
  });
});
