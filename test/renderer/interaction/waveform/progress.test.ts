/**
 * The waveform fills in while main computes the peaks: the peaks decoded so far are drawn over a
 * waveform as long as the recording (silence after the covered part, the seek bar on the full
 * length), newer ones redraw the same wavesurfer, and the final peaks replace them. wavesurfer.js
 * is the recording fake of fake-wavesurfer.ts with `setOptions` added (the way the player
 * redraws).
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PeaksProgress, RecordingPeaks } from '$shared/contract';
import WaveformPlayer from '../../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { stretchedPeaks } from '../../../../renderer/src/lib/interaction/waveform/peaks';
import { FakeWaveSurfer, type FakeWaveSurferOptions } from '../../fake-wavesurfer';
import { installFakeMedia, loadMetadata, mediaElement } from '../../fake-media';

/** A fake that also records each redraw: new options, then a render of the data they make. */
class RedrawingWaveSurfer extends FakeWaveSurfer {
  readonly redraws: FakeWaveSurferOptions[] = [];
  /** Peaks of each render after creation. */
  readonly rendered: FakeWaveSurferOptions['peaks'][] = [];
  private decoded: FakeWaveSurferOptions['peaks'] = this.options.peaks;
  setOptions(options: FakeWaveSurferOptions) {
    this.redraws.push(options);
    this.decoded = options.peaks;
  }
  getDecodedData() {
    return this.decoded;
  }
  getRenderer() {
    return {
      render: (data: FakeWaveSurferOptions['peaks']) => {
        this.rendered.push(data);
        return Promise.resolve();
      },
    };
  }
}

const created: RedrawingWaveSurfer[] = [];

vi.mock('wavesurfer.js', () => ({
  default: {
    create: (options: FakeWaveSurferOptions) => {
      const ws = new RedrawingWaveSurfer(options);
      created.push(ws);
      return ws;
    },
  },
}));

beforeEach(() => {
  created.length = 0;
  installFakeMedia();
});

const SRC = 'vr-recording://ws-demo/interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

/** Mono peaks of `seconds`, `length` slices all at `level`. */
function monoPeaks(seconds: number, length: number, level: number): RecordingPeaks {
  return {
    durationSeconds: seconds,
    sampleRate: 8000,
    length,
    channels: [{ min: new Array<number>(length).fill(-level), max: new Array<number>(length).fill(level) }],
    fromCache: false,
  };
}

function soFar(seconds: number, length: number): PeaksProgress {
  return { peaks: monoPeaks(seconds, length, 0.5), coveredSeconds: seconds, complete: false };
}

describe('stretchedPeaks', () => {
  it('puts the covered part where it belongs on the full length, silence after it', () => {
    const stretched = stretchedPeaks(soFar(25, 10), 100);
    expect(stretched?.durationSeconds).toBe(100);
    expect(stretched?.length).toBe(40);
    expect(stretched?.channels[0]?.max.slice(0, 10)).toEqual(new Array<number>(10).fill(0.5));
    expect(stretched?.channels[0]?.max.slice(10)).toEqual(new Array<number>(30).fill(0));
  });

  it('merges the covered part down early in a long call, keeping its loudest moments, instead of stretching to 100,000 peaks', () => {
    // 60 s of a 40-minute call, reported with 8,000 peaks (main's least count): a spike at 30 s.
    const progress = soFar(60, 8_000);
    progress.peaks.channels[0]!.max[4_000] = 0.9;
    progress.peaks.channels[0]!.min[4_000] = -0.8;
    const stretched = stretchedPeaks(progress, 2_400);
    expect(stretched?.durationSeconds).toBe(2_400);
    expect(stretched?.length).toBe(8_000);
    const max = stretched?.channels[0]?.max ?? [];
    const min = stretched?.channels[0]?.min ?? [];
    // The covered 60 s take their share of the length (200 peaks), silence after them.
    expect(max.slice(0, 200).every((v) => v >= 0.5)).toBe(true);
    expect(max.slice(200).every((v) => v === 0)).toBe(true);
    // The spike is still there, at 30 s.
    expect(max[100]).toBe(0.9);
    expect(min[100]).toBe(-0.8);
    expect(Math.max(...max)).toBe(0.9);
  });

  it('draws the first seconds of a long call at once (a sliver at the start of the full length)', () => {
    const stretched = stretchedPeaks(soFar(2, 800), 2_400);
    const max = stretched?.channels[0]?.max ?? [];
    const drawn = max.filter((v) => v > 0).length;
    expect(max.slice(0, drawn)).toEqual(new Array<number>(drawn).fill(0.5));
    // About 2 s of 2,400 s of the width, within a peak, over a few thousand peaks (not 960,000).
    expect(drawn).toBeGreaterThan(0);
    expect(Math.abs(drawn / max.length - 2 / 2_400)).toBeLessThan(1 / max.length);
    expect(max.length).toBeLessThan(10_000);
  });

  it('keeps every peak of a short call (no merging under 8,000 over the whole length)', () => {
    const stretched = stretchedPeaks(soFar(30, 3_000), 60);
    expect(stretched?.length).toBe(6_000);
    expect(stretched?.channels[0]?.max.slice(0, 3_000)).toEqual(new Array<number>(3_000).fill(0.5));
  });

  it('draws the partial peaks as they are when the full length is unknown; nothing when nothing is covered', () => {
    expect(stretchedPeaks(soFar(25, 10), 0)?.durationSeconds).toBe(25);
    expect(stretchedPeaks({ ...soFar(0, 0), coveredSeconds: 0 }, 100)).toBeNull();
  });
});

