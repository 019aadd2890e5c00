/**
 * Calls whose recording main does not decode, end to end: the same two-channel call
 * (test/fixtures/call-formats.ts: caller on the left, agent on the right) as WebM/Opus written the
 * way a browser's recorder writes it (no duration, no cues) and as M4A with AAC, served by a
 * voice-agent service on loopback (test/fixtures/long-call.ts). The built app runs in Debian's
 * Chromium with main's real handlers (harness.ts): main says it does not decode the format, the
 * page decodes the recording in its peaks worker from the player's URL, and the call shows its
 * waveform with two lanes instead of "No waveform for this recording's format". The service sends
 * each recording once (main's one download serves the player, main's decoder and the page), main
 * keeps the page's peaks in its disk cache, and the call's next view draws from there without the
 * page decoding again. Screenshots of the WebM call go to /tmp (see SCREENSHOT).
 */
import { statSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RecordingPeaks } from '../../electron/shared/contract';
import { encodeCall, type EncodedCall } from '../fixtures/call-formats';
import { startLongCallServer, type LongCallServer, type WireLogEntry } from '../fixtures/long-call';
import { temporaryFolder } from '../fixtures/temporary-folder';
import { ensureBuilt } from './build';
import { showInteraction, startHarness, type Harness } from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { waitForWaveform, waveformDrawn } from './review-helpers';

/** Where the screenshots of the WebM call go: its recording (waveform and lanes), and the whole window. */
const SCREENSHOT = '/tmp/voice-review-webm-call.png';
const PAGE_SCREENSHOT = '/tmp/voice-review-webm-call-page.png';

let h: Harness;
let server: LongCallServer;
const calls: Array<{ call: EncodedCall; sid: string }> = [];
/** How the page asked for each recording in the current test (`media` for the player, `fetch` for the decoder). */
const recordingRequests: string[] = [];

/** The call's turns as its transcript, at the times they are spoken. */
function transcriptOf(call: EncodedCall): WireLogEntry[] {
  return call.script.turns.map((turn, i) => ({
    role: turn.role,
    message: `${turn.role === 'agent' ? 'Agent' : 'Caller'} turn ${i + 1}`,
    timestamp: Math.round(turn.startSeconds * 100) / 100,
  }));
}

beforeAll(async () => {
  ensureBuilt();
  const encoded = [
    await encodeCall({ format: 'webm-opus-live', sampleRate: 48_000, channels: 2 }),
    await encodeCall({ format: 'm4a-aac', sampleRate: 44_100, channels: 2 }),
  ];
  server = await startLongCallServer({
    recordings: encoded.map((call) => ({
      seconds: call.script.durationSeconds,
      file: call.file,
      entries: transcriptOf(call),
    })),
  });
  for (const [i, call] of encoded.entries()) calls.push({ call, sid: server.interactions[i]!.sid });

  h = await startHarness({ peaksCacheDir: temporaryFolder('vr-e2e-peaks-cache-') });
  h.page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/recording/')) recordingRequests.push(request.resourceType());
  });
  const connected = await h.handlers.connect([
    { name: 'Recorded calls', baseUrl: server.baseUrl, apiKey: server.apiKey },
  ]);
  if (!connected.ok) throw new Error(`Could not connect: ${JSON.stringify(connected.error)}`);
});

afterAll(async () => {
  await h.close();
  await server.close();
});

checkPageErrorsEachTest(() => h);

beforeEach(async () => {
  await h.page.reload();
  await h.page.getByLabel('Interaction SID').waitFor();
  recordingRequests.length = 0;
});

/** Main's peaks of `sid`'s recording, as a second view asks for them. */
async function mainPeaks(sid: string): Promise<RecordingPeaks | null> {
  const result = await h.handlers.getPeaks([sid]);
  return result.ok ? (result.value as RecordingPeaks) : null;
}

describe.each([
  { label: 'WebM/Opus from a browser recorder (no duration, no cues)', index: 0 },
  { label: 'M4A with AAC', index: 1 },
])('a call recorded as $label', ({ index }) => {
  it('shows a drawn waveform with two lanes; main keeps it, so the next view draws without the page', async () => {
    const { call, sid } = calls[index]!;
    const sentBefore = server.counters().recordingBytes;

    await showInteraction(h.page, sid);
    await waitForWaveform(h.page, 30_000);

    const recording = h.page.getByRole('region', { name: 'Recording' });
    expect(await recording.getByText(/No waveform for this recording's format/).count()).toBe(0);
    expect(await recording.getByText(/waveform could not be drawn/).count()).toBe(0);
    await expect(waveformDrawn(h.page)).resolves.toBe(true);
    await expect.poll(() => recording.getByRole('button', { name: /^Mute / }).count()).toBe(2);
    // The slider ends where the sound does (the WebM states no length of its own).
    const slider = h.page.getByRole('slider', { name: /Playback position/ });
    const endSeconds = Number(await slider.getAttribute('aria-valuemax'));
    expect(Math.abs(endSeconds - call.script.durationSeconds)).toBeLessThanOrEqual(0.6);
    // The page decoded it from the player's URL (a fetch beside the player's media requests) ...
    expect(recordingRequests).toContain('fetch');
    // ... and main's one download served the player, main's decoder and the page.
    expect(server.counters().recordingBytes - sentBefore).toBe(statSync(call.file).size);

    if (index === 0) {
      await recording.screenshot({ path: SCREENSHOT });
      await h.page.screenshot({ path: PAGE_SCREENSHOT });
      console.info(`Screenshots of the WebM call: ${SCREENSHOT}, ${PAGE_SCREENSHOT}`);
    }

    // Main kept the page's peaks: its next answer comes from the disk cache, two lanes, the sound's length.
    await expect.poll(async () => (await mainPeaks(sid))?.fromCache ?? false).toBe(true);
    const cached = (await mainPeaks(sid))!;
    expect(cached.channels).toHaveLength(2);
    expect(Math.abs(cached.durationSeconds - call.script.durationSeconds)).toBeLessThan(0.03);

    // The next view (the page loaded afresh) draws from main's cache: the page does not fetch the
    // recording to decode it again.
    await h.page.reload();
    recordingRequests.length = 0;
    await showInteraction(h.page, sid);
    await waitForWaveform(h.page, 30_000);
    await expect(waveformDrawn(h.page)).resolves.toBe(true);
    await expect.poll(() => recording.getByRole('button', { name: /^Mute / }).count()).toBe(2);
    expect(recordingRequests).not.toContain('fetch');
  });
});
