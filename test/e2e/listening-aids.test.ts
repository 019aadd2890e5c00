/**
 * The listening aids a reviewer hears, end to end in Chromium with main's real handlers
 * (harness.ts), on a two-lane call whose caller (left) was recorded quietly: the call of
 * test/fixtures/call-formats.ts as 16-bit WAV with the caller's lane turned down to a tenth,
 * served by a voice-agent service on loopback (test/fixtures/long-call.ts).
 * - Levelling (on by default) raises the quiet caller: what reaches the speakers on the left
 *   during a caller's turn is louder with "Level lanes" on than off, by the raise its tooltip names.
 * - Skipping silences: with the toggle on, playback runs past the long pause after the caller
 *   gives their name without playing it; a screenshot of the toggle in use goes to
 *   /tmp/listen-skip-silences.png.
 * What reaches the speakers is read by the audio tap of audio-tap.ts.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeCall } from '../fixtures/call-formats';
import type { CallScript } from '../fixtures/call-original';
import { startLongCallServer, type LongCallServer } from '../fixtures/long-call';
import { temporaryFolder } from '../fixtures/temporary-folder';
import { installAudioTap, loudnessBetween } from './audio-tap';
import { ensureBuilt } from './build';
import { showInteraction, startHarness, type Harness } from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { blurFocus, mediaTimeSeconds, waitForWaveform } from './review-helpers';

/** How much quieter the caller's lane is than in the original call. */
const CALLER_SCALE = 0.1;

let h: Harness;
let server: LongCallServer;
let script: CallScript;
let sid: string;

beforeAll(async () => {
  ensureBuilt();
  const call = await encodeCall({ format: 'wav-s16', sampleRate: 16_000, channels: 2 });
  script = call.script;
  const file = join(temporaryFolder('vr-quiet-caller-'), 'quiet-caller.wav');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-nostdin', '-y', '-i', call.file],
    ...['-af', `pan=stereo|c0=${CALLER_SCALE}*c0|c1=c1`, '-c:a', 'pcm_s16le', file],
  ]);
  server = await startLongCallServer({
    recordings: [
      {
        seconds: script.durationSeconds,
        file,
        entries: script.turns.map((turn, i) => ({
          role: turn.role,
          message: `${turn.role === 'agent' ? 'Agent' : 'Caller'} turn ${i + 1}`,
          timestamp: Math.round(turn.startSeconds * 100) / 100,
        })),
      },
    ],
  });
  sid = server.interactions[0]!.sid;
  h = await startHarness({ viewport: { width: 1280, height: 860 } });
  await h.page.addInitScript(installAudioTap);
  const connected = await h.handlers.connect([
    { name: 'Quiet caller', baseUrl: server.baseUrl, apiKey: server.apiKey },
  ]);
  if (!connected.ok) throw new Error(`Could not connect: ${JSON.stringify(connected.error)}`);
});

afterAll(async () => {
  await h.close();
  await server.close();
});

checkPageErrorsEachTest(() => h);

// Each test starts on a freshly loaded page (a new audio tap) and shows the call itself.
beforeEach(async () => {
  await h.page.reload();
  await showInteraction(h.page, sid);
  await waitForWaveform(h.page);
  await blurFocus(h.page);
});

describe('levelling a quiet caller', () => {
  it('raises what the caller’s lane sends to the speakers by the raise it names, and off leaves it quiet', async () => {
    const recording = h.page.getByRole('region', { name: 'Recording' });
    const level = recording.getByRole('button', { name: 'Level lanes' });
    expect(await level.getAttribute('aria-pressed')).toBe('true');
    // The left lane's raise, in its tooltip once the peaks are in ("Channel 1 (left) +12.0 dB"; the
    // lane is named by channel or by party, as far as the lanes' roles could be inferred).
    const raiseOfLeft = /\(left\) \+([\d.]+) dB/;
    await expect.poll(async () => (await level.getAttribute('title')) ?? '').toMatch(raiseOfLeft);
    const decibels = Number(raiseOfLeft.exec((await level.getAttribute('title')) ?? '')?.[1]);
    expect(decibels).toBeGreaterThan(6);

    // The lanes' Web Audio graph is made on the reviewer's first play.
    await recording.getByRole('button', { name: 'Play', exact: true }).click();
    await recording.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => h.page.evaluate(() => '__laneTap' in window)).toBe(true);

    // The caller's first turn, with its edges left out.
    const turn = script.turns.find((t) => t.role === 'user')!;
    const [from, to] = [turn.startSeconds + 0.2, turn.endSeconds - 0.2];
    const levelled = await loudnessBetween(h.page, from, to);
    await level.click();
    await expect.poll(() => level.getAttribute('aria-pressed')).toBe('false');
    const asRecorded = await loudnessBetween(h.page, from, to);

    // Heard quietly as recorded (a tenth of the original), and raised with levelling on.
    expect(asRecorded.left).toBeGreaterThan(0.005);
    expect(asRecorded.left).toBeLessThan(0.15);
    const raised = levelled.left / asRecorded.left;
    expect(raised).toBeGreaterThan(10 ** (decibels / 20) * 0.8);
    expect(raised).toBeLessThan(10 ** (decibels / 20) * 1.25);
    // The agent's lane, quiet in the caller's turn either way, is not what was raised.
    expect(levelled.right).toBeLessThan(levelled.left);
  });
});

describe('skipping silences', () => {
  it('plays past the long pause after the caller’s name without playing it', async () => {
    const recording = h.page.getByRole('region', { name: 'Recording' });
    // The pause after "Daniel Reyes": from the end of that turn to the tone after it.
    const name = script.turns.filter((t) => t.role === 'user')[1]!;
    const toneAfter = script.toneSeconds.find((t) => t > name.endSeconds)!;
    expect(toneAfter - name.endSeconds).toBeGreaterThan(2);

    await recording.getByRole('combobox', { name: 'Skip silences longer than' }).selectOption('1');
    await h.page.keyboard.press('s');
    const toggle = recording.getByRole('button', { name: 'Skip silences' });
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');

    // Played from the end of the name: the playhead goes on past the tone, never resting in the pause.
    await h.page.evaluate((at) => {
      const audio = document.querySelector('audio');
      if (audio) audio.currentTime = at;
    }, name.endSeconds - 0.3);
    await expect.poll(() => mediaTimeSeconds(h.page)).toBeCloseTo(name.endSeconds - 0.3, 1);
    await h.page.keyboard.press(' ');
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          seen.push(await mediaTimeSeconds(h.page));
          return seen.at(-1)! > toneAfter;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);
    await h.page.keyboard.press(' ');
    await recording.screenshot({ path: '/tmp/listen-skip-silences.png' });
    const inThePause = seen.filter((t) => t > name.endSeconds + 0.6 && t < toneAfter - 0.6);
    expect(inThePause).toEqual([]);
  });
});
