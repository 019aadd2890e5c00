import { describe, expect, it } from 'vitest';
import { buildRoleRegions, speakerKind } from '../../../../renderer/src/lib/interaction/analysis/regions';
import { transcript } from './fixtures';

describe('speakerKind', () => {
  it('reads agent and caller roles in any case, everything else as an event', () => {
    expect(['agent', 'assistant', 'Agent', ' ASSISTANT '].map(speakerKind)).toEqual([
      'agent',
      'agent',
      'agent',
      'agent',
    ]);
    expect(['user', 'customer', 'caller', 'User'].map(speakerKind)).toEqual(['user', 'user', 'user', 'user']);
    expect(['tool', 'system', 'function', '', 'bot'].map(speakerKind)).toEqual([
      'event',
      'event',
      'event',
      'event',
      'event',
    ]);
  });
});

describe('buildRoleRegions', () => {
  it('runs each timed entry to the next timed one and the last to the end of the recording', () => {
    const log = transcript([
      ['agent', 0.5, 'Hello'],
      ['user', 2, 'Hi'],
      ['tool_call', 3.25, 'lookup()'],
      ['agent', 4, 'Found it'],
    ]);
    expect(buildRoleRegions(log, 10)).toEqual([
      { entryIndex: 0, kind: 'agent', roleLabel: 'Agent', text: 'Hello', startSeconds: 0.5, endSeconds: 2 },
      { entryIndex: 1, kind: 'user', roleLabel: 'Caller', text: 'Hi', startSeconds: 2, endSeconds: 3.25 },
      { entryIndex: 2, kind: 'event', roleLabel: 'Tool call', text: 'lookup()', startSeconds: 3.25, endSeconds: 4 },
      { entryIndex: 3, kind: 'agent', roleLabel: 'Agent', text: 'Found it', startSeconds: 4, endSeconds: 10 },
    ]);
  });

  it('gives untimed entries no region and skips over them to the next timed entry', () => {
    const log = transcript([
      ['system', null],
      ['agent', 1],
      ['user', null],
      ['user', 5],
    ]);
    expect(buildRoleRegions(log, 8).map((r) => [r.entryIndex, r.startSeconds, r.endSeconds])).toEqual([
      [1, 1, 5],
      [3, 5, 8],
    ]);
  });

  it('clamps to the recording and skips empty or negative regions', () => {
    const log = transcript([
      ['agent', -2],
      ['user', 3],
      ['agent', 3],
      ['user', 7],
      ['agent', 12],
      ['user', 15],
    ]);
    // Entry 1 has zero length (entry 2 starts at the same time); 4 and 5 lie past the 9 s recording.
    expect(buildRoleRegions(log, 9).map((r) => [r.entryIndex, r.startSeconds, r.endSeconds])).toEqual([
      [0, 0, 3],
      [2, 3, 7],
      [3, 7, 9],
    ]);
  });

  it('gives nothing for an empty log or a recording without length', () => {
    expect(buildRoleRegions([], 30)).toEqual([]);
    expect(buildRoleRegions(transcript([['agent', 0]]), 0)).toEqual([]);
    expect(buildRoleRegions(transcript([['agent', 0]]), Number.NaN)).toEqual([]);
  });
});
