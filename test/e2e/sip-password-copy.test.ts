/**
 * The SIP trunk panel's "Copy SIP password" button, end to end: the copy goes through main's
 * `copySecret` (which clears the clipboard again after 30 s; timed in
 * test/main/shell/secret-clipboard.test.ts), not the page's own clipboard. The harness's
 * clipboard stand-in shows what main wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SipTrunk } from '../../electron/shared/domain';
import { memoryClipboard } from '../fixtures/memory-clipboard';
import { ensureBuilt } from './build';
import { checkPageErrorsEachTest } from './page-errors';
import { startHarness, type Harness } from './harness';

const PASSWORD = 'c0py-me-e2e-Pw';
const clipboard = memoryClipboard();
let h: Harness;

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness({ clipboard });
  await h.page.getByRole('button', { name: 'Open demo workspace' }).click();
  await h.page.getByLabel('Current workspace').getByText('Demo workspace').waitFor();
});

checkPageErrorsEachTest(() => h);

afterAll(async () => {
  await h.close();
});

describe('copying a SIP password', () => {
  it('goes through main, which puts it on the system clipboard', async () => {
    const created = await h.handlers.createSipTrunk([
      {
        name: 'E2E copy trunk',
        terminationUri: 'sip:copy.e2e.example.com',
        sipUsername: 'c-user',
        sipPassword: PASSWORD,
      },
    ]);
    expect(created.ok && (created.value as SipTrunk).name).toBe('E2E copy trunk');
    await h.page.reload();
    await h.page.getByLabel('Current workspace').getByText('Demo workspace').waitFor();
    await h.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'SIP trunks' }).click();
    await h.page
      .getByRole('region', { name: 'SIP trunks' })
      .getByRole('button', { name: 'Open E2E copy trunk' })
      .click();
    const panel = h.page.getByRole('region', { name: 'SIP trunk panel' });
    await panel.getByRole('heading', { name: 'E2E copy trunk' }).waitFor();
    expect(clipboard.text).toBe('');

    await panel.getByRole('button', { name: 'Copy SIP password' }).click();
    await expect.poll(() => clipboard.text).toBe(PASSWORD);
    await expect.poll(() => panel.getByRole('button', { name: 'Copy SIP password' }).innerText()).toBe('Copied');
    // The password was not shown to copy it.
    expect(await panel.getByText(PASSWORD).count()).toBe(0);
  });
});
