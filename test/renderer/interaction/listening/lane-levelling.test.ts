/**
 * Levelling a two-lane call's quiet caller, as a reviewer meets it: on by default, the quiet lane
 * is raised from the first play (no Web Audio before it), the Level toggle says its state and
 * turns it off with one click. AudioContext is a recording stand-in (jsdom has no Web Audio).
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordingPeaks } from '$shared/contract';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { MAX_LEVELLING_GAIN } from '../../../../renderer/src/lib/interaction/listening/lane-levels';
import { fakeWaveSurfers } from '../../fake-wavesurfer';
import {
  installFakeAudioContext,
  installFakeMedia,
  type FakeAudioGraph,
  loadMetadata,
  mediaElement,
} from '../../fake-media';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

const SRC = 'vr-recording://ws-demo/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

/** A 20 s two-lane call: a quiet caller (0.1 of full scale) on the left, a loud agent (0.6) on the right, taking turns. */
function quietCaller(): RecordingPeaks {
  const length = 200;
  const lane = (level: number, speaksFirst: boolean) => {
    const max = Array.from({ length }, (_, i) => ((Math.floor(i / 20) % 2 === 0) === speaksFirst ? level : 0.002));
    return { min: max.map((v) => -v), max };
  };
  return {
    durationSeconds: 20,
    sampleRate: 8000,
    length,
    channels: [lane(0.1, true), lane(0.6, false)],
    fromCache: true,
  };
}

/** Gains set on the lanes' GainNodes (left, right), and the AudioContexts made. */
let gains: Array<{ gain: { value: number } }>;
let contexts: FakeAudioGraph['contexts'];

beforeEach(() => {
  fakeWaveSurfers.length = 0;
  installFakeMedia();
  ({ gains, contexts } = installFakeAudioContext());
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function stereoPlayer() {
  const user = userEvent.setup();
  render(WaveformPlayer, { props: { src: SRC, peaks: quietCaller() } });
  loadMetadata(mediaElement(), 20);
  await vi.waitFor(() => expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument());
  return user;
}

describe('levelling the lanes of a two-lane call', () => {
  it('is on by default and raises the quiet caller once playing, never before', async () => {
    const user = await stereoPlayer();
    const level = screen.getByRole('button', { name: 'Level lanes' });
    expect(level).toHaveAttribute('aria-pressed', 'true');
    expect(contexts).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Play' }));

    expect(contexts).toHaveLength(1);
    expect(gains.map((g) => g.gain.value)).toEqual([MAX_LEVELLING_GAIN, 1]);
    expect(level).toHaveAttribute('title', expect.stringContaining('+12.0 dB'));
  });

  it('is turned off with one click, and the lanes play as recorded', async () => {
    const user = await stereoPlayer();
    await user.click(screen.getByRole('button', { name: 'Play' }));
    const level = screen.getByRole('button', { name: 'Level lanes' });

    await user.click(level);

    expect(level).toHaveAttribute('aria-pressed', 'false');
    expect(gains.map((g) => g.gain.value)).toEqual([1, 1]);
    await user.click(level);
    expect(gains.map((g) => g.gain.value)).toEqual([MAX_LEVELLING_GAIN, 1]);
  });

  it('keeps its gain under a mute of the other lane', async () => {
    const user = await stereoPlayer();
    await user.click(screen.getByRole('button', { name: 'Play' }));

    await user.click(screen.getByRole('button', { name: /^Mute .*right/ }));

    expect(gains.map((g) => g.gain.value)).toEqual([MAX_LEVELLING_GAIN, 0]);
  });
});
