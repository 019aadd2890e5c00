/**
 * What the end-to-end tests read from the Calls view, as a user (or a screen reader) sees
 * it. The transcript is a virtual list: only the rows in view are in the DOM, and each says where
 * it is in the whole list (aria-posinset, 1-based, out of aria-setsize), so entries are found by
 * position, never by DOM order.
 */
import type { Page } from 'playwright-core';

const TRANSCRIPT = 'section[aria-labelledby="transcript-title"]';

/** The highlighted transcript entry: its index in the log (0-based) and text; index -1 when none is drawn. */
export async function activeEntry(page: Page): Promise<{ index: number; text: string | null; inView: boolean }> {
  return page.evaluate((selector) => {
    const row = document.querySelector<HTMLElement>(`${selector} li[aria-current="true"]`);
    if (!row) return { index: -1, text: null, inView: false };
    const scroller = row.closest('ol')?.parentElement;
    const box = row.getBoundingClientRect();
    const view = scroller?.getBoundingClientRect();
    const inView = view !== undefined && box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
    return { index: Number(row.getAttribute('aria-posinset')) - 1, text: row.textContent, inView };
  }, TRANSCRIPT);
}

/** Number of entries the transcript says it has (aria-setsize of its rows) and how many rows are drawn. */
export async function transcriptSize(page: Page): Promise<{ setSize: number; drawnRows: number }> {
  return page.evaluate((selector) => {
    const rows = document.querySelectorAll(`${selector} li`);
    return { setSize: Number(rows[0]?.getAttribute('aria-setsize') ?? 0), drawnRows: rows.length };
  }, TRANSCRIPT);
}

/**
 * Scrolls the transcript like a user with the mouse wheel until entry `index` (0-based) is drawn
 * and in view, then clicks it.
 * @throws Error when the entry cannot be brought into view
 */
export async function clickEntry(page: Page, index: number): Promise<void> {
  const row = page.locator(`${TRANSCRIPT} li[aria-posinset="${index + 1}"]`);
  const scroller = page.locator(`${TRANSCRIPT} ol`).locator('xpath=..');
  for (let attempt = 0; attempt < 40 && !(await row.count()); attempt += 1) {
    // Jump near the entry (the list's height is the sum of its rows), as dragging the scrollbar does.
    const box = await scroller.boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const delta = await page.evaluate(
      ({ selector, target }) => {
        const list = document.querySelector<HTMLElement>(`${selector} ol`);
        const area = list?.parentElement;
        if (!list || !area) return 0;
        const rows = Array.from(list.querySelectorAll('li'), (li) => Number(li.getAttribute('aria-posinset')) - 1);
        const total = Number(list.querySelector('li')?.getAttribute('aria-setsize') ?? 1);
        const first = Math.min(...rows);
        const last = Math.max(...rows);
        const guess = (target / total) * area.scrollHeight - area.clientHeight / 2;
        if (target < first || target > last) return guess - area.scrollTop;
        return 0;
      },
      { selector: TRANSCRIPT, target: index },
    );
    await page.mouse.wheel(0, delta);
    await row.waitFor({ state: 'attached', timeout: 500 }).catch(() => undefined);
  }
  await row.getByRole('button').scrollIntoViewIfNeeded();
  await row.getByRole('button').click();
}

/** Playback position of the page's media element, in seconds (what is actually playing). */
export async function mediaTimeSeconds(page: Page): Promise<number> {
  return page.evaluate(() => document.querySelector('audio')?.currentTime ?? Number.NaN);
}

/** True when wavesurfer has drawn the waveform (canvases in its shadow root) and no placeholder is shown. */
export async function waveformDrawn(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const slider = document.querySelector('[role="slider"][aria-label^="Playback position"]');
    const host = slider?.querySelector('div');
    const canvases = host?.shadowRoot?.querySelectorAll('canvas').length ?? 0;
    return canvases > 0 && !document.body.innerText.includes('Drawing waveform');
  });
}

/**
 * Waits until the waveform is complete: the placeholder ("Drawing waveform…") is gone and the
 * waveform no longer says it is filling in (aria-busy while only part of the peaks is drawn), or
 * the view said why it could not be drawn.
 * @throws Error (Playwright's timeout) when it is still drawing after `timeoutMs` milliseconds
 */
export async function waitForWaveform(page: Page, timeoutMs = 20_000): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.body.innerText.includes('Drawing waveform') &&
      document.querySelector('[role="slider"][aria-busy="true"]') === null,
    undefined,
    { timeout: timeoutMs },
  );
}

/**
 * Brings the call's side panel tab `label` forward (Details, Timing, Routing, Variables), as a
 * click on it does.
 */
export async function showSideTab(page: Page, label: string): Promise<void> {
  const tab = page.getByRole('tab', { name: label, exact: true });
  await tab.click();
  await page.waitForFunction((name) => {
    const selected = document.querySelector('[role="tab"][aria-selected="true"]');
    return selected?.textContent.trim() === name;
  }, label);
}

/** Takes the focus off whatever has it, as a click on an empty part of the page does, so keys go to the page. */
export async function blurFocus(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}
