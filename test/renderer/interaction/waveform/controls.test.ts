/**
 * The waveform player's new controls and marks, fed by props as the Calls view feeds it:
 * ±10 s buttons, speed steps, zoom buttons, role regions, flags and search ticks redrawn without
 * re-creating wavesurfer, lane labels from the inferred lane roles, and mute/solo through a Web
 * Audio graph made only on first use. wavesurfer.js is the recording fake of fake-wavesurfer.ts.
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordingPeaks } from '$shared/contract';
import type { FlaggedMoment, LaneRoles, RoleRegion } from '../../../../renderer/src/lib/interaction/analysis/types';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { flagMarks, searchMarks } from '../../../../renderer/src/lib/interaction/waveform/track-marks';
import { fakeWaveSurfers } from '../../fake-wavesurfer';
import { advanceTo, installFakeAudioContext, installFakeMedia, loadMetadata, mediaElement } from '../../fake-media';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

const SRC = 'vr-recording://ws-demo/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

let media: ReturnType<typeof installFakeMedia>;
beforeEach(() => {
  fakeWaveSurfers.length = 0;
  media = installFakeMedia();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function peaks(channels: 1 | 2): RecordingPeaks {
  const channel = { min: [-0.5, -0.1, 0, -0.9], max: [0.25, 0.2, 0, 0.3] };
  return {
    durationSeconds: 100,
    sampleRate: 8000,
    length: 4,
    channels: channels === 2 ? [channel, channel] : [channel],
    fromCache: true,
  };
}

const REGIONS: RoleRegion[] = [
  { entryIndex: 0, kind: 'agent', roleLabel: 'Agent', text: 'Hello, how can I help?', startSeconds: 0, endSeconds: 4 },
  { entryIndex: 1, kind: 'user', roleLabel: 'User', text: 'My order is late.', startSeconds: 4, endSeconds: 9 },
  { entryIndex: 2, kind: 'event', roleLabel: 'Tool', text: 'lookup(order)', startSeconds: 9, endSeconds: 10 },
];
const FLAG: FlaggedMoment = {
  kind: 'slow_turn',
  entryIndex: 3,
  label: 'Slow reply: 3.2 s',
  startSeconds: 12,
  endSeconds: 15.2,
};
const INFERRED: LaneRoles = {
  kind: 'inferred',
  agentChannel: 1,
  labels: ['Caller (left)', 'Agent (right)'],
  confidenceText: 'inferred from the transcript (agent louder on the right in 9 of 10 turns)',
  confidence: 0.9,
};

/** The player's methods the Calls view calls. */
interface PlayerMethods {
  stepSpeed(direction: 1 | -1): void;
  skipBy(deltaSeconds: number): void;
  togglePlay(): void;
  zoomBy(step: 1 | -1): void;
  currentTime(): number;
}

/** Renders the player with peaks drawn and the recording's metadata in. */
async function drawn(props: Record<string, unknown> = {}) {
  const result = render(WaveformPlayer, { props: { src: SRC, peaks: peaks(1), ...props } });
  loadMetadata(mediaElement(), 100);
  await vi.waitFor(() => expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument());
  const ws = fakeWaveSurfers[0];
  if (!ws) throw new Error('No wavesurfer created');
  return { ...result, ws, player: result.component as unknown as PlayerMethods };
}

