/**
 * Pure parts of the waveform's marks and controls: tick merging, hover words, zoom levels, lane
 * words from the inferred lane roles, and the gains of muted and soloed lanes through the Web
 * Audio graph (with an AudioContext stand-in that records the nodes it makes).
 */
import { describe, expect, it, vi } from 'vitest';
import type { LaneRoles } from '../../../../renderer/src/lib/interaction/analysis/types';
import {
  FULL_MIX,
  LaneAudio,
  laneGains,
  toggleMute,
  toggleSolo,
  type LaneAudioContext,
} from '../../../../renderer/src/lib/interaction/waveform/lane-audio';
import { laneText } from '../../../../renderer/src/lib/interaction/waveform/lanes';
import { mergeTicks, regionHoverText, shorten } from '../../../../renderer/src/lib/interaction/waveform/marks';
import {
  maxZoomLevel,
  pxPerSecAt,
  stepZoom,
  MAX_PX_PER_SEC,
} from '../../../../renderer/src/lib/interaction/waveform/zoom';

describe('search-match ticks', () => {
  it('keeps ticks a pixel or more apart and merges closer ones into the first', () => {
    // 100 s over 1000 px: 0.1 s per pixel.
    expect(mergeTicks([10, 10.05, 10.2, 50], 100, 1000)).toEqual([0.1, 0.102, 0.5]);
  });

  it('sorts, and drops times outside the recording and non-numbers', () => {
    expect(mergeTicks([80, -1, Number.NaN, 20, 101], 100, 1000)).toEqual([0.2, 0.8]);
  });

  it('draws nothing without a length, a width or matches', () => {
    expect(mergeTicks([1], 0, 1000)).toEqual([]);
    expect(mergeTicks([1], 100, 0)).toEqual([]);
    expect(mergeTicks([], 100, 1000)).toEqual([]);
  });

  it('draws at most one tick per pixel and never more than the cap for thousands of matches', () => {
    const times = Array.from({ length: 20_000 }, (_, i) => i * 0.12);
    const onePerPixel = mergeTicks(times, 2400, 800);
    expect(onePerPixel.length).toBeLessThanOrEqual(800);
    expect(onePerPixel.length).toBeGreaterThan(700);
    for (let i = 1; i < onePerPixel.length; i += 1) {
      expect((onePerPixel[i]! - onePerPixel[i - 1]!) * 800).toBeGreaterThanOrEqual(1 - 1e-9);
    }
    // Zoomed far in, the cap holds.
    expect(mergeTicks(times, 2400, 720_000, 2000).length).toBeLessThanOrEqual(2000);
  });

  it('merges 5,000 matches in any order into ticks in time order, one per pixel at most', () => {
    const times = Array.from({ length: 5000 }, (_, i) => ((i * 7919) % 5000) * 0.48);
    const ticks = mergeTicks(times, 2400, 900);
    expect(ticks.length).toBeLessThanOrEqual(900);
    expect(ticks.length).toBeGreaterThan(800);
    for (let i = 1; i < ticks.length; i += 1) expect(ticks[i]!).toBeGreaterThan(ticks[i - 1]!);
  });
});

describe('hover words of a role region', () => {
  it('names the role and shows the line, shortened at a word', () => {
    expect(regionHoverText({ roleLabel: 'Agent', text: '  I can  help\nwith that. ' })).toBe(
      'Agent: I can help with that.',
    );
    const long = regionHoverText({ roleLabel: 'User', text: 'word '.repeat(60) });
    expect(long.length).toBeLessThanOrEqual('User: '.length + 140);
    expect(long.endsWith('word…')).toBe(true);
    expect(regionHoverText({ roleLabel: 'Tool', text: '' })).toBe('Tool');
    expect(shorten('abcdefghij', 5)).toBe('abcd…');
  });
});

describe('zoom levels', () => {
  it('doubles the detail per level from the fitted width up to the most detail', () => {
    const fit = 800 / 100; // 100 s in 800 px
    expect(pxPerSecAt(0, fit)).toBe(0);
    expect(pxPerSecAt(1, fit)).toBe(16);
    expect(pxPerSecAt(3, fit)).toBe(64);
    expect(maxZoomLevel(fit)).toBe(6); // 8 * 2^6 = 512, capped
    expect(pxPerSecAt(6, fit)).toBe(MAX_PX_PER_SEC);
    expect(stepZoom(6, 1, fit)).toBe(6);
    expect(stepZoom(0, -1, fit)).toBe(0);
  });

  it('offers no zoom when the recording is already as detailed as the most detail', () => {
    expect(maxZoomLevel(400)).toBe(0);
    expect(maxZoomLevel(0)).toBe(0);
  });
});

