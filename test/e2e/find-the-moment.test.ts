/**
 * Finding a moment in a call, end to end: the built renderer in Debian's Chromium against the
 * embedded demo service. On the demo's mono call with one slow reply, `N` pressed on the page
 * jumps to the flagged slow turn (found in the audio, shown as a badge on the reply's row and in
 * the turn timing summary); on the stereo call (agent on the right channel) the lanes read
 * "Agent" and "Caller"; `?` opens the shortcut sheet and Escape gives the focus back; the
 * slow-reply threshold survives a reload. Screenshots: test-artifacts/find-the-moment.png
 * (regions, the flagged gap and a search open) and test-artifacts/stereo-lanes.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Interaction } from '../../electron/shared/domain';
import { ensureBuilt } from './build';
import { ARTIFACTS_DIR, openDemoAfresh, showInteraction, startHarness, type Harness } from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { blurFocus, mediaTimeSeconds, showSideTab, waitForWaveform } from './review-helpers';

/** The demo's mono call with one slow reply, and its stereo call with the agent on the right. */
const SLOW_REPLY_SID = 'interaction_5e1a7c3d-9b24-4f6e-8a10-c2d4e6f80a13';
const STEREO_SID = 'interaction_9d3b5f71-2c8e-4a06-b4d9-7e1f3a5c8b20';
const TRANSCRIPT = 'section[aria-labelledby="transcript-title"]';

let h: Harness;

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness({ viewport: { width: 1280, height: 860 } });
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
});

checkPageErrorsEachTest(() => h);

// Each test starts on a freshly loaded page in the demo workspace, with the default slow-reply
// threshold (nothing in the page's storage), and shows its call itself.
beforeEach(async () => {
  await h.page.evaluate(() => localStorage.clear());
  await openDemoAfresh(h);
});

afterAll(async () => {
  await h.close();
});

/** The demo call `sid` as main reads it. */
async function demoCall(sid: string): Promise<Interaction> {
  const result = await h.handlers.getInteraction([sid]);
  if (!result.ok) throw new Error(`The demo has no call ${sid}`);
  return result.value as Interaction;
}

describe('finding the moment in the demo workspace', () => {
  it('N jumps to the flagged slow reply, shown on its row and in the timing summary', async () => {
    const call = await demoCall(SLOW_REPLY_SID);
    const page = h.page;
    await showInteraction(page, SLOW_REPLY_SID);
    await waitForWaveform(page);

    // The slow reply's row carries the badge; its words give the gap, which ends where it starts.
    const badge = page.locator(TRANSCRIPT).getByText(/^Slow reply \d+\.\d s$/);
    await badge.waitFor();
    expect(await badge.count()).toBe(1);
    const gapSeconds = Number(/(\d+\.\d)/.exec(await badge.innerText())?.[1]);
    expect(gapSeconds).toBeGreaterThan(3);
    const row = page.locator(`${TRANSCRIPT} li`).filter({ hasText: /Slow reply \d/ });
    const entry = call.log[Number(await row.getAttribute('aria-posinset')) - 1];
    expect(entry?.role).toBe('agent');
    const replyAt = entry?.offsetSeconds ?? Number.NaN;

    // Measured in the audio: no note saying the figures come from the log.
    await showSideTab(page, 'Timing');
    const timing = page.getByRole('region', { name: 'Turn timing' });
    await timing
      .getByRole('button', { name: `Longest reply: ${gapSeconds.toFixed(1)} s. Listen from there` })
      .waitFor();
    expect(await timing.getByText(/estimated from the transcript times/).count()).toBe(0);

    await blurFocus(page);
    await page.keyboard.press('n');
    // Playback moves to where the caller stopped speaking: the start of the gap before the reply.
    await expect.poll(() => mediaTimeSeconds(page)).toBeGreaterThan(replyAt - gapSeconds - 0.6);
    expect(await mediaTimeSeconds(page)).toBeLessThan(replyAt - gapSeconds + 1.5);
    await page.keyboard.press('k');

    // A search open over the call with its regions and the flagged gap: the screenshot.
    const word = (entry?.message ?? '').split(/\s+/).find((w) => w.length > 4) ?? 'help';
    await page.getByRole('searchbox', { name: 'Search the transcript' }).fill(word.replace(/[^\p{L}]/gu, ''));
    await page.locator(TRANSCRIPT).getByRole('status').waitFor();
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'find-the-moment.png') });
  });

  it('labels the stereo call lanes Agent and Caller', async () => {
    const page = h.page;
    await showInteraction(page, STEREO_SID);
    await waitForWaveform(page);
    const recording = page.getByRole('region', { name: 'Recording' });

    // The agent is on the right channel: a left-is-agent guess would be wrong.
    await recording.getByText('Agent (right)', { exact: true }).waitFor();
    await recording.getByText('Caller (left)', { exact: true }).waitFor();
    expect(await recording.innerText()).not.toMatch(/Channel 1/);
    await recording.screenshot({ path: join(ARTIFACTS_DIR, 'stereo-lanes.png') });
  });

  it('? opens the shortcut sheet; Escape closes it and gives the focus back', async () => {
    const page = h.page;
    await showInteraction(page, SLOW_REPLY_SID);
    const opener = page.getByRole('button', { name: 'Keyboard shortcuts (?)' });
    await blurFocus(page);

    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    for (const action of ['Play or pause', 'Next flagged moment', 'Back 30 seconds', 'Show these shortcuts']) {
      expect(await sheet.getByRole('cell', { name: action, exact: true }).count()).toBe(1);
    }
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });

    // From its button: the focus comes back to the button.
    await opener.click();
    await sheet.waitFor();
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('keeps the slow-reply threshold across a reload (the page localStorage)', async () => {
    const page = h.page;
    await showInteraction(page, SLOW_REPLY_SID);
    await showSideTab(page, 'Timing');
    const field = page.getByRole('spinbutton', { name: 'Flag replies slower than' });
    await field.fill('5');
    await page
      .locator(TRANSCRIPT)
      .getByText(/^Slow reply/)
      .waitFor({ state: 'detached' });

    await openDemoAfresh(h);
    await showInteraction(page, SLOW_REPLY_SID);
    await showSideTab(page, 'Timing');
    expect(await field.inputValue()).toBe('5');
    await field.fill('1.5');
    await page
      .locator(TRANSCRIPT)
      .getByText(/^Slow reply/)
      .waitFor();
  });
});
