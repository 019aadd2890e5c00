/**
 * A call recorded as AIFF, end to end: the two-channel call of test/fixtures/call-formats.ts
 * (caller on the left, agent on the right) as 16-bit AIFF, served by a voice-agent service on
 * loopback (test/fixtures/long-call.ts), in Debian's Chromium with main's real handlers
 * (harness.ts). Chromium's player has no AIFF, so the recording cannot play; main decodes it, so
 * the call shows its waveform with two lanes like a WAV call's, and, under it, why there is no
 * sound and what to do, instead of "could not be drawn" or a general failure. A screenshot of the
 * recording goes to /tmp/voice-review-aiff-call.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCall, type EncodedCall } from '../fixtures/call-formats';
import { startLongCallServer, type LongCallServer } from '../fixtures/long-call';
import { ensureBuilt } from './build';
import { startHarness, waitForTranscript, type Harness } from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { waitForWaveform, waveformDrawn } from './review-helpers';

const SCREENSHOT = '/tmp/voice-review-aiff-call.png';

let h: Harness;
let server: LongCallServer;
let call: EncodedCall;

beforeAll(async () => {
  ensureBuilt();
  call = await encodeCall({ format: 'aiff-s16', sampleRate: 16_000, channels: 2 });
  server = await startLongCallServer({
    recordings: [
      {
        seconds: call.script.durationSeconds,
        file: call.file,
        entries: call.script.turns.map((turn, i) => ({
          role: turn.role,
          message: `${turn.role === 'agent' ? 'Agent' : 'Caller'} turn ${i + 1}`,
          timestamp: Math.round(turn.startSeconds * 100) / 100,
        })),
      },
    ],
  });
  h = await startHarness({ viewport: { width: 1280, height: 860 } });
  const connected = await h.handlers.connect([{ name: 'AIFF calls', baseUrl: server.baseUrl, apiKey: server.apiKey }]);
  if (!connected.ok) throw new Error(`Could not connect: ${JSON.stringify(connected.error)}`);
  // The page opens on the workspace main just connected.
  await h.page.reload();
  await h.page.getByLabel('Interaction SID').waitFor();
});

afterAll(async () => {
  await h.close();
  await server.close();
});

checkPageErrorsEachTest(() => h);

describe('a call recorded as AIFF', () => {
  it('draws its waveform in two lanes and says why it does not play, and what to do', async () => {
    // Not showInteraction: it takes the player's alert for a failure to show the call.
    await h.page.getByLabel('Interaction SID').fill(server.interactions[0]!.sid);
    await h.page.getByRole('button', { name: 'Show call' }).click();
    await waitForTranscript(h.page);
    await waitForWaveform(h.page, 30_000);
    const recording = h.page.getByRole('region', { name: 'Recording' });

    await expect(waveformDrawn(h.page)).resolves.toBe(true);
    await expect.poll(() => recording.getByRole('button', { name: /^Mute / }).count()).toBe(2);
    expect(await recording.getByText(/could not be drawn/).count()).toBe(0);
    // The waveform spans the call (main decoded its length; the player has none).
    const slider = recording.getByRole('slider', { name: /Playback position/ });
    expect(Math.abs(Number(await slider.getAttribute('aria-valuemax')) - call.script.durationSeconds)).toBeLessThan(1);

    // The player cannot play AIFF: it says so, and what to do, under the waveform.
    const alert = recording.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/This recording is in AIFF, which the player cannot play/);
    expect(await alert.textContent()).toMatch(/Download recording/);
    expect(await alert.textContent()).not.toMatch(/could not be loaded or played/);
    await expect(slider.isVisible()).resolves.toBe(true);
    await recording.screenshot({ path: SCREENSHOT });
  });
});
