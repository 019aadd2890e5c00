/**
 * Long calls end to end: a 40-minute recording with a 5,000-entry transcript plays at
 * once, seeks to minute 35 and plays from there, and the highlighted transcript entry follows.
 *
 * The built renderer runs in Debian's Chromium with the built preload, its IPC going to main's
 * stack through the sender guard (test/e2e/harness.ts), connected to a voice-agent service on
 * loopback that serves a generated 40-minute MP3 (8 kHz mono, 32 kbit/s, about 9.6 MB) and its
 * transcript (test/fixtures/long-call.ts). The recording reaches the page through the project's own
 * recording protocol handler, with Range requests. On a slow link the waveform fills in left to
 * right while the one download runs (screenshot waveform-half.png).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateRecording, startLongCallServer, type LongCallServer, type WireLogEntry } from '../fixtures/long-call';
import { ensureBuilt } from './build';
import { ARTIFACTS_DIR, showInteraction, startHarness, type Harness } from './harness';
import {
  activeEntry,
  clickEntry,
  mediaTimeSeconds,
  transcriptSize,
  waitForWaveform,
  waveformDrawn,
} from './review-helpers';

/** Length of the call, seconds (40 minutes). */
const CALL_SECONDS = 40 * 60;
/** Where the test seeks to, seconds (minute 35). */
const SEEK_SECONDS = 35 * 60;
const ENTRIES = 5000;

let h: Harness;
let server: LongCallServer;
let sid: string;
let log: WireLogEntry[];
/** Every request the page made for the recording in the current test: how (resource type) and bytes (Range). */
const recordingRequests: Array<{ type: string; range: string | null }> = [];

beforeAll(async () => {
  ensureBuilt();
  const file = await generateRecording({ seconds: CALL_SECONDS, format: 'mp3' });
  server = await startLongCallServer({ recordings: [{ seconds: CALL_SECONDS, file, entries: ENTRIES }] });
  sid = server.interactions[0]!.sid;
  log = server.interactions[0]!.entries;

  h = await startHarness();
  h.page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/recording/')) {
      recordingRequests.push({ type: request.resourceType(), range: request.headers()['range'] ?? null });
    }
  });
});

// Each test starts on a freshly loaded page in the long-call workspace, with no call shown.
beforeEach(async () => {
  h.pageErrors.length = 0;
  // Connecting to the same base URL again updates the saved workspace instead of adding one.
  const connected = await h.handlers.connect([{ name: 'Long calls', baseUrl: server.baseUrl, apiKey: server.apiKey }]);
  if (!connected.ok) throw new Error(`Could not connect to the long-call service: ${JSON.stringify(connected.error)}`);
  await h.page.reload();
  await h.page.getByLabel('Interaction SID').waitFor();
  recordingRequests.length = 0;
});

afterEach(() => {
  expect(h.pageErrors).toEqual([]);
});

afterAll(async () => {
  await h.close();
  await server.close();
});

/** What main has of interaction `id`'s peaks so far (getPeaksProgress), or null for nothing yet. */
async function peaksSoFar(id: string): Promise<{ coveredSeconds: number; complete: boolean } | null> {
  const progress = await h.handlers.getPeaksProgress([id]);
  if (!progress.ok) throw new Error(`getPeaksProgress failed: ${JSON.stringify(progress.error)}`);
  return progress.value as { coveredSeconds: number; complete: boolean } | null;
}