describe('lane words', () => {
  const inferred: LaneRoles = {
    kind: 'inferred',
    agentChannel: 1,
    labels: ['Caller (left)', 'Agent (right)'],
    confidenceText: 'inferred from the transcript (agent louder on the right in 9 of 10 turns)',
    confidence: 0.9,
  };

  it('names the lanes by party when inferred, and says how sure', () => {
    const text = laneText(inferred);
    expect(text.labels).toEqual(['Caller (left)', 'Agent (right)']);
    expect(text.note).toBe(inferred.confidenceText);
    expect(text.legend).toBe(
      'Lanes: Caller (left), Agent (right). Inferred from the transcript (agent louder on the right in 9 of 10 turns)',
    );
    expect(text.sentence).toBe(
      'Stereo recording: the waveform shows Caller (left) and Agent (right) in two lanes, inferred from the transcript (agent louder on the right in 9 of 10 turns).',
    );
  });

  it('keeps the channel names when unknown, with the reason as the tooltip', () => {
    const text = laneText({
      kind: 'unknown',
      labels: ['Channel 1 (left)', 'Channel 2 (right)'],
      reason: 'Too few turns.',
    });
    expect(text.labels).toEqual(['Channel 1 (left)', 'Channel 2 (right)']);
    expect(text.note).toBe('Too few turns.');
    expect(text.legend).toBeNull();
    expect(text.sentence).toBe(
      'Stereo recording: the waveform shows Channel 1 (left) and Channel 2 (right) in two lanes.',
    );
  });

  it('falls back to the channel names for mono labels or none at all', () => {
    expect(laneText({ kind: 'unknown', labels: [], reason: 'Mono recording.' }).labels).toEqual([
      'Channel 1 (left)',
      'Channel 2 (right)',
    ]);
    expect(laneText(null)).toMatchObject({
      labels: ['Channel 1 (left)', 'Channel 2 (right)'],
      note: null,
      legend: null,
    });
  });
});

/** An AudioContext stand-in: records the nodes it makes and how they are connected. */
function fakeContext() {
  const connections: Array<[string, string, number?, number?]> = [];
  const gainNodes: Array<{ gain: { value: number } }> = [];
  const node = (name: string) => ({
    name,
    gain: { value: 1 },
    connect(target: { name: string }, output?: number, input?: number) {
      connections.push([name, target.name, output, input]);
    },
  });
  let gains = 0;
  const context = {
    state: 'suspended',
    destination: node('destination'),
    createMediaElementSource: vi.fn(() => node('source')),
    createChannelSplitter: vi.fn(() => node('splitter')),
    createChannelMerger: vi.fn(() => node('merger')),
    createGain: vi.fn(() => {
      const gain = node(`gain${gains++}`);
      gainNodes.push(gain);
      return gain;
    }),
    resume: vi.fn(() => Promise.resolve()),
    close: vi.fn(() => Promise.resolve()),
  };
  return { context, connections, gainNodes };
}

describe('muting and soloing lanes', () => {
  it('silences a muted lane, and the other lane while one is soloed', () => {
    expect(laneGains(FULL_MIX)).toEqual([1, 1]);
    expect(laneGains(toggleMute(FULL_MIX, 0))).toEqual([0, 1]);
    expect(laneGains(toggleSolo(FULL_MIX, 0))).toEqual([1, 0]);
    expect(laneGains(toggleSolo(FULL_MIX, 1))).toEqual([0, 1]);
    // A soloed lane that is also muted stays silent; solo again ends the solo.
    expect(laneGains(toggleSolo(toggleMute(FULL_MIX, 1), 1))).toEqual([0, 0]);
    expect(toggleSolo(toggleSolo(FULL_MIX, 1), 1).solo).toBeNull();
    expect(toggleMute(toggleMute(FULL_MIX, 1), 1).muted).toEqual([false, false]);
  });

  it('makes no AudioContext until a lane is silenced, then routes each channel through its own gain', () => {
    const { context, connections, gainNodes } = fakeContext();
    const create = vi.fn(() => context as unknown as LaneAudioContext);
    const lanes = new LaneAudio(document.createElement('audio'), create);

    lanes.apply(FULL_MIX);
    expect(create).not.toHaveBeenCalled();
    expect(lanes.active).toBe(false);

    lanes.apply(toggleMute(FULL_MIX, 0));
    expect(create).toHaveBeenCalledTimes(1);
    expect(context.resume).toHaveBeenCalled();
    expect(connections).toEqual([
      ['source', 'splitter', undefined, undefined],
      ['splitter', 'gain0', 0, undefined],
      ['gain0', 'merger', 0, 0],
      ['splitter', 'gain1', 1, undefined],
      ['gain1', 'merger', 0, 1],
      ['merger', 'destination', undefined, undefined],
    ]);
    const [left, right] = gainNodes;
    expect([left?.gain.value, right?.gain.value]).toEqual([0, 1]);

    // Solo the left lane: the graph is reused, the right goes silent.
    lanes.apply(toggleSolo(FULL_MIX, 0));
    expect(create).toHaveBeenCalledTimes(1);
    expect([left?.gain.value, right?.gain.value]).toEqual([1, 0]);

    // Back to both: the graph stays (the media element only sounds through it now).
    lanes.apply(FULL_MIX);
    expect([left?.gain.value, right?.gain.value]).toEqual([1, 1]);
    expect(context.createMediaElementSource).toHaveBeenCalledTimes(1);

    lanes.close();
    expect(context.close).toHaveBeenCalled();
    expect(lanes.active).toBe(false);
  });
});
