/**
 * Reviewing a call, end to end: the built renderer in Debian's Chromium, every `window.api` call
 * going through the built preload and the IPC guard to main's handler table, against the embedded
 * demo service. The recording streams through the page's own <audio> element and the waveform is
 * drawn from peaks computed in main; the transcript is a virtual list (rows found by aria-posinset).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_GONE_SID, DEMO_REDIRECTED_SID } from '../../electron/main/demo/signed-storage';
import type { Interaction } from '../../electron/shared/domain';
import { ensureBuilt } from './build';
import {
  ARTIFACTS_DIR,
  openDemoAfresh,
  playerTimeSeconds,
  showInteraction,
  startHarness,
  waitForTranscript,
  type Harness,
} from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { activeEntry, clickEntry, showSideTab, transcriptSize, waitForWaveform, waveformDrawn } from './review-helpers';

let h: Harness;
let call: Interaction;
let inProgressSid: string;
/** Every request the page made for a recording in the current test: how (resource type) and which bytes (Range). */
const recordingRequests: Array<{ type: string; range: string | null }> = [];

// A 404 for the unknown SID is not a page error: it arrives as data through the bridge.
checkPageErrorsEachTest(() => h);

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
  h.page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/recording/')) {
      recordingRequests.push({ type: request.resourceType(), range: request.headers()['range'] ?? null });
    }
  });

  // Pick the longest finished call of the seed, and the one still in progress.
  await h.session.openDemo();
  const session = await h.session.info();
  const calls: Interaction[] = [];
  for (const demo of session.demoInteractions) {
    const result = await h.handlers.getInteraction([demo.sid]);
    if (result.ok) calls.push(result.value as Interaction);
  }
  const playable = calls.filter((c) => c.recording.available).sort((a, b) => b.log.length - a.log.length);
  call = playable[0]!;
  inProgressSid = calls.find((c) => !c.recording.available)!.sid;
});

// Each test starts on a freshly loaded page in the demo workspace, with no call shown.
beforeEach(async () => {
  await openDemoAfresh(h);
  recordingRequests.length = 0;
});

afterAll(async () => {
  await h.close();
});

