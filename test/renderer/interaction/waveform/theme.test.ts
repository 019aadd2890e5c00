/**
 * The waveform follows the system's colour scheme: wavesurfer (the recording fake) is created
 * with the dark palette when the system asks for dark colours, and takes the other palette, lanes
 * included, when the setting changes while the call is shown. `matchMedia` is a stand-in (jsdom
 * has none) whose `change` the test fires.
 */
import '@testing-library/svelte/vitest';
import { render } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordingPeaks } from '$shared/contract';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { STEREO_LANE_STYLES, WAVEFORM_STYLE } from '../../../../renderer/src/lib/interaction/waveform/peaks';
import { stereoLaneColours, waveformColours } from '../../../../renderer/src/lib/interaction/waveform/theme.svelte';
import { installFakeMedia } from '../../fake-media';
import { fakeWaveSurfers } from '../../fake-wavesurfer';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

const SRC = 'vr-recording://ws-demo/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const stereo: RecordingPeaks = {
  durationSeconds: 10,
  sampleRate: 8000,
  length: 2,
  channels: [
    { min: [-0.5, -0.1], max: [0.25, 0.2] },
    { min: [-0.05, -0.6], max: [0.1, 0.4] },
  ],
  fromCache: true,
};

/** The system's setting, as the stand-in reports it, and its change listeners. */
const system = { dark: true, listeners: [] as Array<(event: { matches: boolean }) => void> };

beforeEach(() => {
  fakeWaveSurfers.length = 0;
  installFakeMedia();
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(prefers-color-scheme: dark)' && system.dark,
    addEventListener: (_: string, listener: (event: { matches: boolean }) => void) => system.listeners.push(listener),
    removeEventListener: () => undefined,
  }));
});

/** The colours wavesurfer holds now. */
function colours() {
  const options = fakeWaveSurfers[0]?.options as unknown as Record<string, unknown> | undefined;
  return { wave: options?.['waveColor'], lanes: options?.['splitChannels'] };
}

describe('waveform colours', () => {
  it('draws in the dark palette when the system is dark, and switches with the system', async () => {
    render(WaveformPlayer, { props: { src: SRC, peaks: stereo } });
    await vi.waitFor(() => expect(fakeWaveSurfers).toHaveLength(1));
    expect(colours()).toEqual({ wave: waveformColours(true).waveColor, lanes: [...stereoLaneColours(true)] });
    expect(waveformColours(true).waveColor).not.toBe(WAVEFORM_STYLE.waveColor);

    system.dark = false;
    for (const listener of system.listeners) listener({ matches: false });
    flushSync();

    expect(colours()).toEqual({ wave: WAVEFORM_STYLE.waveColor, lanes: [...STEREO_LANE_STYLES] });
    expect(fakeWaveSurfers).toHaveLength(1);
  });
});
