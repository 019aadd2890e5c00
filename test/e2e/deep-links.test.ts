/**
 * `voice-review://` links, end to end: the built renderer in Debian's Chromium with the built
 * preload (its `ipcRenderer.on` stood in), against the embedded demo service. Main's push of a
 * parsed link (as electron/main/shell/deep-links.ts sends it) opens the demo call in the Calls
 * view with the playhead at the link's time, paused (a link never starts sound by itself); a link naming a workspace not set up here shows the
 * call with a note; the "Open link…" dialog (opened by the native menu's command) refuses a
 * hostile link with words and opens a good one. Screenshot: test-artifacts/deep-link.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUSH_CHANNELS, type OpenLinkPush } from '../../electron/shared/contract';
import type { Interaction } from '../../electron/shared/domain';
import { pushToRenderer } from '../fixtures/preload-bridge';
import { ensureBuilt } from './build';
import { checkPageErrorsEachTest } from './page-errors';
import { ARTIFACTS_DIR, openDemoAfresh, playerTimeSeconds, startHarness, type Harness } from './harness';
import { mediaTimeSeconds } from './review-helpers';

let h: Harness;
/** A demo call with a recording longer than 40 s. */
let call: Interaction;

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
  await h.session.openDemo();
  for (const demo of (await h.session.info()).demoInteractions) {
    const result = await h.handlers.getInteraction([demo.sid]);
    const found = result.ok ? (result.value as Interaction) : null;
    if (found?.recording.available && (found.durationSeconds ?? 0) > 40) {
      call = found;
      break;
    }
  }
  expect(call, 'the demo seed has a call with a recording over 40 s').toBeDefined();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
});

checkPageErrorsEachTest(() => h);

beforeEach(async () => {
  await openDemoAfresh(h);
});

afterAll(async () => {
  await h.close();
});

const push = (payload: OpenLinkPush) => pushToRenderer(h.page, PUSH_CHANNELS.openLink, payload);

describe('links pushed by main', () => {
  it('opens the call in the Calls view at the link time, paused until Play is pressed', async () => {
    const page = h.page;
    await push({ ok: true, link: { sid: call.sid, atSeconds: 30, workspaceName: 'Demo workspace' } });
    await expect.poll(() => page.getByLabel('Interaction SID').inputValue()).toBe(call.sid);
    await page.getByRole('region', { name: 'Recording' }).waitFor();
    // The playhead waits at 30 s: the slider and the media element there, the media paused.
    await expect.poll(() => playerTimeSeconds(page), { timeout: 30_000 }).toBe(30);
    await expect.poll(() => mediaTimeSeconds(page)).toBe(30);
    const play = page.getByRole('button', { name: 'Play', exact: true });
    await expect.poll(() => play.isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await page.evaluate(() => document.querySelector('audio')?.paused)).toBe(true);
    expect(await mediaTimeSeconds(page)).toBe(30);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'deep-link.png') });
    // Play starts from the link's time.
    await play.click();
    await expect.poll(() => page.getByRole('button', { name: 'Pause' }).count()).toBe(1);
    await expect.poll(() => mediaTimeSeconds(page)).toBeGreaterThan(30);
    expect(await mediaTimeSeconds(page)).toBeLessThan(40);
    // The window title names the workspace (and the call once the Calls view reports it: window-title.svelte.ts).
    expect(await page.title()).toMatch(/Demo workspace — Voice Review$/);
  });

  it('shows the call in the current workspace with a note when the link names one not set up here', async () => {
    const page = h.page;
    await push({ ok: true, link: { sid: call.sid, atSeconds: null, workspaceName: 'Acme EU' } });
    await page
      .getByRole('note')
      .filter({
        hasText: 'The link names workspace “Acme EU”, which is not set up here; showing the call in “Demo workspace”.',
      })
      .waitFor();
    expect(await page.getByLabel('Interaction SID').inputValue()).toBe(call.sid);
  });

  it("shows main's refusal in words", async () => {
    const page = h.page;
    await push({ ok: false, message: 'This link carries something that looks like a key or password.' });
    const dialog = page.getByRole('dialog', { name: 'This link cannot be opened' });
    await dialog.getByText('This link carries something that looks like a key or password.').waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('Open link… (native menu command)', () => {
  it('refuses a hostile link with words under the field, then opens a good one', async () => {
    const page = h.page;
    await pushToRenderer(page, PUSH_CHANNELS.menuCommand, 'open-link');
    const dialog = page.getByRole('dialog', { name: 'Open link' });
    const field = dialog.getByRole('textbox', { name: 'Link' });
    await field.fill('javascript:alert(document.domain)//voice-review://interactions/x');
    await dialog.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const help = await field.evaluate(
      (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent,
    );
    expect(help).toMatch(
      /This is not a Voice Review link\. A Voice Review link looks like voice-review:\/\/interactions\//,
    );
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'open-link-refused.png') });

    await field.fill(`voice-review://interactions/${call.sid}?t=12`);
    await field.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByLabel('Interaction SID').inputValue()).toBe(call.sid);
    await expect.poll(() => playerTimeSeconds(page), { timeout: 30_000 }).toBe(12);
    expect(await page.evaluate(() => document.querySelector('audio')?.paused)).toBe(true);
  });
});