describe('reviewing a call by SID', () => {
  it('refuses text without a SID before any request, saying what a SID looks like', async () => {
    await h.page.getByLabel('Interaction SID').fill('ticket 4411: customer says the agent hung up');
    await h.page.getByRole('button', { name: 'Show call' }).click();
    await expect.poll(() => h.page.getByText(/No interaction SID found in that text/).isVisible()).toBe(true);
    expect(await h.page.getByText(/interaction_ followed by a UUID/).count()).toBeGreaterThan(0);
  });

  it('finds the SID in a pasted ticket line and shows metadata, variables and the transcript', async () => {
    const ticketLine = `Ticket #4411 — see https://dashboard.example.com/calls/${call.sid}?tab=log (caller upset)`;
    await showInteraction(h.page, ticketLine);
    await expect(h.page.getByLabel('Interaction SID').inputValue()).resolves.toBe(call.sid);
    const details = h.page.getByRole('region', { name: 'Call details' });
    await expect.poll(() => details.getByText(call.sid).isVisible()).toBe(true);
    // The variables and the transcript are built a task after the player: showInteraction waited for them.
    const firstVariable = Object.keys(call.variables).sort()[0]!;
    await showSideTab(h.page, 'Variables');
    await expect.poll(() => h.page.getByRole('rowheader', { name: firstVariable }).isVisible()).toBe(true);
    const size = await transcriptSize(h.page);
    expect(size.setSize).toBe(call.log.length);
    expect(size.drawnRows).toBeGreaterThan(0);
    expect(size.drawnRows).toBeLessThanOrEqual(call.log.length);
  });

  it('draws the waveform from peaks computed in main, without the page fetching the recording', async () => {
    await showInteraction(h.page, call.sid);
    await waitForWaveform(h.page);
    await expect(waveformDrawn(h.page)).resolves.toBe(true);
    expect(await h.page.getByText(/waveform could not be drawn|No waveform/).count()).toBe(0);
    // The media element plays the recording's own URL (no blob: copy of it in the page)...
    await expect(
      h.page.evaluate(() => new URL(document.querySelector('audio')?.currentSrc ?? '').pathname),
    ).resolves.toMatch(/^\/recording\//);
    // ...and only it asked for the recording, by byte range; no fetch() of the whole file.
    expect(recordingRequests.length).toBeGreaterThan(0);
    for (const request of recordingRequests) {
      expect(request.type).toBe('media');
      expect(request.range).toMatch(/^bytes=\d+-/);
    }
  });

  it('plays the recording and the highlighted entry advances with the audio', async () => {
    await showInteraction(h.page, call.sid);
    await h.page.getByLabel('Speed').selectOption('2');
    await h.page.getByRole('button', { name: 'Play' }).click();
    await h.page.waitForFunction(
      () => {
        const v = document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow');
        return Number(v) >= 2;
      },
      undefined,
      { timeout: 20_000 },
    );
    const first = await activeEntry(h.page);
    expect(first.index).toBeGreaterThanOrEqual(0);
    // Wait until audio reaches the next timed entry after the highlighted one: the highlight must follow.
    await h.page.waitForFunction(
      (before) => {
        const row = document.querySelector('section[aria-labelledby="transcript-title"] li[aria-current="true"]');
        return Number(row?.getAttribute('aria-posinset')) - 1 > before;
      },
      first.index,
      { timeout: 30_000 },
    );
    const later = await activeEntry(h.page);
    expect(later.index).toBeGreaterThan(first.index);
    expect(later.inView).toBe(true);
    // The highlighted entry is the one being spoken: its offset is at or before the playback time.
    const time = await playerTimeSeconds(h.page);
    expect(call.log[later.index]!.offsetSeconds!).toBeLessThanOrEqual(time + 1);
  });

  it('clicking a later entry moves playback there and highlights it', async () => {
    const targetRow = Math.floor(call.log.length * 0.75);
    const target = call.log[targetRow]!;
    expect(target.offsetSeconds).not.toBeNull();
    await showInteraction(h.page, call.sid);
    // A click on an entry seeks there and plays from there.
    await clickEntry(h.page, targetRow);
    await h.page.waitForFunction(
      (offset) =>
        Number(document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow')) >= Math.floor(offset),
      target.offsetSeconds!,
      { timeout: 10_000 },
    );
    const time = await playerTimeSeconds(h.page);
    expect(time).toBeGreaterThanOrEqual(Math.floor(target.offsetSeconds!));
    expect(time).toBeLessThan(target.offsetSeconds! + 6);
    const state = await activeEntry(h.page);
    expect(state.index).toBeGreaterThanOrEqual(targetRow);
    expect(state.text).toContain(call.log[state.index]!.message);
    expect(state.inView).toBe(true);

    // Keep the picture a reviewer sees: the waveform drawn and the highlight settled on screen.
    await waitForWaveform(h.page);
    await expect(waveformDrawn(h.page)).resolves.toBe(true);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'review-call.png') });
    await h.page.getByRole('button', { name: 'Pause' }).click();
  });

  it('cross-checks the number the call used against the phones, and opens its phone', async () => {
    await showInteraction(h.page, call.sid);
    await showSideTab(h.page, 'Routing');
    const routing = h.page.getByRole('region', { name: 'Phone routing' });
    const side = call.direction === 'outbound' ? 'Placed from' : 'Came in on';
    await routing.getByText(side).waitFor();
    await expect.poll(() => routing.getByText(/This number (still|now) routes|has no .* agent now/).count()).toBe(1);
    await routing.scrollIntoViewIfNeeded();
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'routing.png') });

    await routing.getByRole('button', { name: 'Open phone' }).click();
    await h.page.getByRole('region', { name: 'Phone details' }).waitFor();
    await expect.poll(() => h.page.getByRole('button', { name: 'Phones' }).getAttribute('aria-current')).toBe('page');
  });

  it('a call without a recording still shows its transcript, with a note', async () => {
    await showInteraction(h.page, inProgressSid);
    await expect(h.page.getByRole('note').innerText()).resolves.toMatch(/no recording.*transcript is still shown/i);
    expect((await transcriptSize(h.page)).drawnRows).toBeGreaterThan(0);
    await expect.poll(() => h.page.getByText('Still in progress').isVisible()).toBe(true);
  });

  it('an unknown SID is reported in words with a retry', async () => {
    await h.page.getByLabel('Interaction SID').fill('interaction_00000000-0000-4000-8000-000000000000');
    await h.page.getByRole('button', { name: 'Show call' }).click();
    const alert = h.page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.innerText()).resolves.toMatch(/was not found in (this )?workspace/);
    await expect.poll(() => alert.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
  });
});

describe('recordings as real services serve them', () => {
  it('a recording that redirects to signed storage on another origin plays, with its waveform', async () => {
    await showInteraction(h.page, DEMO_REDIRECTED_SID);
    const recording = h.page.getByRole('region', { name: 'Recording' });
    await recording.getByRole('button', { name: 'Play' }).click();
    await waitForWaveform(h.page);
    await expect(waveformDrawn(h.page)).resolves.toBe(true);
    await h.page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 1.5, null, {
      timeout: 20_000,
    });
    expect(await recording.getByRole('alert').count()).toBe(0);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'recording-redirect.png') });
    await recording.getByRole('button', { name: 'Pause' }).click();
  });

  it('a dead recording link (404) shows its reason and Retry in place of the player; the transcript works', async () => {
    // Not showInteraction: it takes any alert for a call that cannot be shown, and here the call is shown.
    await h.page.getByLabel('Interaction SID').fill(DEMO_GONE_SID);
    await h.page.getByRole('button', { name: 'Show call' }).click();
    const recording = h.page.getByRole('region', { name: 'Recording' });
    const alert = recording.getByRole('alert');
    await alert.getByText(/no longer exists or has expired/).waitFor({ timeout: 20_000 });
    await expect.poll(() => alert.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    await waitForTranscript(h.page);
    expect((await transcriptSize(h.page)).drawnRows).toBeGreaterThan(0);
    const transcript = h.page.getByRole('region', { name: /Transcript/ });
    await transcript.getByRole('button').first().click();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'recording-gone.png') });
  });
});
