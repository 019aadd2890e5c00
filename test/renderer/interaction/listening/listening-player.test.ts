/**
 * The player's listening aids as a reviewer meets them: with "Skip silences" on, playback that
 * runs into a silence longer than the chosen length jumps to just before the next speech, a
 * shorter one is played; and the A–B loop drawn over the waveform. wavesurfer.js is the fake of
 * fake-wavesurfer.ts; the media element is the stand-in of fake-media.ts.
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordingPeaks } from '$shared/contract';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { KEEP_SECONDS } from '../../../../renderer/src/lib/interaction/listening/skip-silences';
import { fakeWaveSurfers } from '../../fake-wavesurfer';
import { advanceTo, installFakeMedia, loadMetadata, mediaElement } from '../../fake-media';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

const SRC = 'vr-recording://ws-demo/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
/** Peaks per second of {@link talkWithGaps}. */
const PEAKS_PER_SECOND = 10;

/**
 * A 60 s mono call: speech everywhere but a 1.5 s pause at 10 s, a 4 s one at 30 s and a
 * 2.5 s one at 45 s.
 */
function talkWithGaps(): RecordingPeaks {
  const quiet = [
    [10, 11.5],
    [30, 34],
    [45, 47.5],
  ];
  const length = 60 * PEAKS_PER_SECOND;
  const max = Array.from({ length }, (_, i) => {
    const t = i / PEAKS_PER_SECOND;
    if (quiet.some(([from = 0, to = 0]) => t >= from && t < to)) return 0.01;
    return 0.4 + 0.3 * Math.abs(Math.sin(i));
  });
  return {
    durationSeconds: 60,
    sampleRate: 8000,
    length,
    channels: [{ min: max.map((v) => -v), max }],
    fromCache: true,
  };
}

beforeEach(() => {
  fakeWaveSurfers.length = 0;
  installFakeMedia();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The player with its waveform drawn, the recording's metadata in, and playing. */
async function playing() {
  const user = userEvent.setup();
  render(WaveformPlayer, { props: { src: SRC, peaks: talkWithGaps() } });
  const audio = mediaElement();
  loadMetadata(audio, 60);
  await vi.waitFor(() => expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument());
  await user.click(screen.getByRole('button', { name: 'Play' }));
  return { user, audio };
}

/**
 * Plays from `fromSeconds` towards `toSeconds` in quarter-second clock readings, as Chromium
 * reports them, until the player moves the playhead elsewhere.
 */
function playThrough(audio: HTMLMediaElement, fromSeconds: number, toSeconds: number) {
  for (let t = fromSeconds; t <= toSeconds; t += 0.25) {
    advanceTo(audio, t);
    if (audio.currentTime !== t) return;
  }
}

describe('skipping silences', () => {
  it('is off by default: every pause is played', async () => {
    const { audio } = await playing();
    expect(screen.getByRole('button', { name: 'Skip silences' })).toHaveAttribute('aria-pressed', 'false');

    advanceTo(audio, 29.9);
    advanceTo(audio, 30.4);

    expect(audio.currentTime).toBe(30.4);
  });

  it('jumps over a pause longer than 2 s to just before the next speech, and plays a shorter one', async () => {
    const { user, audio } = await playing();
    const toggle = screen.getByRole('button', { name: 'Skip silences' });

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('combobox', { name: 'Skip silences longer than' })).toHaveValue('2');

    advanceTo(audio, 9.9);
    advanceTo(audio, 10.6);
    expect(audio.currentTime).toBe(10.6);

    advanceTo(audio, 29.9);
    advanceTo(audio, 30.4);
    expect(audio.currentTime).toBeCloseTo(34 - KEEP_SECONDS, 1);
    await vi.waitFor(() => expect(screen.getByTestId('current-time')).toHaveTextContent('0:33'));
  });

  it('with 3 s chosen, plays a 2.5 s pause and still skips a 4 s one', async () => {
    const { user, audio } = await playing();
    await user.click(screen.getByRole('button', { name: 'Skip silences' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Skip silences longer than' }), '3');

    advanceTo(audio, 44.9);
    advanceTo(audio, 45.6);
    expect(audio.currentTime).toBe(45.6);

    advanceTo(audio, 29.9);
    advanceTo(audio, 30.4);
    expect(audio.currentTime).toBeCloseTo(34 - KEEP_SECONDS, 1);
  });

  it('plays from a seek that lands inside a pause', async () => {
    const { user, audio } = await playing();
    await user.click(screen.getByRole('button', { name: 'Skip silences' }));

    advanceTo(audio, 5);
    advanceTo(audio, 31);
    advanceTo(audio, 31.25);

    expect(audio.currentTime).toBe(31.25);
  });
});

describe('the A–B loop on the player', () => {
  it('is set with its buttons, named in words, drawn over the waveform, and goes back to A at B', async () => {
    const { user, audio } = await playing();

    advanceTo(audio, 21);
    await user.click(screen.getByRole('button', { name: 'Set loop A' }));
    advanceTo(audio, 29);
    await user.click(screen.getByRole('button', { name: 'Set loop B' }));

    expect(screen.getByText('Looping 0:21–0:29')).toBeVisible();
    expect(audio.currentTime).toBe(21);
    playThrough(audio, 21, 30);
    expect(audio.currentTime).toBe(21);
    // Drawn over the waveform from A (21 s of 60) to B (29 s).
    const band = document.querySelector<HTMLElement>('.band');
    expect(band?.style.left).toBe('35%');
    expect(band?.style.width).toMatch(/^13\.33\d*%$/);
  });

  it('stays over A to B when the waveform is zoomed and scrolled, cut at the view’s edge', async () => {
    const { user, audio } = await playing();
    advanceTo(audio, 21);
    await user.click(screen.getByRole('button', { name: 'Set loop A' }));
    advanceTo(audio, 29);
    await user.click(screen.getByRole('button', { name: 'Set loop B' }));
    const ws = fakeWaveSurfers[0];
    if (!ws) throw new Error('No wavesurfer created');

    // Two levels in: 60 s over 800 px fits at 13.3 px/s, so 53.3 px/s shows 15 s at a time.
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    const pxPerSec = ws.zoom.mock.lastCall?.[0] ?? 0;
    expect(pxPerSec).toBeCloseTo(800 / 15, 5);
    const scrollTo = (seconds: number) =>
      ws.emit('scroll', seconds, seconds + 15, seconds * pxPerSec, (seconds + 15) * pxPerSec);
    const band = () => document.querySelector<HTMLElement>('.band');

    // The view shows 20–35 s: the loop (21–29 s) from 1/15 of the way across, 8/15 wide.
    scrollTo(20);
    await vi.waitFor(() => expect(parseFloat(band()?.style.left ?? '')).toBeCloseTo(100 / 15, 3));
    expect(parseFloat(band()?.style.width ?? '')).toBeCloseTo(800 / 15, 3);
    expect(band()).not.toHaveClass('cut-start');

    // Scrolled on to 25–40 s: A is out of view, the band runs from the left edge to B.
    scrollTo(25);
    await vi.waitFor(() => expect(band()).toHaveClass('cut-start'));
    expect(band()?.style.left).toBe('0%');
    expect(parseFloat(band()?.style.width ?? '')).toBeCloseTo(400 / 15, 3);

    // 40–55 s: none of the loop is in view.
    scrollTo(40);
    await vi.waitFor(() => expect(band()).toBeNull());

    // Back out to the whole call: 21 s of 60 again.
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await vi.waitFor(() => expect(band()?.style.left).toBe('35%'));
  });
});
