/**
 * The recording's length the player works with (renderer/src/lib/interaction/waveform/duration.ts):
 * the decoded sound's when the container states none (the media element reports Infinity, as for
 * WebM written by a browser's recorder, or NaN), and the clock, the slider, the seek bounds and the
 * waveform of the player (WaveformPlayer.svelte) taking it.
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PeaksProgress, RecordingPeaks } from '$shared/contract';
import { playerDurationSeconds } from '../../../../renderer/src/lib/interaction/waveform/duration';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { fakeWaveSurfers } from '../../fake-wavesurfer';
import { installFakeMedia, loadMetadata, mediaElement } from '../../fake-media';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

beforeEach(() => {
  fakeWaveSurfers.length = 0;
  installFakeMedia();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SRC = 'vr-recording://local/recording/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

describe('the length of a recording', () => {
  const none = { decodedSeconds: null, coveredSeconds: null, hintSeconds: null };

  it("is the decoded sound's once known, whatever the media element says", () => {
    for (const mediaSeconds of [Infinity, Number.NaN, 40.1, 0]) {
      expect(playerDurationSeconds({ ...none, mediaSeconds, decodedSeconds: 42.25, hintSeconds: 40 })).toBe(42.25);
    }
  });

  it("is the media element's before the sound is decoded, when it reports a length", () => {
    expect(playerDurationSeconds({ ...none, mediaSeconds: 41.9, hintSeconds: 40, coveredSeconds: 12 })).toBe(41.9);
  });

  it('falls back to the call and the sound decoded so far when the media element says Infinity or NaN', () => {
    for (const mediaSeconds of [Infinity, Number.NaN]) {
      expect(playerDurationSeconds({ ...none, mediaSeconds, hintSeconds: 40 })).toBe(40);
      expect(playerDurationSeconds({ ...none, mediaSeconds, hintSeconds: 40, coveredSeconds: 12 })).toBe(40);
      // The sound goes at least as far as it has been decoded, whatever the call's metadata says.
      expect(playerDurationSeconds({ ...none, mediaSeconds, hintSeconds: 40, coveredSeconds: 44 })).toBe(44);
      expect(playerDurationSeconds({ ...none, mediaSeconds, coveredSeconds: 12 })).toBe(12);
    }
  });

  it('is 0 while nothing tells it', () => {
    expect(playerDurationSeconds({ ...none, mediaSeconds: Number.NaN })).toBe(0);
    expect(playerDurationSeconds({ ...none, mediaSeconds: Infinity, hintSeconds: 0 })).toBe(0);
  });
});

/** Stereo peaks of a 42.25-second recording, as the page's decoder gives them. */
function decoded(durationSeconds = 42.25): RecordingPeaks {
  return {
    durationSeconds,
    sampleRate: 48_000,
    length: 4,
    channels: [
      { min: [-0.5, -0.1, 0, -0.9], max: [0.25, 0.2, 0, 0.3] },
      { min: [-0.05, -0.6, -0.2, 0], max: [0.1, 0.4, 0.7, 0] },
    ],
    fromCache: false,
  };
}

describe('WaveformPlayer: a recording whose container states no length', () => {
  it('shows, seeks within and draws the length of the decoded sound', async () => {
    const user = userEvent.setup();
    const { rerender } = render(WaveformPlayer, { props: { src: SRC, peaks: null, durationHintSeconds: null } });
    const audio = mediaElement();
    loadMetadata(audio, Infinity);
    const slider = screen.getByRole('slider', { name: /Playback position/ });

    // While decoding: the sound so far is as long as the recording is known to be.
    const soFar: PeaksProgress = { peaks: decoded(12), coveredSeconds: 12, complete: false };
    await rerender({ src: SRC, peaks: null, peaksProgress: soFar, durationHintSeconds: null });
    await vi.waitFor(() => expect(slider).toHaveAttribute('aria-valuetext', '0:00 of 0:12'));
    expect(screen.getByLabelText('Current time and total')).toHaveTextContent('0:00 / 0:12');

    await rerender({ src: SRC, peaks: decoded(), peaksProgress: null, durationHintSeconds: null });
    await vi.waitFor(() => expect(slider).toHaveAttribute('aria-valuetext', '0:00 of 0:42'));
    expect(slider).toHaveAttribute('aria-valuemax', '42');
    expect(screen.getByLabelText('Current time and total')).toHaveTextContent('0:00 / 0:42');
    const ws = fakeWaveSurfers.at(-1);
    expect(ws?.options.duration).toBe(42.25);

    // End goes to the end of the sound, not to Infinity.
    slider.focus();
    await user.keyboard('{End}');
    expect(audio.currentTime).toBe(42.25);
    expect(slider).toHaveAttribute('aria-valuetext', '0:42 of 0:42');
  });
});
