/**
 * The waveform player alone (renderer/src/lib/WaveformPlayer.svelte), fed by props as
 * CallsView feeds it. wavesurfer.js is replaced by a fake that records its options (jsdom
 * has no canvas); jsdom's <audio> is driven by test/renderer/fake-media.ts.
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordingPeaks } from '$shared/contract';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { fakeWaveSurfers } from '../../fake-wavesurfer';
import { advanceTo, installFakeMedia, loadMetadata, mediaElement } from '../../fake-media';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

let media: ReturnType<typeof installFakeMedia>;
beforeEach(() => {
  fakeWaveSurfers.length = 0;
  media = installFakeMedia();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SRC = 'vr-recording://ws-demo/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

function stereoPeaks(): RecordingPeaks {
  return {
    durationSeconds: 95.5,
    sampleRate: 8000,
    length: 4,
    channels: [
      { min: [-0.5, -0.1, 0, -0.9], max: [0.25, 0.2, 0, 0.3] },
      { min: [-0.05, -0.6, -0.2, 0], max: [0.1, 0.4, 0.7, 0] },
    ],
    fromCache: true,
  };
}

describe('WaveformPlayer: stereo', () => {
  it('draws a stereo recording as two labelled lanes, one per channel', async () => {
    render(WaveformPlayer, { props: { src: SRC, peaks: stereoPeaks() } });

    expect(await screen.findByText('Channel 1 (left)')).toBeInTheDocument();
    expect(screen.getByText('Channel 2 (right)')).toBeInTheDocument();
    expect(
      screen.getByText(/Stereo recording: the waveform shows Channel 1 \(left\) and Channel 2 \(right\)/),
    ).toBeInTheDocument();

    const [ws] = fakeWaveSurfers;
    expect(ws?.options.splitChannels).toHaveLength(2);
    // Each lane shows the loudness of its own channel (the larger of |min| and |max|).
    expect(ws?.options.peaks?.map((p) => Array.from(p, (v) => Math.round(v * 100) / 100))).toEqual([
      [0.5, 0.2, 0, 0.9],
      [0.1, 0.6, 0.7, 0],
    ]);
    expect(ws?.options.duration).toBe(95.5);
    expect(ws?.options.media).toBe(mediaElement());
  });

  it('draws a mono recording as one waveform with no lane labels', async () => {
    const mono: RecordingPeaks = { ...stereoPeaks(), channels: [stereoPeaks().channels[0]!] };
    render(WaveformPlayer, { props: { src: SRC, peaks: mono } });

    await vi.waitFor(() => expect(fakeWaveSurfers).toHaveLength(1));
    await vi.waitFor(() => expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument());
    expect(screen.queryByText(/Channel 1/)).not.toBeInTheDocument();
    expect(fakeWaveSurfers[0]?.options.splitChannels).toBeUndefined();
  });
});

describe('WaveformPlayer: peaks arriving late', () => {
  it('shows the progress of playback so far as soon as the waveform is drawn while paused', async () => {
    const { rerender } = render(WaveformPlayer, { props: { src: SRC, peaks: null } });
    const audio = mediaElement();
    loadMetadata(audio, 95.5);
    advanceTo(audio, 30);
    expect(screen.getByText('Drawing waveform…')).toBeInTheDocument();

    await rerender({ peaks: stereoPeaks() });

    await vi.waitFor(() => expect(fakeWaveSurfers[0]?.setTime).toHaveBeenCalledWith(30));
    expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument();
  });

  it('keeps the chosen speed on the media element', async () => {
    const user = userEvent.setup();
    render(WaveformPlayer, { props: { src: SRC, peaks: null } });
    loadMetadata(mediaElement(), 95.5);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Speed' }), '1.5');

    expect(mediaElement().playbackRate).toBe(1.5);
    expect(mediaElement().defaultPlaybackRate).toBe(1.5);
    expect(media.play).not.toHaveBeenCalled();
  });

  it('seeks by a click on the plain progress bar while there is no waveform', async () => {
    const user = userEvent.setup();
    render(WaveformPlayer, { props: { src: SRC, peaks: null } });
    const audio = mediaElement();
    loadMetadata(audio, 100);
    const bar = document.querySelector<HTMLElement>('.bar');
    if (!bar) throw new Error('No progress bar');
    vi.spyOn(bar, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 400, 6));

    await user.pointer({ target: bar, coords: { clientX: 100, clientY: 3 }, keys: '[MouseLeft]' });

    expect(audio.currentTime).toBe(25);
    expect(screen.getByRole('slider', { name: /Playback position/ })).toHaveAttribute('aria-valuetext', '0:25 of 1:40');
  });
});
