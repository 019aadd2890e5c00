/**
 * Role regions as the waveform draws them (region-spans.ts): runs of one speaker as one span, spans
 * narrower than a few pixels joined to their neighbours, only the stretch near the view, and the
 * entry under the mouse found by time.
 */
import { describe, expect, it } from 'vitest';
import type { RoleRegion, SpeakerKind } from '../../../../renderer/src/lib/interaction/analysis/types';
import { regionAt, roleSpans } from '../../../../renderer/src/lib/interaction/waveform/region-spans';

/** Regions back to back from 0 s, one per [kind, length in seconds]. */
function regions(...parts: Array<[SpeakerKind, number]>): RoleRegion[] {
  let start = 0;
  return parts.map(([kind, length], index) => {
    const region = {
      entryIndex: index,
      kind,
      roleLabel: kind,
      text: `line ${index}`,
      startSeconds: start,
      endSeconds: start + length,
    };
    start += length;
    return region;
  });
}

describe('role spans', () => {
  it('draws alternating speakers one span each, and a run of one speaker as one span', () => {
    const log = regions(['agent', 4], ['agent', 3], ['user', 5], ['event', 1], ['agent', 2]);
    expect(roleSpans(log, { startSeconds: 0, endSeconds: 100, minSeconds: 0.1 })).toEqual([
      { kind: 'agent', startSeconds: 0, endSeconds: 7 },
      { kind: 'user', startSeconds: 7, endSeconds: 12 },
      { kind: 'event', startSeconds: 12, endSeconds: 13 },
      { kind: 'agent', startSeconds: 13, endSeconds: 15 },
    ]);
  });

  it('joins spans narrower than the minimum, coloured by the speaker with the most time in them', () => {
    // 0.5 s turns, 2 s minimum: each span takes four turns; the agent talks 0.4 s more each time.
    const log = regions(
      ...Array.from({ length: 40 }, (_, i): [SpeakerKind, number] => [i % 2 ? 'user' : 'agent', i % 2 ? 0.3 : 0.7]),
    );
    const spans = roleSpans(log, { startSeconds: 0, endSeconds: 100, minSeconds: 2 });
    // Neighbouring spans of one kind merge, so 20 s of agent-heavy turns is one span.
    expect(spans).toEqual([{ kind: 'agent', startSeconds: 0, endSeconds: 20 }]);
  });

  it('keeps the count near the view width in pixels on a 5,000-entry, 40-minute call', () => {
    const log = regions(
      ...Array.from({ length: 5000 }, (_, i): [SpeakerKind, number] => [
        i % 3 === 0 ? 'user' : i % 3 === 1 ? 'agent' : 'event',
        0.48,
      ]),
    );
    // 2,400 s over 900 px, spans of at least 3 px.
    const spans = roleSpans(log, { startSeconds: 0, endSeconds: 2400, minSeconds: (3 * 2400) / 900 });
    expect(spans.length).toBeLessThanOrEqual(300);
    expect(spans[0]!.startSeconds).toBe(0);
    expect(spans.at(-1)!.endSeconds).toBeCloseTo(2400, 6);
    // No gaps: each span starts where the one before it ends.
    for (let i = 1; i < spans.length; i += 1) expect(spans[i]!.startSeconds).toBe(spans[i - 1]!.endSeconds);
  });

  it('draws only the regions that overlap the window', () => {
    const log = regions(['agent', 10], ['user', 10], ['agent', 10], ['user', 10]);
    expect(roleSpans(log, { startSeconds: 15, endSeconds: 25, minSeconds: 0.1 })).toEqual([
      { kind: 'user', startSeconds: 10, endSeconds: 20 },
      { kind: 'agent', startSeconds: 20, endSeconds: 30 },
    ]);
    expect(roleSpans([], { startSeconds: 0, endSeconds: 10, minSeconds: 1 })).toEqual([]);
  });
});

describe('the region under the mouse', () => {
  const log = regions(['agent', 2], ['user', 3]);

  it('is the one whose time holds the position, its start included and its end not', () => {
    expect(regionAt(log, 0)?.entryIndex).toBe(0);
    expect(regionAt(log, 1.99)?.entryIndex).toBe(0);
    expect(regionAt(log, 2)?.entryIndex).toBe(1);
  });

  it('is none before, after or between regions', () => {
    expect(regionAt(log, -1)).toBeNull();
    expect(regionAt(log, 5)).toBeNull();
    const gap = [log[0]!, { ...log[1]!, startSeconds: 3 }];
    expect(regionAt(gap, 2.5)).toBeNull();
  });
});