describe('WaveformPlayer: peaks arriving progressively', () => {
  it('draws the peaks so far over the whole length, redraws newer ones, then the final peaks', async () => {
    const { rerender } = render(WaveformPlayer, { props: { src: SRC, peaks: null, peaksProgress: null } });
    loadMetadata(mediaElement(), 100);
    expect(screen.getByText('Drawing waveform…')).toBeInTheDocument();

    await rerender({ peaksProgress: soFar(25, 10) });
    await vi.waitFor(() => expect(created).toHaveLength(1));
    const ws = created[0]!;
    expect(ws.options.duration).toBe(100);
    expect(ws.options.peaks?.[0]?.length).toBe(40);
    expect(Array.from(ws.options.peaks?.[0] ?? []).slice(8, 12)).toEqual([0.5, 0.5, 0, 0]);
    await vi.waitFor(() => expect(screen.queryByText('Drawing waveform…')).not.toBeInTheDocument());
    expect(screen.getByRole('slider', { name: /Playback position/ })).toHaveAttribute('aria-valuetext', '0:00 of 1:40');
    // Still filling in: the waveform says so to assistive technology.
    expect(screen.getByRole('slider', { name: /Playback position/ })).toHaveAttribute('aria-busy', 'true');

    await rerender({ peaksProgress: soFar(50, 20) });
    await vi.waitFor(() => expect(ws.redraws).toHaveLength(1));
    expect(ws.rendered).toEqual([ws.redraws[0]?.peaks]);
    expect(Array.from(ws.redraws[0]?.peaks?.[0] ?? []).slice(18, 22)).toEqual([0.5, 0.5, 0, 0]);

    await rerender({ peaks: monoPeaks(99.5, 40, 0.25), peaksProgress: null });
    await vi.waitFor(() => expect(ws.redraws).toHaveLength(2));
    expect(ws.redraws[1]?.duration).toBe(99.5);
    expect(ws.rendered).toHaveLength(2);
    expect(Array.from(ws.redraws[1]?.peaks?.[0] ?? [])).toEqual(new Array<number>(40).fill(0.25));
    expect(screen.getByRole('slider', { name: /Playback position/ })).toHaveAttribute('aria-busy', 'false');
    // One wavesurfer throughout: the waveform is never torn down and drawn again.
    expect(created).toHaveLength(1);
    expect(ws.destroyed).toBe(false);
  });

  it('draws no partial peaks once the peaks failed', async () => {
    render(WaveformPlayer, {
      props: {
        src: SRC,
        peaks: null,
        peaksProgress: soFar(25, 10),
        peaksProblem: { kind: 'undecodable', message: 'The audio could not be decoded.' },
      },
    });
    loadMetadata(mediaElement(), 100);
    await Promise.resolve();
    expect(created).toHaveLength(0);
  });
});
