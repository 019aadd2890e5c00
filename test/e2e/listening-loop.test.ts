/**
 * The A–B loop end to end, in Chromium on the demo workspace: the loop key pressed at two
 * playback times sets a loop, said in words beside the controls and drawn as a band over the
 * waveform, and playback that reaches B goes back to A.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build';
import { openDemoAfresh, showInteraction, startHarness, type Harness } from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { blurFocus, mediaTimeSeconds, waitForWaveform } from './review-helpers';

/** The demo's mono call with a slow reply. */
const SLOW_REPLY_SID = 'interaction_5e1a7c3d-9b24-4f6e-8a10-c2d4e6f80a13';

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
});
