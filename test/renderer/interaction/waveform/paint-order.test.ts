/**
 * The waveform reaches the screen before what is drawn over and under it: when the peaks arrive,
 * the frame that paints the waveform carries neither the timeline's labels nor the role regions,
 * nor the call's analysis of the peaks (turn gaps, talk-over); they follow in a task after that
 * frame. Animation frames are held by the test and let go by hand, so "after the frame" is exact.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordingPeaks } from '$shared/contract';
import { afterWaitingTasks } from '../../../../renderer/src/lib/idle';
import type { RoleRegion } from '../../../../renderer/src/lib/interaction/analysis/types';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { deferred, demoSession, ok } from '../../fake-api';
import { fakeWaveSurfers } from '../../fake-wavesurfer';
import { loadMetadata, mediaElement } from '../../fake-media';
import { showSideTab, SID, slowReplyCall, useFakePlayer } from '../review-fixtures';
import { renderWorkspace } from '../../render-app';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

const SRC = 'vr-recording://ws-demo/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

/** Animation frame callbacks asked for and neither run nor cancelled, by handle. */
let frames = new Map<number, FrameRequestCallback>();
let nextFrame = 1;

/** Runs the frame callbacks asked for so far, as the browser does before it paints. */
function paintFrame(): void {
  const due = [...frames.values()];
  frames.clear();
  for (const callback of due) callback(performance.now());
}

/** Resolves in a task queued now (after a task queued from a frame callback just run). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => afterWaitingTasks(resolve));
}

useFakePlayer();
beforeEach(() => {
  fakeWaveSurfers.length = 0;
  frames = new Map();
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
    frames.set(nextFrame, callback);
    return nextFrame++;
  });
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation((handle) => {
    frames.delete(handle);
  });
});

function monoPeaks(durationSeconds: number, values: number[]): RecordingPeaks {
  return {
    durationSeconds,
    sampleRate: 8000,
    length: values.length,
    channels: [{ min: values.map((v) => -v), max: values }],
    fromCache: true,
  };
}

const PEAKS = monoPeaks(100, [0.2, 0.5, 0.1, 0.4]);
const REGIONS: RoleRegion[] = [
  { entryIndex: 0, kind: 'agent', roleLabel: 'Agent', text: 'Hello, how can I help?', startSeconds: 0, endSeconds: 4 },
  { entryIndex: 1, kind: 'user', roleLabel: 'User', text: 'My order is late.', startSeconds: 4, endSeconds: 9 },
];

describe('Waveform first', () => {
  it('draws the waveform, then its timeline and role regions in a task after the frame that paints it', async () => {
    render(WaveformPlayer, { props: { src: SRC, peaks: PEAKS, regions: REGIONS } });
    loadMetadata(mediaElement(), 100);
    await vi.waitFor(() => expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument());
    const ws = fakeWaveSurfers[0]!;
    expect(ws.options.peaks).toHaveLength(2);
    await nextTask();
    expect(ws.registered).not.toContain('TimelinePlugin');
    expect(ws.liveRegions()).toHaveLength(0);

    paintFrame();

    await vi.waitFor(() => expect(ws.liveRegions()).toHaveLength(2));
    expect(ws.registered).toContain('TimelinePlugin');
    expect(fakeWaveSurfers).toHaveLength(1);
  });

  it('adds nothing to a waveform taken down before its frame was painted', async () => {
    const { unmount } = render(WaveformPlayer, { props: { src: SRC, peaks: PEAKS, regions: REGIONS } });
    await vi.waitFor(() => expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument());
    const ws = fakeWaveSurfers[0]!;
    unmount();

    paintFrame();
    await nextTask();

    expect(ws.destroyed).toBe(true);
    expect(ws.registered).not.toContain('TimelinePlugin');
    expect(ws.regions).toHaveLength(0);
  });

  it("works the call's timing out from the audio only after the waveform drawn from the same peaks is painted", async () => {
    const peaks = deferred<RecordingPeaks>();
    const { user } = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
      getInteraction: ok(slowReplyCall),
      getPeaks: peaks,
    });
    await user.type(screen.getByRole('textbox', { name: 'Interaction SID' }), SID);
    await user.click(screen.getByRole('button', { name: 'Show call' }));
    await showSideTab('Timing');
    const panel = await screen.findByRole('region', { name: 'Turn timing' });
    const fromLog = "Figures from the transcript's times until the waveform is complete.";
    expect(within(panel).getByText(fromLog)).toBeVisible();

    // Four peaks a second, loud and silent by turns of 5 s, out of step with the transcript's turns.
    const byEar = /The recording shows no clear pauses between the caller and the agent/;
    peaks.resolve(
      monoPeaks(
        120,
        Array.from({ length: 480 }, (_, i) => (i % 40 < 20 ? 0.6 : 0)),
      ),
    );
    await vi.waitFor(() => expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument());
    await nextTask();
    expect(fakeWaveSurfers).toHaveLength(1);
    expect(within(panel).getByText(fromLog)).toBeVisible();
    expect(within(panel).queryByText(byEar)).not.toBeInTheDocument();

    paintFrame();

    await vi.waitFor(() => expect(within(panel).queryByText(fromLog)).not.toBeInTheDocument());
    expect(within(panel).getByText(byEar)).toBeVisible();
  });
});
