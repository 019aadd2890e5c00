/**
 * The keyboard path while the waveform is not drawn yet: the plain progress bar of the
 * placeholder is for the mouse (and hidden from assistive technology, being a copy of the
 * slider's value); the player's position slider, under the placeholder, stays reachable with Tab
 * and moves the playback with the arrow keys, Home and End, its value said in words. The
 * placeholder shows the slider's focus (a CSS rule on the slider's :focus-visible, checked in
 * Chromium by the accessibility test's screens).
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { installFakeMedia, loadMetadata, mediaElement } from '../../fake-media';
import { fakeWaveSurfers } from '../../fake-wavesurfer';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

const SRC = 'vr-recording://ws-demo/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

beforeEach(() => {
  fakeWaveSurfers.length = 0;
  installFakeMedia();
});

describe('seeking by keyboard before the waveform is drawn', () => {
  it('reaches the position slider with Tab and moves playback with the arrow keys, Home and End', async () => {
    const user = userEvent.setup();
    render(WaveformPlayer, { props: { src: SRC, peaks: null } });
    const audio = mediaElement();
    loadMetadata(audio, 95);
    expect(screen.getByText('Drawing waveform…')).toBeInTheDocument();

    const slider = screen.getByRole('slider', { name: /Playback position/ });
    await user.tab();
    expect(slider).toHaveFocus();
    expect(slider).toHaveAttribute('aria-valuemin', '0');
    expect(slider).toHaveAttribute('aria-valuemax', '95');

    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(audio.currentTime).toBe(10);
    await vi.waitFor(() => expect(slider).toHaveAttribute('aria-valuetext', '0:10 of 1:35'));

    await user.keyboard('{ArrowLeft}');
    expect(audio.currentTime).toBe(5);
    await user.keyboard('{End}');
    expect(audio.currentTime).toBe(95);
    await user.keyboard('{Home}');
    expect(audio.currentTime).toBe(0);
  });

  it('takes the skips the shortcut sheet lists: Shift+arrow and J/L', async () => {
    const user = userEvent.setup();
    render(WaveformPlayer, { props: { src: SRC, peaks: null } });
    const audio = mediaElement();
    loadMetadata(audio, 95);
    await user.tab();

    await user.keyboard('{Shift>}{ArrowRight}{/Shift}');
    expect(audio.currentTime).toBe(30);
    await user.keyboard('l');
    expect(audio.currentTime).toBe(40);
    await user.keyboard('j{Shift>}{ArrowLeft}{/Shift}');
    expect(audio.currentTime).toBe(0);
  });

  it('keeps the mouse-only bar out of the accessibility tree and of the tab order', () => {
    render(WaveformPlayer, { props: { src: SRC, peaks: null } });
    const bar = document.querySelector('.placeholder .bar');
    expect(bar).toHaveAttribute('aria-hidden', 'true');
    expect(bar).not.toHaveAttribute('tabindex');
    expect(screen.getAllByRole('slider')).toHaveLength(1);
  });
});
