/**
 * The waveform's marks end to end, in Chromium on the demo workspace: role regions coloured by
 * speaker with a legend, the hover naming the role and the line, flagged moments, search-match
 * ticks, zoom by button, and levelling, muting or soloing a lane of the stereo demo call through
 * Web Audio.
 * What the page sends to its speakers is read by an AnalyserNode per channel, tapped where the
 * player's graph connects to the destination (an init script; the app itself has no test hook).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build';
import { ARTIFACTS_DIR, openDemoAfresh, showInteraction, startHarness, type Harness } from './harness';
import { installAudioTap } from './audio-tap';
import { checkPageErrorsEachTest } from './page-errors';
import { waitForWaveform } from './review-helpers';

/** The demo's stereo call (agent on the right) and its mono call with a slow reply. */
const STEREO_SID = 'interaction_9d3b5f71-2c8e-4a06-b4d9-7e1f3a5c8b20';
const SLOW_REPLY_SID = 'interaction_5e1a7c3d-9b24-4f6e-8a10-c2d4e6f80a13';

let h: Harness;

/** Loudest sample per channel (0..1) reaching the speakers over `ms` of playback from `fromSeconds`. */
async function loudness(page: Page, fromSeconds: number, ms: number): Promise<{ left: number; right: number }> {
  return page.evaluate(
    async ({ fromSeconds, ms }) => {
      const tap = (window as unknown as { __laneTap?: { left: AnalyserNode; right: AnalyserNode } }).__laneTap;
      const audio = document.querySelector('audio');
      if (!tap || !audio) throw new Error('No audio tap or no media element');
      audio.currentTime = fromSeconds;
      await audio.play();
      const peak = { left: 0, right: 0 };
      const buffer = new Float32Array(tap.left.fftSize);
      const started = performance.now();
      while (performance.now() - started < ms) {
        for (const side of ['left', 'right'] as const) {
          tap[side].getFloatTimeDomainData(buffer);
          for (const v of buffer) peak[side] = Math.max(peak[side], Math.abs(v));
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      audio.pause();
      return peak;
    },
    { fromSeconds, ms },
  );
}

/** Elements inside wavesurfer's shadow root matching `selector`. */
async function countInWaveform(page: Page, selector: string): Promise<number> {
  return page.evaluate(
    (sel) => document.querySelector('[role="slider"] > div')?.shadowRoot?.querySelectorAll(sel).length ?? 0,
    selector,
  );
}

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness({ viewport: { width: 1280, height: 860 } });
  await h.page.addInitScript(installAudioTap);
});

checkPageErrorsEachTest(() => h);

// Each test starts on a freshly loaded page (a new audio tap, no AudioContext open) in the demo
// workspace, and shows its call itself.
beforeEach(async () => {
  await openDemoAfresh(h);
});

afterAll(async () => {
  await h.close();
});

