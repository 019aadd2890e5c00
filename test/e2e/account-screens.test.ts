/**
 * Phones, SIP trunks and webhooks end to end, in Chromium through the real handlers, against the
 * embedded demo service (whose data changes as the user edits it). Each test starts from a
 * freshly loaded page on its section and makes the data it needs, so it passes alone too.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Phone, SipTrunk, Webhook } from '../../electron/shared/domain';
import { ensureBuilt } from './build';
import { checkPageErrorsEachTest } from './page-errors';
import { ARTIFACTS_DIR, startHarness, type Harness } from './harness';

let h: Harness;

async function section(name: string) {
  await h.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
}

/** Loads the page again (nothing left open by an earlier test) and goes to section `name`. */
async function freshSection(name: string) {
  await h.page.reload();
  await h.page.getByLabel('Current workspace').getByText('Demo workspace').waitFor();
  await section(name);
}

/** Opens the edit form of `phone` in the Phones section. */
async function openPhone(phone: Phone) {
  await h.page
    .getByRole('region', { name: 'Phones' })
    .getByRole('button', { name: `Open ${phone.name}` })
    .click();
  return h.page.getByRole('form', { name: 'Edit phone' });
}

/** Creates a SIP trunk through the New SIP trunk form (a double click, to show it makes one). */
async function createTrunk(trunk: { name: string; uri: string; user: string; pass: string }) {
  const region = h.page.getByRole('region', { name: 'SIP trunks' });
  await region.getByRole('button', { name: 'New SIP trunk' }).click();
  const form = h.page.getByRole('form', { name: 'New SIP trunk' });
  await form.getByLabel('Name', { exact: true }).fill(trunk.name);
  await form.getByLabel('Termination URI').fill(trunk.uri);
  if (trunk.user) {
    await form.getByLabel(/Username/).fill(trunk.user);
    await form.getByLabel(/Password/).fill(trunk.pass);
  }
  await form.getByRole('button', { name: 'Create SIP trunk' }).dblclick();
  await region.getByRole('button', { name: `Open ${trunk.name}` }).waitFor();
}

async function value<T>(result: Promise<{ ok: boolean; value?: unknown }>): Promise<T> {
  const r = await result;
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.value as T;
}

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  h = await startHarness();
  await h.page.getByRole('button', { name: 'Open demo workspace' }).click();
  await h.page.getByLabel('Current workspace').getByText('Demo workspace').waitFor();
});

checkPageErrorsEachTest(() => h);

afterAll(async () => {
  await h.close();
});

describe('phones', () => {
  it('renames a phone and changes its agents; the list shows the server version', async () => {
    const phones = await value<Phone[]>(h.handlers.listPhones([]));
    const phone = phones.find((p) => !p.sipTrunk?.system) ?? phones[0]!;
    await freshSection('Phones');
    const list = h.page.getByRole('region', { name: 'Phones' });
    const form = await openPhone(phone);
    await form.getByLabel('Name').fill('Renamed by e2e');
    const agent = 'agent_11111111-2222-4333-8444-555555555555';
    await form.getByLabel('Inbound agent SID').fill(agent);
    await form.getByLabel('Outbound agent SID').fill(agent);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await h.page.getByText(/Saved at .* Showing the server's version/).waitFor();
    await expect.poll(() => list.getByRole('button', { name: 'Open Renamed by e2e' }).isVisible()).toBe(true);
    const saved = await value<Phone>(h.handlers.getPhone([phone.number]));
    expect(saved).toMatchObject({ name: 'Renamed by e2e', inboundAgentId: agent, outboundAgentId: agent });
  });

  it('a failed save keeps what was typed and shows why', async () => {
    const phones = await value<Phone[]>(h.handlers.listPhones([]));
    await freshSection('Phones');
    const form = await openPhone(phones[phones.length - 1]!);
    await form.getByLabel('Outbound agent SID').fill('agent_not-a-uuid');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => form.getByText(/Agent SIDs look like agent_ followed by a UUID/).isVisible()).toBe(true);
    await expect.poll(() => form.getByLabel('Outbound agent SID').inputValue()).toBe('agent_not-a-uuid');

    // A failure from the service: the handler answers as main does when the server returns 503.
    await form.getByLabel('Outbound agent SID').fill('agent_99999999-2222-4333-8444-555555555555');
    await form.getByLabel('Name').fill('Will not be saved');
    const realUpdate = h.handlers.updatePhone;
    h.handlers.updatePhone = () =>
      Promise.resolve({
        ok: false,
        error: {
          kind: 'server',
          status: 503,
          message: 'demo.local had a problem answering (HTTP 503). Try again in a moment.',
        },
      });
    try {
      await form.getByRole('button', { name: 'Save changes' }).click();
      await form.getByRole('alert').waitFor();
      await expect(form.getByRole('alert').innerText()).resolves.toMatch(/HTTP 503/);
      await expect.poll(() => form.getByLabel('Name').inputValue()).toBe('Will not be saved');
    } finally {
      h.handlers.updatePhone = realUpdate;
    }
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'phones.png') });
    await form.getByRole('button', { name: 'Discard changes' }).click();
  });
});

