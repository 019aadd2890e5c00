/**
 * The A–B loop end to end, in Chromium on the demo workspace: the loop key pressed at two
 * playback times sets a loop, said in words beside the controls and drawn as a band over the
 * waveform, and playback that reaches B goes back to A.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build';
import { openDemoAfresh, showInteraction, startHarness, type Harness } from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { blurFocus, mediaTimeSeconds, waitForWaveform } from './review-helpers';

/** The demo's mono call with a slow reply, and its stereo call. */
const SLOW_REPLY_SID = 'interaction_5e1a7c3d-9b24-4f6e-8a10-c2d4e6f80a13';
const STEREO_SID = 'interaction_9d3b5f71-2c8e-4a06-b4d9-7e1f3a5c8b20';

/** Moves the playhead to `seconds` as a seek would, and waits until the media element is there. */
async function seekTo(page: Page, seconds: number): Promise<void> {
  await page.evaluate((at) => {
    const audio = document.querySelector('audio');
    if (audio) audio.currentTime = at;
  }, seconds);
  await expect.poll(() => mediaTimeSeconds(page)).toBeCloseTo(seconds, 1);
}

/**
 * Where the loop band is drawn and where A and B are on the waveform, in page pixels: A and B
 * placed on wavesurfer's wrapper (the whole recording, wider than the view when zoomed).
 */
async function loopPlacement(page: Page, aSeconds: number, bSeconds: number) {
  return page.evaluate(
    ({ aSeconds, bSeconds }) => {
      const root = document.querySelector('[role="slider"] > div')?.shadowRoot;
      const wrapper = root?.querySelector('[part="wrapper"]')?.getBoundingClientRect();
      const view = root?.querySelector('[part="scroll"]')?.getBoundingClientRect();
      const band = document.querySelector('.band')?.getBoundingClientRect() ?? null;
      const duration = document.querySelector('audio')?.duration ?? 0;
      if (!wrapper || !view || !(duration > 0)) throw new Error('No waveform drawn');
      const at = (seconds: number) => wrapper.left + (seconds / duration) * wrapper.width;
      return {
        band: band && { left: band.left, right: band.right },
        aX: at(aSeconds),
        bX: at(bSeconds),
        view: { left: view.left, right: view.right },
        zoomedWidth: wrapper.width,
      };
    },
    { aSeconds, bSeconds },
  );
}

let h: Harness;

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness({ viewport: { width: 1280, height: 860 } });
  await openDemoAfresh(h);
});

checkPageErrorsEachTest(() => h);

afterAll(async () => {
  await h.close();
});

describe('the A–B loop', () => {
  it('is set with the loop key, shown as words and a band, and plays B back to A', async () => {
    await showInteraction(h.page, SLOW_REPLY_SID);
    await waitForWaveform(h.page);
    const recording = h.page.getByRole('region', { name: 'Recording' });
    await blurFocus(h.page);

    // A at 2 s, B at 4 s: the playhead moved by the page, as a seek would.
    await h.page.evaluate(() => {
      const audio = document.querySelector('audio');
      if (audio) audio.currentTime = 2;
    });
    await expect.poll(() => mediaTimeSeconds(h.page)).toBeCloseTo(2, 1);
    await h.page.keyboard.press('a');
    await h.page.evaluate(() => {
      const audio = document.querySelector('audio');
      if (audio) audio.currentTime = 4;
    });
    await expect.poll(() => mediaTimeSeconds(h.page)).toBeCloseTo(4, 1);
    await h.page.keyboard.press('a');

    await expect.poll(() => recording.getByText('Looping 0:02–0:04').isVisible()).toBe(true);
    expect(await mediaTimeSeconds(h.page)).toBeCloseTo(2, 1);
    await recording.screenshot({ path: '/tmp/listen-loop.png' });

    // Played at 2x from A, B (2 s of recording later) is reached within about a second, and
    // playback goes back to A rather than on past B.
    await h.page.keyboard.press(']');
    await h.page.keyboard.press(']');
    await h.page.keyboard.press(']');
    await h.page.keyboard.press(' ');
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          seen.push(await mediaTimeSeconds(h.page));
          return seen.some((t) => t > 3.2) && (seen.at(-1) ?? 99) < 3;
        },
        { timeout: 8000, interval: 100 },
      )
      .toBe(true);
    expect(Math.max(...seen)).toBeLessThan(4.6);
    await h.page.keyboard.press(' ');
  });

  it('stays over A to B while the waveform is zoomed in and scrolled', async () => {
    await showInteraction(h.page, STEREO_SID);
    await waitForWaveform(h.page);
    const recording = h.page.getByRole('region', { name: 'Recording' });
    await blurFocus(h.page);
    await seekTo(h.page, 10);
    await h.page.keyboard.press('a');
    await seekTo(h.page, 13);
    await h.page.keyboard.press('a');
    await expect.poll(() => recording.getByText('Looping 0:10–0:13').isVisible()).toBe(true);
    const whole = await loopPlacement(h.page, 10, 13);

    // Zoomed in three levels around A (where setting B put the playhead): the band is still
    // drawn, from A to B on the wider waveform.
    for (let i = 0; i < 3; i += 1) await recording.getByRole('button', { name: 'Zoom in' }).click();
    await expect
      .poll(async () => (await loopPlacement(h.page, 10, 13)).zoomedWidth)
      .toBeGreaterThan(whole.zoomedWidth * 7);
    await expect
      .poll(async () => {
        const { band, aX } = await loopPlacement(h.page, 10, 13);
        return band ? Math.abs(band.left - aX) : Infinity;
      })
      .toBeLessThan(3);
    const zoomed = await loopPlacement(h.page, 10, 13);
    expect(zoomed.band?.right).toBeCloseTo(zoomed.bX, -1);
    expect((zoomed.band?.right ?? 0) - (zoomed.band?.left ?? 0)).toBeGreaterThan(6 * (whole.bX - whole.aX));
    await recording.screenshot({ path: '/tmp/listen-loop-zoomed.png' });

    // Scrolled 150 px on, as with the scroll bar: the band moves with the waveform.
    await h.page.evaluate(() => {
      const view = document.querySelector('[role="slider"] > div')?.shadowRoot?.querySelector('[part="scroll"]');
      if (view) view.scrollLeft += 150;
    });
    await expect
      .poll(async () => {
        const { band } = await loopPlacement(h.page, 10, 13);
        return band ? (zoomed.band?.left ?? 0) - band.left : 0;
      })
      .toBeCloseTo(150, -1);
    const scrolled = await loopPlacement(h.page, 10, 13);
    expect(Math.abs((scrolled.band?.left ?? 0) - scrolled.aX)).toBeLessThan(3);
  });
});