describe('WaveformPlayer: moving and speed', () => {
  it('moves 10 s back and forward with the buttons, keeping playback paused', async () => {
    const user = userEvent.setup();
    await drawn();
    advanceTo(mediaElement(), 30);

    await user.click(screen.getByRole('button', { name: 'Forward 10 s' }));
    expect(mediaElement().currentTime).toBe(40);
    await user.click(screen.getByRole('button', { name: 'Back 10 s' }));
    await user.click(screen.getByRole('button', { name: 'Back 10 s' }));
    expect(mediaElement().currentTime).toBe(20);
    expect(media.play).not.toHaveBeenCalled();

    advanceTo(mediaElement(), 95);
    await user.click(screen.getByRole('button', { name: 'Forward 10 s' }));
    expect(mediaElement().currentTime).toBe(100);
  });

  it('steps the speed through the list and stays at its ends; exposes the time and play/pause', async () => {
    const { player } = await drawn();
    const speed = screen.getByRole('combobox', { name: 'Speed' });

    player.stepSpeed(1);
    expect(mediaElement().playbackRate).toBe(1.25);
    player.stepSpeed(-1);
    player.stepSpeed(-1);
    player.stepSpeed(-1);
    player.stepSpeed(-1);
    expect(mediaElement().playbackRate).toBe(0.5);
    await vi.waitFor(() => expect(speed).toHaveValue('0.5'));
    for (let i = 0; i < 8; i += 1) player.stepSpeed(1);
    expect(mediaElement().playbackRate).toBe(2);

    player.skipBy(-5);
    expect(player.currentTime()).toBe(0);
    player.togglePlay();
    expect(media.play).toHaveBeenCalledTimes(1);
    player.togglePlay();
    expect(media.pause).toHaveBeenCalledTimes(1);
  });
});

describe('WaveformPlayer: zoom', () => {
  it('zooms in and out by level with the buttons and the method, the view following playback', async () => {
    const user = userEvent.setup();
    const { player, ws } = await drawn();
    expect(ws.options).toMatchObject({ autoScroll: true, autoCenter: true });
    const zoomOut = screen.getByRole('button', { name: 'Zoom out' });
    expect(zoomOut).toBeDisabled();

    // 100 s in 800 px fits at 8 px/s; each level doubles it.
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(ws.zoom).toHaveBeenLastCalledWith(16);
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(ws.zoom).toHaveBeenLastCalledWith(32);
    expect(screen.getByText('4×')).toBeInTheDocument();
    player.zoomBy(-1);
    expect(ws.zoom).toHaveBeenLastCalledWith(16);
    await user.click(zoomOut);
    expect(ws.zoom).toHaveBeenLastCalledWith(0);
    await vi.waitFor(() => expect(zoomOut).toBeDisabled());
  });

  it('zooms with Ctrl + wheel over the waveform, and not with the wheel alone', async () => {
    const { ws } = await drawn();
    const wave = screen.getByRole('slider', { name: /Playback position/ });
    wave.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, cancelable: true }));
    expect(ws.zoom).not.toHaveBeenCalled();
    const zoomIn = new WheelEvent('wheel', { deltaY: -100, ctrlKey: true, cancelable: true });
    wave.dispatchEvent(zoomIn);
    expect(zoomIn.defaultPrevented).toBe(true);
    expect(ws.zoom).toHaveBeenLastCalledWith(16);
  });
});

