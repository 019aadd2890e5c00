/**
 * A reviewer's queue, end to end: ticket text with three SIDs pasted on the Calls view lines the
 * calls up in the workspace's queue and shows the first; Alt+↓/↑ move through them, R marks the
 * call shown reviewed, and after the app restarts with the same settings folder and keys the queue
 * is still there, reviewed marks included. Also: the recent calls list shows a call as soon as it
 * has been looked up, without leaving the view.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../electron/main/keys/keychain';
import { ensureBuilt } from './build';
import { openDemoAfresh, showInteraction, startHarness, waitForTranscript, type Harness } from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { blurFocus } from './review-helpers';
import { temporaryFolder } from '../fixtures/temporary-folder';

const userDataDir = temporaryFolder('vr-e2e-queue-');
const secrets = createMemoryStore();
let h: Harness;
let sids: string[];

checkPageErrorsEachTest(() => h);

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness({ userDataDir, secrets });
  await h.session.openDemo();
  sids = (await h.session.info()).demoInteractions.slice(0, 3).map((d) => d.sid);
});

// Each test starts in the demo workspace with an empty queue and no recent calls.
beforeEach(async () => {
  await openDemoAfresh(h);
  await h.handlers.clearQueue([]);
  await h.handlers.clearRecentCalls([]);
  await h.page.reload();
  await h.page.getByLabel('Interaction SID').waitFor();
});

afterAll(async () => {
  await h.close();
});

/** Pastes `text` on the page outside any text field, as Ctrl+V with nothing focused does. */
async function pasteOnPage(text: string): Promise<void> {
  await blurFocus(h.page);
  await h.page.evaluate((pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** The SID of the call shown, read from its details. */
async function shownSid(): Promise<string | null> {
  const details = h.page.getByRole('region', { name: 'Call details' });
  if (!(await details.count())) return null;
  const text = await details.innerText();
  return sids.find((sid) => text.includes(sid)) ?? null;
}

const queueList = () => h.page.getByRole('region', { name: 'Queue' });
const queueEntries = () => queueList().getByRole('button', { name: /^Open call \d+ of \d+/ });

describe('the review queue', () => {
  it('queues pasted ticket text, moves with Alt+↓/↑, marks reviewed with R, and survives a restart', async () => {
    const ticket = `Ticket 4411. Customer called three times:\n- ${sids[0]}\n- https://dash.example.com/calls/${sids[1]}\n- ${sids[2]} (hung up)`;
    await pasteOnPage(ticket);

    await expect.poll(() => queueEntries().count()).toBe(3);
    await expect.poll(shownSid).toBe(sids[0]);
    await waitForTranscript(h.page);
    expect(await queueList().getByText('0 of 3 reviewed').isVisible()).toBe(true);
    const current = queueList().locator('[aria-current="step"]');
    await expect.poll(() => current.textContent()).toMatch(/^Open call 1 of 3/);

    await blurFocus(h.page);
    await h.page.keyboard.press('Alt+ArrowDown');
    await expect.poll(shownSid).toBe(sids[1]);
    await expect.poll(() => current.textContent()).toMatch(/^Open call 2 of 3/);
    await waitForTranscript(h.page);

    await blurFocus(h.page);
    await h.page.keyboard.press('r');
    await expect.poll(() => queueList().getByText('1 of 3 reviewed').isVisible()).toBe(true);
    await expect.poll(() => current.textContent()).toMatch(/^Open call 2 of 3, reviewed/);
    expect(
      await h.page.getByRole('group', { name: 'Queue' }).getByRole('button', { name: 'Reviewed ✓' }).isVisible(),
    ).toBe(true);

    await blurFocus(h.page);
    await h.page.keyboard.press('Alt+ArrowDown');
    await expect.poll(shownSid).toBe(sids[2]);
    await blurFocus(h.page);
    await h.page.keyboard.press('Alt+ArrowUp');
    await expect.poll(shownSid).toBe(sids[1]);
    await blurFocus(h.page);
    await h.page.keyboard.press('Alt+ArrowUp');
    await expect.poll(shownSid).toBe(sids[0]);
    // Plain ↓ stays the transcript's key: the call shown does not change.
    await waitForTranscript(h.page);
    await blurFocus(h.page);
    await h.page.keyboard.press('ArrowDown');
    expect(await shownSid()).toBe(sids[0]);

    // Restart: the same settings folder and keys, a new main and a new page.
    await h.close();
    h = await startHarness({ userDataDir, secrets });
    await h.page.getByLabel('Current workspace').getByText('Demo workspace').waitFor();
    await expect.poll(() => queueEntries().count()).toBe(3);
    expect(await queueList().getByText('1 of 3 reviewed').isVisible()).toBe(true);
    const labels = await queueEntries().evaluateAll((buttons) => buttons.map((b) => b.textContent));
    expect(labels.map((l) => /, reviewed:/.test(l))).toEqual([false, true, false]);
    expect(labels.map((l) => sids.findIndex((sid) => l.includes(sid)))).toEqual([0, 1, 2]);

    // Picking a queued call from the list shows it, and the queue can be cleared after a confirmation.
    await queueEntries().nth(2).click();
    await expect.poll(shownSid).toBe(sids[2]);
    await queueList().getByRole('button', { name: 'Clear' }).click();
    await h.page.getByRole('dialog', { name: 'Clear the queue?' }).getByRole('button', { name: 'Clear queue' }).click();
    await expect.poll(() => queueEntries().count()).toBe(0);
  });

  it('opens a single pasted SID without queuing it, and leaves pastes into the SID field to the field', async () => {
    await pasteOnPage(`see ${sids[1]}`);
    await expect.poll(shownSid).toBe(sids[1]);
    expect(await queueEntries().count()).toBe(0);
    await waitForTranscript(h.page);

    await h.page.getByLabel('Interaction SID').fill('');
    await h.page.getByLabel('Interaction SID').focus();
    await h.page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.activeElement?.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, `${sids[0]} ${sids[2]}`);
    // The page did not act on it: still the same call, nothing queued.
    expect(await shownSid()).toBe(sids[1]);
    expect(await queueEntries().count()).toBe(0);
  });
});

describe('recent calls', () => {
  it('lists a call as soon as it is shown, most recent first, without leaving the view', async () => {
    const recent = h.page.getByRole('region', { name: 'Recent calls' });
    await recent.getByText('No calls opened in this workspace yet.').waitFor();
    await showInteraction(h.page, sids[0]!);
    await expect
      .poll(() => recent.getByRole('button', { name: new RegExp(`^Open call .*${sids[0]}`) }).count())
      .toBe(1);
    await showInteraction(h.page, sids[1]!);
    const listed = recent.getByRole('button', { name: /^Open call / });
    await expect
      .poll(() =>
        listed.evaluateAll((buttons) => buttons.map((b) => /interaction_[0-9a-f-]{36}/.exec(b.textContent)?.[0])),
      )
      .toEqual([sids[1], sids[0]]);
    // The call shown is marked current in the list.
    expect(await recent.locator('[aria-current="step"]').textContent()).toContain(sids[1]);
  });
});
