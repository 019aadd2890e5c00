/**
 * A call whose recording main does not decode (WebM/Opus, MP4/AAC), as the Calls view shows it:
 * main says so (`detail: 'unsupported_format'`), the page decodes the recording from the URL the
 * player plays and draws the waveform filling in, then whole, with its lanes, and hands the peaks
 * to main; a page decode that fails offers Retry. The page's decoder (a Web Worker with Chromium's
 * decoders, which jsdom has not) is a stand-in driven by the test; wavesurfer.js and the media
 * element are the usual stand-ins (fake-wavesurfer.ts, fake-media.ts). The real decoder in
 * Chromium is tested end to end (test/e2e/page-decoded-calls.test.ts).
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '$shared/errors';
import type { ComputedPeaks } from '$shared/peaks-reducer';
import { decodeRecordingInPage } from '../../../../renderer/src/lib/interaction/waveform/decode/recording-decode';
import { demoSession, fail, interaction, ok, type Replies } from '../../fake-api';
import { fakeWaveSurfers } from '../../fake-wavesurfer';
import { installFakeLayout, installFakeMedia, loadMetadata, mediaElement } from '../../fake-media';
import { renderWorkspace } from '../../render-app';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);
vi.mock('../../../../renderer/src/lib/interaction/waveform/decode/recording-decode', () => ({
  decodeRecordingInPage: vi.fn(),
}));

const decodeInPage = vi.mocked(decodeRecordingInPage);

beforeEach(() => {
  installFakeMedia();
  installFakeLayout();
  decodeInPage.mockReset();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const RECORDING_URL = `vr-recording://local/recording/${SID}`;
const call = interaction({
  sid: SID,
  direction: 'inbound',
  durationSeconds: 42,
  log: [
    { index: 0, role: 'agent', message: 'Hello, Sample Clinic.', offsetSeconds: 1 },
    { index: 1, role: 'user', message: 'Hi, I would like to cancel.', offsetSeconds: 12.5 },
  ],
  recording: { available: true, src: RECORDING_URL },
});

/** Main's refusal of a WebM recording, as its decoder words it. */
const WEBM_REFUSED = {
  kind: 'invalid_response' as const,
  message: "The recording's audio format (WebM/Matroska) could not be decoded for the waveform; it may still play.",
  detail: 'unsupported_format' as const,
};

/** Stereo peaks (caller and agent lanes) of `durationSeconds`, as the page's decoder gives them. */
function stereo(durationSeconds: number): ComputedPeaks {
  return {
    durationSeconds,
    sampleRate: 48_000,
    length: 4,
    channels: [
      { min: [-0.5, -0.1, 0, -0.9], max: [0.25, 0.2, 0, 0.3] },
      { min: [-0.05, -0.6, -0.2, 0], max: [0.1, 0.4, 0.7, 0] },
    ],
  };
}

/** Opens the workspace, shows the call and returns its Recording region. */
async function openCall(replies: Replies) {
  const opened = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
    getInteraction: ok(call),
    storePeaks: ok(undefined),
    ...replies,
  });
  const before = fakeWaveSurfers.length;
  await opened.user.click(screen.getByRole('textbox', { name: 'Interaction SID' }));
  await opened.user.paste(SID);
  await opened.user.click(screen.getByRole('button', { name: 'Show call' }));
  const recording = await screen.findByRole('region', { name: 'Recording' });
  return { ...opened, recording, newWaveSurfers: () => fakeWaveSurfers.slice(before) };
}

describe('Calls view: a recording main does not decode', () => {
  it('draws it from the page, filling in and then whole, with its two lanes, and main keeps the peaks', async () => {
    let finish: (peaks: ComputedPeaks) => void = () => undefined;
    decodeInPage.mockImplementation((_src, request) => {
      request?.onProgress?.(stereo(12));
      return new Promise((resolve) => (finish = resolve));
    });
    const { fake, recording, newWaveSurfers } = await openCall({ getPeaks: fail(WEBM_REFUSED) });
    // Live WebM: the container states no length.
    loadMetadata(mediaElement(), Infinity);

    await vi.waitFor(() => expect(decodeInPage).toHaveBeenCalledTimes(1));
    expect(decodeInPage.mock.calls[0]?.[0]).toBe(RECORDING_URL);
    expect(within(recording).queryByText(/No waveform for this recording's format/)).not.toBeInTheDocument();

    // The first 12 s, drawn over the call's 42 s while the rest decodes.
    await vi.waitFor(() => expect(newWaveSurfers()).toHaveLength(1));
    expect(newWaveSurfers()[0]?.options.duration).toBe(42);
    expect(within(recording).getByText(/Waveform loading 0:12–0:42/)).toBeInTheDocument();

    finish(stereo(42.25));

    await vi.waitFor(() => expect(within(recording).queryByText(/Waveform loading/)).not.toBeInTheDocument());
    const drawn = newWaveSurfers().at(-1);
    expect(drawn?.options.splitChannels).toHaveLength(2);
    expect(within(recording).getAllByRole('button', { name: /^Mute / })).toHaveLength(2);
    expect(within(recording).queryByText('Drawing waveform…')).not.toBeInTheDocument();
    expect(within(recording).queryByText(/No waveform for this recording's format/)).not.toBeInTheDocument();
    // The clock and the slider take the decoded sound's length.
    expect(within(recording).getByRole('slider')).toHaveAttribute('aria-valuetext', '0:00 of 0:42');
    await vi.waitFor(() => expect(fake.calls.storePeaks).toEqual([[SID, stereo(42.25)]]));
  });

  it('offers to retry a page decode that failed, and draws the waveform on Retry', async () => {
    const aacFailed = new ApiError({
      kind: 'invalid_response',
      message: "The recording's audio format (aac) could not be decoded for the waveform; it may still play.",
    });
    decodeInPage.mockRejectedValueOnce(aacFailed).mockResolvedValueOnce(stereo(42.25));
    const { fake, user, recording, newWaveSurfers } = await openCall({ getPeaks: fail(WEBM_REFUSED) });
    loadMetadata(mediaElement(), 42.3);

    const retry = await within(recording).findByRole('button', { name: 'Retry waveform' });
    expect(
      within(recording).getByText(/The waveform could not be drawn\. The recording's audio format \(aac\)/),
    ).toBeInTheDocument();
    expect(within(recording).queryByText(/No waveform for this recording's format/)).not.toBeInTheDocument();
    expect(within(recording).getByRole('button', { name: 'Play' })).toBeEnabled();

    await user.click(retry);

    await vi.waitFor(() => expect(within(recording).getAllByRole('button', { name: /^Mute / })).toHaveLength(2));
    expect(newWaveSurfers().at(-1)?.options.duration).toBe(42.25);
    expect(within(recording).queryByRole('button', { name: 'Retry waveform' })).not.toBeInTheDocument();
    // The page decodes again; main, which left the recording to the page, is not asked again.
    expect(fake.calls.openRecordingSession).toEqual([[SID]]);
    expect(decodeInPage).toHaveBeenCalledTimes(2);
  });

  it('says a recording main finds broken has no waveform, without decoding it in the page', async () => {
    const { recording } = await openCall({
      getPeaks: fail({ kind: 'invalid_response', message: 'The recording could not be decoded.' }),
    });
    loadMetadata(mediaElement(), 42);

    expect(
      await within(recording).findByText("No waveform for this recording's format; playback works."),
    ).toBeInTheDocument();
    expect(decodeInPage).not.toHaveBeenCalled();
  });
});