describe('WaveformPlayer: marks', () => {
  it('draws role regions, flags and ticks, and redraws them on new props without a new wavesurfer', async () => {
    const { ws, rerender } = await drawn({
      regions: REGIONS,
      flags: [FLAG],
      matchTimes: [1, 1.01, 50],
      marks: [...flagMarks([FLAG]), ...searchMarks([1, 1.01, 50])],
    });
    const live = () => ws.liveRegions();

    await vi.waitFor(() => expect(live()).toHaveLength(4));
    expect(live().map((r) => r.element.dataset.roleKind ?? r.element.dataset.flagKind)).toEqual([
      'agent',
      'user',
      'event',
      'slow_turn',
    ]);
    expect(live()[0]?.params).toMatchObject({ start: 0, end: 4, drag: false, resize: false });
    const flag = live()[3]!.element;
    expect(flag.title).toBe('Slow reply: 3.2 s');
    expect(flag).toHaveAttribute('aria-label', 'Slow reply: 3.2 s');
    // 1 s and 1.01 s are less than a pixel apart on 800 px for 100 s: one tick.
    const tickLayer = ws.wrapper.querySelector<HTMLElement>('[part="match-ticks"]');
    expect(tickLayer?.dataset.ticks).toBe('2');
    for (const name of ['Agent', 'Caller', 'Event', 'Flagged moment', 'Search match']) {
      expect(screen.getByRole('list', { name: 'Waveform legend' })).toHaveTextContent(name);
    }

    await rerender({ matchTimes: [5, 60, 70] });
    await vi.waitFor(() => expect(tickLayer?.dataset.ticks).toBe('3'));
    await rerender({ regions: REGIONS.slice(0, 1), flags: [] });
    await vi.waitFor(() => expect(live()).toHaveLength(1));
    expect(fakeWaveSurfers).toHaveLength(1);
  });

  it('keeps the spans that did not change when the regions are drawn again, so they never blink out', async () => {
    const { ws, rerender } = await drawn({ regions: REGIONS });
    await vi.waitFor(() => expect(ws.liveRegions()).toHaveLength(3));
    const [agent, user] = ws.liveRegions();

    const longerEvent = { ...REGIONS[2]!, endSeconds: 12 };
    await rerender({ regions: [REGIONS[0]!, REGIONS[1]!, longerEvent] });
    await vi.waitFor(() => expect(ws.liveRegions()[2]?.params.end).toBe(12));
    expect(ws.liveRegions()).toHaveLength(3);
    expect(ws.liveRegions().slice(0, 2)).toEqual([agent, user]);
    expect(agent?.removed).toBe(false);
    expect(ws.regions).toHaveLength(4);
  });

  it('keeps the flags that did not change when the flags are drawn again', async () => {
    const { ws, rerender } = await drawn({ flags: [FLAG] });
    await vi.waitFor(() => expect(ws.liveRegions()).toHaveLength(1));
    const [slow] = ws.liveRegions();

    const silence: FlaggedMoment = {
      kind: 'silence',
      entryIndex: 5,
      label: 'Silence: 6.0 s',
      startSeconds: 40,
      endSeconds: 46,
    };
    await rerender({ flags: [{ ...FLAG }, silence] });
    await vi.waitFor(() => expect(ws.liveRegions()).toHaveLength(2));
    expect(ws.liveRegions()[0]).toBe(slow);
    expect(slow?.removed).toBe(false);
    expect(ws.liveRegions()[1]?.element.title).toBe('Silence: 6.0 s');
    expect(ws.regions).toHaveLength(2);
  });

  it('shows the regions layer again once the plugin has attached the regions added', async () => {
    const { ws, rerender } = await drawn({ regions: REGIONS });
    const layer = ws.wrapper.querySelector<HTMLElement>('[part="regions-container"]')!;
    await vi.waitFor(() => expect(ws.liveRegions()).toHaveLength(3));
    await vi.waitFor(() => expect(layer.style.contentVisibility).toBe(''));

    // New spans: the layer's content is left out of layout while the plugin attaches them (one
    // task per region, each reading the layout), then laid out and shown.
    vi.useFakeTimers();
    try {
      await rerender({ regions: [...REGIONS, { ...REGIONS[1]!, entryIndex: 3, startSeconds: 10, endSeconds: 20 }] });
      expect(ws.liveRegions()).toHaveLength(4);
      expect(layer.style.contentVisibility).toBe('hidden');
      vi.runOnlyPendingTimers();
      expect(layer.style.contentVisibility).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  it('names the role and the line on hover, and seeks to a flag when it is clicked', async () => {
    const { ws } = await drawn({ regions: REGIONS, flags: [FLAG] });
    await vi.waitFor(() => expect(ws.liveRegions()).toHaveLength(4));

    // 100 s over 800 px: x = 50 is 6.25 s, inside the caller's entry.
    ws.wrapper.dispatchEvent(new MouseEvent('pointermove', { clientX: 50 }));
    expect(await screen.findByText('User: My order is late.')).toBeInTheDocument();
    ws.wrapper.dispatchEvent(new MouseEvent('pointerleave'));
    await vi.waitFor(() => expect(screen.queryByText('User: My order is late.')).not.toBeInTheDocument());

    const click = new MouseEvent('click', { bubbles: true });
    const stop = vi.spyOn(click, 'stopPropagation');
    ws.liveRegions()[3]?.emit('click', click);
    expect(stop).toHaveBeenCalled();
    expect(mediaElement().currentTime).toBe(12);
    expect(media.play).toHaveBeenCalled();
  });
});

describe('WaveformPlayer: lanes', () => {
  it('labels stereo lanes by party when inferred, colours them by speaker and says how sure', async () => {
    const { ws } = await drawn({ peaks: peaks(2), laneRoles: INFERRED });
    expect(screen.getByText('Caller (left)')).toBeInTheDocument();
    expect(screen.getByText('Agent (right)')).toBeInTheDocument();
    expect(
      screen.getByText(
        /Stereo recording: the waveform shows Caller \(left\) and Agent \(right\) in two lanes, inferred/,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/^Lanes: Caller \(left\), Agent \(right\)\. Inferred from the transcript/),
    ).toBeInTheDocument();
    // The agent's lane (right) in the agent's indigo, the caller's in teal.
    expect(ws.options.splitChannels).toEqual([
      { waveColor: '#99d5cf', progressColor: '#0f766e' },
      { waveColor: '#a5b4fc', progressColor: '#4f46e5' },
    ]);
  });

  it('keeps channel names when the lanes are unknown, and draws no lane controls for mono', async () => {
    await drawn({
      peaks: peaks(2),
      laneRoles: { kind: 'unknown', labels: ['Channel 1 (left)', 'Channel 2 (right)'], reason: 'Too few turns.' },
    });
    expect(screen.getByRole('button', { name: 'Mute Channel 1 (left)' })).toBeInTheDocument();
    expect(screen.getByText('Channel 1 (left)').closest('[title]')).toHaveAttribute('title', 'Too few turns.');
    expect(screen.queryByText(/^Lanes:/)).not.toBeInTheDocument();
  });

  it('shows no letter on the lanes’ toggles, so none reads as a shortcut key (M is a note, S skips silences)', async () => {
    await drawn({ peaks: peaks(2), laneRoles: INFERRED });
    const toggles = screen.getAllByRole('button', { name: /^(Mute|Solo) / });
    expect(toggles).toHaveLength(4);
    for (const toggle of toggles) expect(toggle.textContent.trim()).toBe('');
    expect(screen.getByRole('button', { name: 'Skip silences' })).toHaveAttribute('aria-keyshortcuts', 'S');
    expect(screen.getByRole('button', { name: 'Level lanes' })).toHaveAttribute('aria-keyshortcuts', 'V');
  });

  it('mutes and solos lanes through a Web Audio graph made on the first use only', async () => {
    const user = userEvent.setup();
    const { gains, contexts } = installFakeAudioContext();
    const { unmount } = await drawn({ peaks: peaks(2), laneRoles: INFERRED });
    expect(contexts).toHaveLength(0);

    const muteCaller = screen.getByRole('button', { name: 'Mute Caller (left)' });
    await user.click(muteCaller);
    expect(contexts).toHaveLength(1);
    expect(muteCaller).toHaveAttribute('aria-pressed', 'true');
    expect(gains.map((g) => g.gain.value)).toEqual([0, 1]);

    await user.click(muteCaller);
    await user.click(screen.getByRole('button', { name: 'Solo Caller (left)' }));
    expect(gains.map((g) => g.gain.value)).toEqual([1, 0]);
    await user.click(screen.getByRole('button', { name: 'Solo Agent (right)' }));
    expect(gains.map((g) => g.gain.value)).toEqual([0, 1]);
    expect(contexts).toHaveLength(1);

    unmount();
    expect(contexts[0]?.close).toHaveBeenCalled();
  });
});
