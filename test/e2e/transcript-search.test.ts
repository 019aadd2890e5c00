/**
 * Searching a call's transcript, end to end: the built renderer in Debian's Chromium against the
 * embedded demo service. `/` focuses the search, a phrase typed in another case is found and
 * marked, its row is brought into view in the virtual list, and "Play from here" (Ctrl+Enter)
 * moves playback to it. Screenshots: the search open with its matches marked
 * (test-artifacts/transcript-search.png) and the transcript as it opens, with its event rows
 * (transcript-events.png).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Interaction } from '../../electron/shared/domain';
import { ensureBuilt } from './build';
import {
  ARTIFACTS_DIR,
  openDemoAfresh,
  playerTimeSeconds,
  showInteraction,
  startHarness,
  type Harness,
} from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { activeEntry } from './review-helpers';

const TRANSCRIPT = 'section[aria-labelledby="transcript-title"]';
/** The phrase looked for, typed in another case than the transcript has it. */
const PHRASE = 'PAYMENT PLANS';

let h: Harness;
let call: Interaction;
/** Index (0-based) of the entry holding the phrase. */
let target: number;

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
  // The demo call whose transcript mentions payment plans (late in the call, out of view at first).
  await h.session.openDemo();
  for (const demo of (await h.session.info()).demoInteractions) {
    const result = await h.handlers.getInteraction([demo.sid]);
    const found = result.ok ? (result.value as Interaction) : null;
    const index = found?.log.findIndex((e) => e.message.toLowerCase().includes(PHRASE.toLowerCase())) ?? -1;
    if (found?.recording.available && index >= 0) {
      call = found;
      target = index;
      break;
    }
  }
});

checkPageErrorsEachTest(() => h);

// Each test starts on a freshly loaded page in the demo workspace and shows the call itself.
beforeEach(async () => {
  await openDemoAfresh(h);
});

afterAll(async () => {
  await h.close();
});

/** Where the current match is: its row (1-based aria-posinset), its text, and whether it is in view. */
async function currentMatch(): Promise<{ row: number; text: string | null; inView: boolean }> {
  return h.page.evaluate((selector) => {
    const mark = document.querySelector(`${selector} mark.current`);
    const row = mark?.closest('li');
    const scroller = row?.closest('ol')?.parentElement;
    if (!mark || !row || !scroller) return { row: -1, text: null, inView: false };
    const box = row.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    const inView = box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
    return { row: Number(row.getAttribute('aria-posinset')), text: mark.textContent, inView };
  }, TRANSCRIPT);
}

describe('transcript search in the demo workspace', () => {
  it('finds a phrase in any case, brings it into view, and plays from it', async () => {
    expect(call, 'a demo call mentioning payment plans').toBeDefined();
    await showInteraction(h.page, call.sid);
    const page = h.page;
    const search = page.getByRole('searchbox', { name: 'Search the transcript' });
    // The transcript as it opens: tool and system entries drawn as compact event rows.
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.locator(TRANSCRIPT).screenshot({ path: join(ARTIFACTS_DIR, 'transcript-events.png') });

    // "/" from anywhere in the view (nothing focused) goes to the search.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.type(PHRASE);
    await page.getByRole('search').getByRole('status').getByText('1 of 1').waitFor();
    await page.waitForFunction((selector) => {
      const row = document.querySelector(`${selector} mark.current`)?.closest('li');
      const view = row?.closest('ol')?.parentElement?.getBoundingClientRect();
      const box = row?.getBoundingClientRect();
      return !!box && !!view && box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
    }, TRANSCRIPT);
    const match = await currentMatch();
    expect(match).toEqual({ row: target + 1, text: 'payment plans', inView: true });

    // Ctrl+Enter in the field plays from the match: the player seeks there and the row is current.
    await page.keyboard.press('Control+Enter');
    const offset = call.log[target]!.offsetSeconds!;
    await page.waitForFunction(
      (seconds) => {
        const value = document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow');
        return Math.abs(Number(value) - seconds) < 0.6;
      },
      offset,
      { timeout: 10_000 },
    );
    expect(Math.abs((await playerTimeSeconds(page)) - offset)).toBeLessThan(0.6);
    await expect.poll(() => activeEntry(page)).toMatchObject({ index: target, inView: true });
  });

  it('marks every match of a common word and steps through them; a screenshot of the search open', async () => {
    await showInteraction(h.page, call.sid);
    const page = h.page;
    const search = page.getByRole('searchbox', { name: 'Search the transcript' });
    await search.fill('meter');
    const status = page.getByRole('search').getByRole('status');
    await status.getByText(/^1 of \d+$/).waitFor();
    const total = Number(/of (\d+)/.exec((await status.textContent()) ?? '')?.[1]);
    const expected = call.log.reduce((n, e) => n + (e.message.toLowerCase().match(/meter/g)?.length ?? 0), 0);
    expect(total).toBe(expected);

    await search.press('Enter');
    await status.getByText(`2 of ${String(total)}`).waitFor();
    await page.getByRole('button', { name: 'Next match' }).click();
    await status.getByText(`3 of ${String(total)}`).waitFor();
    expect(await page.locator(`${TRANSCRIPT} mark`).count()).toBeGreaterThan(2);
    await expect.poll(async () => (await currentMatch()).inView).toBe(true);

    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'transcript-search.png') });

    await search.press('Escape');
    await expect.poll(() => search.inputValue()).toBe('');
    await expect.poll(() => page.locator(`${TRANSCRIPT} mark`).count()).toBe(0);
  });
});
