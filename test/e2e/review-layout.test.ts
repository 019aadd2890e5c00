/**
 * The reviewing layout at the sizes support staff use (1366×768 and 1920×1080 laptops), in the
 * light and the dark theme: screenshots of a call under review, the queue, a list screen with its
 * drawer open and a call without a recording (test-artifacts/layout-{screen}-{size}-{theme}.png),
 * each checked for what a person would notice first: the player and the transcript both in view
 * without scrolling, the caller's number never cut short, no empty detail pane beside a list, and
 * the actions that need a recording disabled, with the reason as their tooltip.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interaction, Phone } from '../../electron/shared/domain';
import { ensureBuilt } from './build';
import {
  ARTIFACTS_DIR,
  openDemoAfresh,
  showInteraction,
  startHarness,
  waitForTranscript,
  type Harness,
} from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { blurFocus, waitForWaveform } from './review-helpers';

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;
const THEMES = ['light', 'dark'] as const;

let h: Harness;
/** A demo call with a recording and the longest transcript, another one with a recording, and one without. */
let call: Interaction;
let second: Interaction;
let noRecording: Interaction;

checkPageErrorsEachTest(() => h);

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  h = await startHarness();
  await h.session.openDemo();
  const calls: Interaction[] = [];
  for (const demo of (await h.session.info()).demoInteractions) {
    const result = await h.handlers.getInteraction([demo.sid]);
    if (result.ok) calls.push(result.value as Interaction);
  }
  const playable = calls.filter((c) => c.recording.available).sort((a, b) => b.log.length - a.log.length);
  call = playable[0]!;
  second = playable[1]!;
  noRecording = calls.find((c) => !c.recording.available)!;
}, 120_000);

afterAll(async () => {
  await h.close();
});

/** Saves a screenshot of the window as test-artifacts/layout-{screen}-{size}-{theme}.png. */
async function shoot(screen: string, size: (typeof SIZES)[number], theme: string) {
  await h.page.mouse.move(0, 0);
  await h.page.screenshot({ path: join(ARTIFACTS_DIR, `layout-${screen}-${size.width}x${size.height}-${theme}.png`) });
}

/** The box of `locator` in the window, which must be there. */
async function box(locator: ReturnType<Harness['page']['locator']>) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('Expected the element to be laid out.');
  return found;
}

/** True when no element inside `selector` shows less than its whole text (cut with an ellipsis or hidden overflow). */
async function nothingCut(selector: string): Promise<string[]> {
  return h.page.evaluate((root) => {
    const cut: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(`${root} *`)) {
      if (el.children.length > 0 || !el.textContent.trim() || el.closest('.sr-only')) continue;
      // A queued call not opened yet is named by its SID, cut short on purpose (its tooltip has it whole).
      if (el.closest('.sid')) continue;
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible') cut.push(el.textContent);
    }
    return cut;
  }, selector);
}

/**
 * The side panel's tabs that a click at their centre would miss: clipped by the panel or covered
 * by another element (the collapse button). Empty when every tab can be seen and clicked.
 */
async function tabsOutOfReach(): Promise<string[]> {
  return h.page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[aria-label="Call side panel"] [role="tab"]')].flatMap((tab) => {
      const at = tab.getBoundingClientRect();
      const side = tab.closest('aside')!.getBoundingClientRect();
      const hit = document.elementFromPoint(at.left + at.width / 2, at.top + at.height / 2);
      const whole = at.left >= side.left && at.right <= side.right && tab.scrollWidth <= tab.clientWidth + 1;
      return whole && hit !== null && tab.contains(hit) ? [] : [tab.textContent.trim()];
    }),
  );
}