describe('SIP trunks', () => {
  it('creates a trunk with credentials and one without; both are listed', async () => {
    await freshSection('SIP trunks');
    await createTrunk({
      name: 'E2E PBX with auth',
      uri: 'sips:pbx.e2e.example.com:5061',
      user: 'e2e-user',
      pass: 's3cret-e2e',
    });
    await createTrunk({ name: 'E2E open trunk', uri: 'sip.e2e.example.com', user: '', pass: '' });
    const trunks = await value<SipTrunk[]>(h.handlers.listSipTrunks([]));
    // A double click made one trunk each.
    expect(trunks.filter((t) => t.name === 'E2E PBX with auth')).toHaveLength(1);
    expect(trunks.find((t) => t.name === 'E2E PBX with auth')).toMatchObject({
      sipUsername: 'e2e-user',
      terminationUri: 'sips:pbx.e2e.example.com:5061',
    });
    expect(trunks.find((t) => t.name === 'E2E open trunk')?.sipUsername ?? null).toBeNull();
  });

  it('shows the password masked until revealed, and refuses a bad termination URI', async () => {
    await freshSection('SIP trunks');
    await createTrunk({ name: 'E2E masked', uri: 'sip:masked.e2e.example.com', user: 'm-user', pass: 'm4sked-e2e' });
    const region = h.page.getByRole('region', { name: 'SIP trunks' });
    await region.getByRole('button', { name: 'Open E2E masked' }).click();
    const panel = h.page.getByRole('region', { name: 'SIP trunk panel' });
    await panel.getByRole('heading', { name: 'E2E masked' }).waitFor();
    await expect.poll(() => panel.getByText('m4sked-e2e').count()).toBe(0);
    await panel.getByRole('button', { name: 'Reveal' }).click();
    await expect.poll(() => panel.getByText('m4sked-e2e').isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Hide' }).click();

    await region.getByRole('button', { name: 'New SIP trunk' }).click();
    const form = h.page.getByRole('form', { name: 'New SIP trunk' });
    await form.getByLabel('Name', { exact: true }).fill('Broken');
    await form.getByLabel('Termination URI').fill('http://not-sip');
    await form.getByLabel(/Username/).fill('only-user');
    await form.getByRole('button', { name: 'Create SIP trunk' }).click();
    await expect.poll(() => form.getByText(/Use a sip: or sips: URI/).isVisible()).toBe(true);
    await expect.poll(() => form.getByText(/Give both a username and a password/).isVisible()).toBe(true);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'sip-trunks.png') });
    await form.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('webhooks', () => {
  it('cancel deletes nothing; confirm deletes, also after reload', async () => {
    const before = await value<Webhook[]>(h.handlers.listWebhooks([]));
    const target = before[0]!;
    await freshSection('Webhooks');
    const region = h.page.getByRole('region', { name: 'Webhooks' });
    await region.getByRole('button', { name: `Delete ${target.url}` }).click();
    const dialog = h.page.getByRole('dialog', { name: 'Delete this webhook?' });
    await expect.poll(() => dialog.getByText(target.url!).isVisible()).toBe(true);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'webhooks-confirm.png') });
    await h.page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await value<Webhook[]>(h.handlers.listWebhooks([]))).toHaveLength(before.length);
    await expect.poll(() => region.getByRole('button', { name: `Open ${target.url}` }).isVisible()).toBe(true);

    await region.getByRole('button', { name: `Delete ${target.url}` }).click();
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await h.page.getByText(`Deleted ${target.url}.`).waitFor();
    await expect.poll(() => region.getByRole('button', { name: `Open ${target.url}` }).count()).toBe(0);
    expect((await value<Webhook[]>(h.handlers.listWebhooks([]))).map((w) => w.sid)).not.toContain(target.sid);

    await h.page.reload();
    await section('Webhooks');
    await h.page
      .getByRole('region', { name: 'Webhooks' })
      .getByRole('button', { name: /^Open / })
      .first()
      .waitFor();
    await expect
      .poll(() =>
        h.page
          .getByRole('region', { name: 'Webhooks' })
          .getByRole('button', { name: `Open ${target.url}` })
          .count(),
      )
      .toBe(0);
  });

  it('a failed delete brings the row back with the error', async () => {
    const hooks = await value<Webhook[]>(h.handlers.listWebhooks([]));
    const target = hooks[0]!;
    await freshSection('Webhooks');
    const region = h.page.getByRole('region', { name: 'Webhooks' });
    const realDelete = h.handlers.deleteWebhook;
    h.handlers.deleteWebhook = () =>
      Promise.resolve({
        ok: false,
        error: { kind: 'network', message: 'Could not reach demo: the connection was refused.' },
      });
    try {
      await region.getByRole('button', { name: `Delete ${target.url}` }).click();
      await h.page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
      await region.getByRole('alert').waitFor();
      await expect(region.getByRole('alert').innerText()).resolves.toMatch(
        /was not deleted[\s\S]*connection was refused/,
      );
      await expect.poll(() => region.getByRole('button', { name: `Open ${target.url}` }).isVisible()).toBe(true);
    } finally {
      h.handlers.deleteWebhook = realDelete;
    }
  });
});