/** Waits until main has all of interaction `id`'s peaks. @throws Error when not within `timeoutMs`. */
async function waitForAllPeaks(id: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await peaksSoFar(id))?.complete) {
    if (Date.now() > deadline) throw new Error(`The peaks were not complete after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Shows the long call and starts playing it from the start. */
async function showAndPlay(): Promise<void> {
  await showInteraction(h.page, sid);
  await h.page.getByRole('button', { name: 'Play' }).click();
}

describe('a 40-minute call', () => {
  it('plays at once, before the waveform is needed', async () => {
    const shownAt = Date.now();
    await showInteraction(h.page, sid);
    const playableMs = Date.now() - shownAt;

    const size = await transcriptSize(h.page);
    expect(size.setSize).toBe(ENTRIES);
    expect(size.drawnRows).toBeLessThan(100); // a window of the 5,000, not all of them

    const pressedAt = Date.now();
    await h.page.getByRole('button', { name: 'Play' }).click();
    await h.page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0, undefined, {
      timeout: 5_000,
    });
    const firstAudioMs = Date.now() - pressedAt;
    console.info(
      `40-minute MP3: playable ${playableMs} ms after "Show call", first audio ${firstAudioMs} ms after "Play".`,
    );
    // "At once": well under the seconds a full download and decode would take.
    expect(firstAudioMs).toBeLessThan(1_500);
    expect(await h.page.getByRole('alert').count()).toBe(0);
  });

  it('draws the 40-minute waveform from peaks computed in main while the audio plays', async () => {
    await showAndPlay();
    await waitForAllPeaks(sid, 30_000);
    await waitForWaveform(h.page, 30_000);
    expect(await h.page.getByText(/waveform could not be drawn|No waveform/).count()).toBe(0);
    await expect(waveformDrawn(h.page)).resolves.toBe(true);
    // It kept playing meanwhile.
    await expect(h.page.getByRole('button', { name: 'Pause' }).isVisible()).resolves.toBe(true);
    // The page never fetched the file itself: only its media element asked, by byte range.
    expect(recordingRequests.length).toBeGreaterThan(0);
    for (const request of recordingRequests) {
      expect(request.type).toBe('media');
      expect(request.range).toMatch(/^bytes=\d+-/);
    }
  });

  it('seeks to minute 35 from the transcript, plays on from there, and the highlight follows', async () => {
    const target = log.findIndex((entry) => entry.timestamp >= SEEK_SECONDS);
    expect(target).toBeGreaterThan(0);
    await showAndPlay();
    await clickEntry(h.page, target);

    // Playback moved to the entry and goes on from there: past 35:00 and still advancing.
    await h.page.waitForFunction(
      (seconds) => (document.querySelector('audio')?.currentTime ?? 0) > seconds + 1,
      SEEK_SECONDS,
      {
        timeout: 15_000,
      },
    );
    const time = await mediaTimeSeconds(h.page);
    expect(time).toBeGreaterThan(SEEK_SECONDS + 1);
    expect(time).toBeLessThan(log[target]!.timestamp + 15);

    // The highlighted entry is the one being spoken, in view.
    const first = await activeEntry(h.page);
    expect(first.index).toBeGreaterThanOrEqual(target);
    expect(log[first.index]!.timestamp).toBeLessThanOrEqual((await mediaTimeSeconds(h.page)) + 0.01);
    expect(first.text).toContain(log[first.index]!.message);
    expect(first.inView).toBe(true);

    // Entries are about half a second apart: the highlight moves on with the audio, and the list
    // keeps it in view (it glides there, so wait for it to arrive).
    await h.page.waitForFunction(
      (before) => {
        const row = document.querySelector('section[aria-labelledby="transcript-title"] li[aria-current="true"]');
        const area = row?.closest('ol')?.parentElement;
        if (!row || !area) return false;
        const box = row.getBoundingClientRect();
        const view = area.getBoundingClientRect();
        return (
          Number(row.getAttribute('aria-posinset')) - 1 >= before + 3 &&
          box.top >= view.top - 1 &&
          box.bottom <= view.bottom + 1
        );
      },
      first.index,
      { timeout: 15_000 },
    );
    const later = await activeEntry(h.page);
    expect(log[later.index]!.timestamp).toBeLessThanOrEqual((await mediaTimeSeconds(h.page)) + 0.01);
    expect(await h.page.getByRole('slider', { name: /Playback position/ }).getAttribute('aria-valuetext')).toMatch(
      /^35:\d\d of 40:0\d$/,
    );

    // The picture a reviewer sees: the waveform drawn too.
    await waitForWaveform(h.page, 30_000);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'long-call.png') });
    await h.page.getByRole('button', { name: 'Pause' }).click();
  });
});

describe('a 40-minute call on a slow link', () => {
  /** 1.2 MB/s: the 9.6 MB recording takes about 8 s to download. */
  const SLOW_BYTES_PER_SECOND = 1_200_000;
  let slow: LongCallServer;
  let slowSid: string;

  beforeAll(async () => {
    const file = await generateRecording({ seconds: CALL_SECONDS, format: 'mp3' });
    slow = await startLongCallServer({
      recordings: [{ seconds: CALL_SECONDS, file, entries: 50 }],
      bytesPerSecond: SLOW_BYTES_PER_SECOND,
    });
    slowSid = slow.interactions[0]!.sid;
  });

  afterAll(async () => {
    await slow.close();
  });

  it('draws the waveform left to right while the recording downloads', async () => {
    const connected = await h.handlers.connect([{ name: 'Slow link', baseUrl: slow.baseUrl, apiKey: slow.apiKey }]);
    if (!connected.ok) throw new Error(`Could not connect to the slow service: ${JSON.stringify(connected.error)}`);
    await h.page.reload();
    await h.page.getByLabel('Interaction SID').waitFor();
    await showInteraction(h.page, slowSid);

    // Wait until main has decoded between a third and two thirds of the call.
    const deadline = Date.now() + 30_000;
    let covered = 0;
    while (covered < CALL_SECONDS / 3) {
      if (Date.now() > deadline) throw new Error(`Only ${covered} s of peaks after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const value = await peaksSoFar(slowSid);
      expect(value?.complete ?? false).toBe(false);
      covered = value?.coveredSeconds ?? 0;
    }
    expect(covered).toBeLessThan((CALL_SECONDS * 2) / 3);
    // The page draws what is there (it asks every 250 ms): a waveform, the seek bar on the full length.
    await h.page.waitForFunction(() => !document.body.innerText.includes('Drawing waveform'), undefined, {
      timeout: 2_000,
    });
    await expect(waveformDrawn(h.page)).resolves.toBe(true);
    expect(await h.page.getByRole('slider', { name: /Playback position/ }).getAttribute('aria-valuetext')).toMatch(
      /^0:00 of 40:0\d$/,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'waveform-half.png') });
    expect((await peaksSoFar(slowSid))?.complete).toBe(false);

    // The download ends, and the final peaks replace the partial ones.
    await waitForAllPeaks(slowSid, 60_000);
    await expect(waveformDrawn(h.page)).resolves.toBe(true);
  });
});