describe.each(THEMES)('the %s theme', (theme) => {
  describe.each(SIZES)('at $width×$height', (size) => {
    beforeAll(async () => {
      await h.page.emulateMedia({ colorScheme: theme });
      await h.page.setViewportSize(size);
      await openDemoAfresh(h);
      await h.handlers.clearQueue([]);
      await h.page.reload();
      await h.page.getByLabel('Interaction SID').waitFor();
    });

    it('a call under review: header, player and transcript in view, numbers whole', async () => {
      await showInteraction(h.page, call.sid);
      await waitForWaveform(h.page);
      const slider = h.page.getByRole('slider', { name: /Playback position/ });
      for (let i = 0; i < 6; i += 1) await slider.press('ArrowRight');
      await blurFocus(h.page);
      const recording = await box(h.page.getByRole('region', { name: 'Recording' }));
      const transcript = await box(h.page.locator('section[aria-labelledby="transcript-title"]'));
      // The player sits above the transcript, both inside the window, the transcript with room to read.
      expect(recording.y + recording.height).toBeLessThanOrEqual(transcript.y);
      expect(transcript.y + transcript.height).toBeLessThanOrEqual(size.height);
      expect(transcript.height).toBeGreaterThan(size.height * 0.3);
      // The waveform spans most of the window's width.
      expect(recording.width).toBeGreaterThan(size.width * 0.65);
      const header = h.page.getByRole('region', { name: 'Call', exact: true });
      expect(await nothingCut('section[aria-label="Call"]')).toEqual([]);
      expect(await nothingCut('section[aria-label="Call details"]')).toEqual([]);
      expect(await header.getByText('→').isVisible()).toBe(true);
      expect(await h.page.getByRole('tab').count()).toBe(5);
      expect(await tabsOutOfReach()).toEqual([]);
      await shoot('call', size, theme);
    });

    it('the queue: three calls lined up, one reviewed, the second shown', async () => {
      await blurFocus(h.page);
      await h.page.evaluate((text) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
      }, `Ticket 4411: ${call.sid}, ${second.sid} and ${noRecording.sid}`);
      const queue = h.page.getByRole('region', { name: 'Queue' });
      await expect.poll(() => queue.getByRole('button', { name: /^Open call \d of 3/ }).count()).toBe(3);
      await blurFocus(h.page);
      await h.page.keyboard.press('r');
      await queue.getByText('1 of 3 reviewed').waitFor();
      await h.page.keyboard.press('Alt+ArrowDown');
      await h.page.getByRole('region', { name: 'Call details' }).getByText(second.sid).waitFor();
      await waitForTranscript(h.page);
      await waitForWaveform(h.page);
      // The side panel's Turn timing tab, so the screenshot shows a tab other than the details.
      await h.page.getByRole('tab', { name: 'Timing' }).click();
      await h.page.getByRole('region', { name: 'Turn timing' }).waitFor();
      await blurFocus(h.page);
      expect(await nothingCut('nav[aria-label="Call list"]')).toEqual([]);
      await shoot('queue', size, theme);
    });

    it('a call without a recording: its actions disabled, saying why', async () => {
      await showInteraction(h.page, noRecording.sid);
      const copyLink = h.page.getByRole('button', { name: 'Copy link at current time' });
      expect(await copyLink.isDisabled()).toBe(true);
      expect(await copyLink.getAttribute('title')).toMatch(/^No recording: /);
      await h.page.getByRole('button', { name: 'Export', exact: true }).click();
      const download = h.page.getByRole('button', { name: 'Download recording' });
      expect(await download.isDisabled()).toBe(true);
      expect(await download.getAttribute('title')).toMatch(/^No recording: /);
      await h.page.keyboard.press('Escape');
      await expect.poll(() => download.isVisible()).toBe(false);
      await shoot('no-recording', size, theme);
    });

    it('a list screen: the table across the window, the detail in a drawer only once a row is open', async () => {
      await h.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Phones' }).click();
      const list = h.page.getByRole('region', { name: 'Phones' });
      await list.getByRole('table').waitFor();
      expect(await h.page.getByRole('region', { name: 'Phone details' }).count()).toBe(0);
      const phone = ((await h.handlers.listPhones([])) as { ok: true; value: Phone[] }).value[0]!;
      await list.getByRole('button', { name: `Open ${phone.name ?? ''}` }).click();
      const drawer = h.page.getByRole('region', { name: 'Phone details' });
      await drawer.getByRole('form', { name: 'Edit phone' }).waitFor();
      const [table, detail] = [await box(list.getByRole('table')), await box(drawer)];
      // The table and the drawer do not overlap.
      expect(table.x + table.width).toBeLessThanOrEqual(detail.x + 1);
      await shoot('drawer', size, theme);
      await drawer.getByRole('textbox').first().press('Escape');
      await expect.poll(() => drawer.count()).toBe(0);
      await h.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Calls' }).click();
    });
  });
});