describe('the waveform of a call', () => {
  it('draws role regions with a legend, flags, search ticks and zooms by button', async () => {
    await showInteraction(h.page, SLOW_REPLY_SID);
    await waitForWaveform(h.page);
    const recording = h.page.getByRole('region', { name: 'Recording' });

    // Both speakers' regions, polled together: the regions plugin shows a new region after a timeout.
    const fewestOfOneSpeaker = async () =>
      Math.min(
        await countInWaveform(h.page, '[data-role-kind="agent"]'),
        await countInWaveform(h.page, '[data-role-kind="user"]'),
      );
    await expect.poll(fewestOfOneSpeaker).toBeGreaterThan(2);
    const legend = recording.getByRole('list', { name: 'Waveform legend' });
    for (const name of ['Agent', 'Caller', 'Event']) {
      await expect.poll(() => legend.getByText(name, { exact: true }).isVisible()).toBe(true);
    }
    // The slow reply is flagged on the waveform, with its words as the title.
    await expect.poll(() => countInWaveform(h.page, '[data-flag-kind="slow_turn"][title^="Slow reply"]')).toBe(1);

    // A hover over a caller region names the role and shows the line.
    const box = await recording.getByRole('slider', { name: /Playback position/ }).boundingBox();
    if (!box) throw new Error('No waveform box');
    await h.page.mouse.move(box.x + box.width * 0.15, box.y + 30);
    await h.page.mouse.move(box.x + box.width * 0.16, box.y + 32);
    await expect.poll(() => h.page.getByText(/^(Agent|Caller): \S/).count()).toBe(1);

    // Search matches become ticks, following each keystroke.
    await h.page.getByLabel('Search the transcript').fill('you');
    await expect.poll(() => ticks(h.page)).toBeGreaterThan(0);
    const many = await ticks(h.page);
    await h.page.getByLabel('Search the transcript').fill('you can');
    await expect.poll(() => ticks(h.page)).toBeLessThan(many);

    // Zoom in with the button: the waveform grows wider than its box.
    const widthBefore = await wrapperWidth(h.page);
    await recording.getByRole('button', { name: 'Zoom in' }).click();
    await recording.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => wrapperWidth(h.page)).toBeGreaterThan(widthBefore * 3.9);
    // It scrolls inside the box, which keeps its width.
    expect(await wrapperWidth(h.page)).toBeLessThan(widthBefore * 4.1);
    expect(await viewWidth(h.page)).toBeCloseTo(widthBefore, 0);
    await expect.poll(() => recording.getByText('4×').isVisible()).toBe(true);
    await recording.getByRole('button', { name: 'Zoom out' }).click();
    await recording.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(() => wrapperWidth(h.page)).toBeLessThan(widthBefore * 1.1);
    await h.page.getByLabel('Search the transcript').fill('');
  });

  it('labels the lanes of a stereo call and mutes or solos a lane with Web Audio', async () => {
    await showInteraction(h.page, STEREO_SID);
    await waitForWaveform(h.page);
    const recording = h.page.getByRole('region', { name: 'Recording' });
    const mute = recording.getByRole('button', { name: /^Mute / });
    await expect.poll(() => mute.count()).toBe(2);
    const labels = await mute.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''));
    // The agent speaks first, on the right: the lanes say so once inferred from the transcript.
    expect(labels).toEqual(['Mute Caller (left)', 'Mute Agent (right)']);
    await expect
      .poll(() =>
        recording
          .getByText(/inferred from the transcript/)
          .first()
          .isVisible(),
      )
      .toBe(true);

    // Loading left no AudioContext open (the app's start only warms the audio output up): the
    // graph waits for the reviewer. Playing makes it, since the quieter lane is levelled up by
    // default; turning levelling off keeps the same graph.
    const openContexts = () => h.page.evaluate(() => (window as unknown as { __openContexts: number }).__openContexts);
    expect(await openContexts()).toBe(0);
    await h.page.getByRole('button', { name: 'Play', exact: true }).click();
    await h.page.getByRole('button', { name: 'Pause', exact: true }).click();
    expect(await openContexts()).toBe(1);
    await recording.getByRole('button', { name: 'Level lanes' }).click();
    await expect
      .poll(() => recording.getByRole('button', { name: 'Level lanes' }).getAttribute('aria-pressed'))
      .toBe('false');

    // Muting the caller: the agent's greeting (0.35 s to 7.6 s) still plays, on the right only.
    await recording.getByRole('button', { name: 'Mute Caller (left)' }).click();
    await expect
      .poll(() => recording.getByRole('button', { name: 'Mute Caller (left)' }).getAttribute('aria-pressed'))
      .toBe('true');
    const muted = await loudness(h.page, 1, 1500);
    expect(muted.right).toBeGreaterThan(0.02);
    expect(muted.left).toBeLessThan(0.001);

    // Soloing the caller while the agent speaks: the agent's lane goes nowhere.
    await recording.getByRole('button', { name: 'Mute Caller (left)' }).click();
    await recording.getByRole('button', { name: 'Solo Caller (left)' }).click();
    const soloed = await loudness(h.page, 1, 1500);
    expect(soloed.right).toBeLessThan(0.001);

    // Solo off: the agent is heard again.
    await recording.getByRole('button', { name: 'Solo Caller (left)' }).click();
    expect((await loudness(h.page, 1, 1500)).right).toBeGreaterThan(0.02);
    expect(await h.page.evaluate(() => (window as unknown as { __openContexts: number }).__openContexts)).toBe(1);

    await h.page.evaluate(() => {
      const audio = document.querySelector('audio');
      if (audio) audio.currentTime = 40;
    });
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await h.page.getByLabel('Search the transcript').fill('engineer');
    const wave = await recording.getByRole('slider', { name: /Playback position/ }).boundingBox();
    if (wave) await h.page.mouse.move(wave.x + wave.width * 0.25, wave.y + 90);
    // The hover note names the role and the line under the pointer.
    await expect.poll(() => h.page.getByText(/^(Agent|User|Caller): \S/).count()).toBe(1);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'waveform-regions.png') });
  });
});

/** Search-match ticks drawn on the waveform. */
async function ticks(page: Page): Promise<number> {
  return page.evaluate(() => {
    const layer = document.querySelector('[role="slider"] > div')?.shadowRoot?.querySelector('[part="match-ticks"]');
    return layer instanceof HTMLElement ? Number(layer.dataset.ticks ?? 0) : 0;
  });
}

/** Width of wavesurfer's wrapper (the whole waveform, wider than the box when zoomed). */
async function wrapperWidth(page: Page): Promise<number> {
  return page.evaluate(() => {
    const wrapper = document.querySelector('[role="slider"] > div')?.shadowRoot?.querySelector('[part="wrapper"]');
    return wrapper instanceof HTMLElement ? wrapper.getBoundingClientRect().width : 0;
  });
}

/** Width of wavesurfer's view (its scroll container): the box, however far the waveform is zoomed. */
async function viewWidth(page: Page): Promise<number> {
  return page.evaluate(() => {
    const view = document.querySelector('[role="slider"] > div')?.shadowRoot?.querySelector('[part="scroll"]');
    return view instanceof HTMLElement ? view.getBoundingClientRect().width : 0;
  });
}
