import { describe, expect, it } from 'vitest';
import { inferLaneRoles } from '../../../../renderer/src/lib/interaction/analysis/lane-roles';
import { analyseTurnTiming, DEFAULT_TURN_TIMING } from '../../../../renderer/src/lib/interaction/analysis/turn-timing';
import type { LaneRoles, TurnTiming } from '../../../../renderer/src/lib/interaction/analysis/types';
import { syntheticPeaks, transcript } from './fixtures';

const MONO: LaneRoles = { kind: 'unknown', labels: [], reason: 'The recording has one channel.' };

/** [start, end] of a span, rounded to 10 ms. */
const span = (s: { startSeconds: number; endSeconds: number }) => [
  Math.round(s.startSeconds * 100) / 100,
  Math.round(s.endSeconds * 100) / 100,
];

describe('analyseTurnTiming on a mono recording', () => {
  // Speech: agent 0.5-3, caller 3.6-6, agent 6.5-9, caller 9.5-12, agent 14.5-17 (2.5 s late),
  // caller 23-25 (after 6 s of silence), agent 25.8-28, then 12 s of quiet to the end.
  const speech = [
    [0.5, 3],
    [3.6, 6],
    [6.5, 9],
    [9.5, 12],
    [14.5, 17],
    [23, 25],
    [25.8, 28],
  ].map(([from = 0, to = 0]) => ({ channel: 0, from, to }));
  const peaks = syntheticPeaks(40, 1, speech);
  // The log stamps the late reply 0.1 s after its speech starts: still that reply's start.
  const log = transcript([
    ['agent', 0.5],
    ['user', 3.6],
    ['agent', 6.5],
    ['user', 9.5],
    ['agent', 14.6],
    ['user', 23],
    ['agent', 25.8],
  ]);
  const timing: TurnTiming = analyseTurnTiming(log, peaks, MONO, DEFAULT_TURN_TIMING);

  it('measures each reply from the end of the caller speech to the start of the agent speech', () => {
    expect(timing.basis).toBe('audio');
    expect(timing.basisNote).toBeNull();
    expect(timing.gaps.map((g) => [g.userEntryIndex, g.agentEntryIndex, ...span(g), g.source])).toEqual([
      [1, 2, 6, 6.5, 'audio'],
      [3, 4, 12, 14.5, 'audio'],
      [5, 6, 25, 25.8, 'audio'],
    ]);
    expect(timing.gaps[1]?.gapSeconds).toBeCloseTo(2.5, 5);
  });

  it('flags the slow reply and the long silence (not the quiet before the first and after the last word)', () => {
    expect(timing.silences.map(span)).toEqual([[17, 23]]);
    expect(timing.talkOver).toEqual([]);
    expect(timing.flagged.map((f) => [f.kind, ...span(f), f.entryIndex, f.label])).toEqual([
      ['slow_turn', 12, 14.5, 4, 'Slow reply: 2.5 s'],
      ['silence', 17, 23, 4, 'Silence: 6.0 s'],
    ]);
  });

  it('sums up: median, p90 (nearest rank), longest gap and silence', () => {
    expect(timing.summary.medianGapSeconds).toBeCloseTo(0.8, 5);
    expect(timing.summary.p90GapSeconds).toBeCloseTo(2.5, 5);
    expect(timing.summary.longestGap?.agentEntryIndex).toBe(4);
    expect(timing.summary.talkOverCount).toBe(0);
    expect(span(timing.summary.longestSilence ?? { startSeconds: 0, endSeconds: 0 })).toEqual([17, 23]);
  });

  it('follows the thresholds it is given, and does not flag a silence that is a flagged slow reply', () => {
    const strict = analyseTurnTiming(log, peaks, MONO, { slowGapSeconds: 0.6, silenceSeconds: 2 });
    expect(strict.flagged.map((f) => [f.kind, ...span(f)])).toEqual([
      ['slow_turn', 12, 14.5],
      ['silence', 17, 23],
      ['slow_turn', 25, 25.8],
    ]);
    expect(strict.silences.map(span)).toEqual([
      [12, 14.5],
      [17, 23],
    ]);
  });

  it('ignores pauses between words and clicks', () => {
    const choppy = syntheticPeaks(10, 1, [
      { channel: 0, from: 1, to: 2 },
      { channel: 0, from: 2.2, to: 3 }, // a 0.2 s pause inside the caller's turn
      { channel: 0, from: 4.5, to: 4.55 }, // a click in the gap
      { channel: 0, from: 5, to: 7 },
    ]);
    const gaps = analyseTurnTiming(
      transcript([
        ['user', 1],
        ['agent', 5],
      ]),
      choppy,
      MONO,
      DEFAULT_TURN_TIMING,
    ).gaps;
    expect(gaps.map(span)).toEqual([[3, 5]]);
  });
});

describe('analyseTurnTiming on a stereo recording', () => {
  // Agent on the right: 0.5-5, then the caller on the left 4-7 talks over its last second; a
  // 0.2 s overlap at 12.3-12.5 is too short to count.
  const peaks = syntheticPeaks(20, 2, [
    { channel: 1, from: 0.5, to: 5 },
    { channel: 0, from: 4, to: 7 },
    { channel: 1, from: 7.5, to: 10 },
    { channel: 0, from: 10.5, to: 12.5 },
    { channel: 1, from: 12.3, to: 15 },
    { channel: 0, from: 15.5, to: 16 },
    { channel: 1, from: 16.4, to: 19 },
  ]);
  const log = transcript([
    ['agent', 0.5],
    ['user', 4],
    ['agent', 7.5],
    ['user', 10.5],
    ['agent', 12.3],
    ['user', 15.5],
    ['agent', 16.4],
  ]);

  it('finds talk-over of at least 0.3 s, and reads the gaps on each side own channel', () => {
    const lanes = inferLaneRoles(peaks, log);
    expect(lanes).toMatchObject({ kind: 'inferred', agentChannel: 1 });
    const timing = analyseTurnTiming(log, peaks, lanes, DEFAULT_TURN_TIMING);
    expect(timing.talkOver.map(span)).toEqual([[4, 5]]);
    expect(timing.summary.talkOverCount).toBe(1);
    expect(timing.flagged.map((f) => [f.kind, f.entryIndex, f.label])).toEqual([['talk_over', 1, 'Talk-over: 1.0 s']]);
    // The agent starting while the caller still speaks (12.3 < 12.5) is a gap of 0.
    expect(timing.gaps.map((g) => [...span(g), g.source])).toEqual([
      [7, 7.5, 'audio'],
      [12.3, 12.3, 'audio'],
      [16, 16.4, 'audio'],
    ]);
  });

  it('reads both channels together when the lanes are unknown', () => {
    const unknown: LaneRoles = { kind: 'unknown', labels: ['Channel 1 (left)', 'Channel 2 (right)'], reason: '' };
    const timing = analyseTurnTiming(log, peaks, unknown, DEFAULT_TURN_TIMING);
    expect(timing.talkOver.map(span)).toEqual([[4, 5]]);
    expect(timing.gaps.map((g) => [...span(g), g.source])).toEqual([
      [7, 7.5, 'audio'],
      [11.7, 12.3, 'log'], // no pause between the two on the shared track: from the log (3 words: 1.2 s)
      [16, 16.4, 'audio'],
    ]);
  });
});

describe('analyseTurnTiming without usable audio', () => {
  const log = transcript([
    ['agent', 0, 'Hello there'],
    ['user', 2, 'I need help with my bill'], // 6 words: 2.4 s at 150 words a minute
    ['tool', 4.5, 'lookup()'],
    ['agent', 5],
    [
      'user',
      8,
      'A long question of twenty words that would take about eight seconds to say at an ordinary pace of speech',
    ],
    ['agent', 11],
    ['user', null],
    ['agent', 30],
  ]);

  it('falls back to the log times without peaks, and says so', () => {
    const timing = analyseTurnTiming(log, null, MONO, DEFAULT_TURN_TIMING);
    expect(timing.basis).toBe('log');
    expect(timing.basisNote).toMatch(/no waveform .* estimated from the transcript times/);
    // Entry 3 follows a tool entry and entry 7 an untimed one: only 4 -> 5 is a reply pair.
    expect(timing.gaps.map((g) => [g.userEntryIndex, g.agentEntryIndex, ...span(g), g.source])).toEqual([
      [4, 5, 11, 11, 'log'],
    ]);
    expect(timing.talkOver).toEqual([]);
    expect(timing.silences).toEqual([]);
  });

  it('estimates the caller speech from its words', () => {
    const pair = transcript([
      ['user', 2, 'I need help with my bill'],
      ['agent', 6],
    ]);
    const timing = analyseTurnTiming(pair, null, MONO, DEFAULT_TURN_TIMING);
    expect(timing.gaps.map(span)).toEqual([[4.4, 6]]);
    expect(timing.flagged.map((f) => f.label)).toEqual(['Slow reply: 1.6 s']);
  });

  it('falls back when the recording is silent or one unbroken sound', () => {
    const pair = transcript([
      ['user', 2],
      ['agent', 6],
    ]);
    const silent = analyseTurnTiming(pair, syntheticPeaks(10, 1, []), MONO, DEFAULT_TURN_TIMING);
    expect(silent.basis).toBe('log');
    expect(silent.basisNote).toMatch(/No speech was found/);
    const noise = analyseTurnTiming(
      pair,
      syntheticPeaks(10, 1, [{ channel: 0, from: 0, to: 10 }]),
      MONO,
      DEFAULT_TURN_TIMING,
    );
    expect(noise.basis).toBe('log');
    expect(noise.basisNote).toMatch(/no clear pauses/);
    expect(noise.gaps[0]?.source).toBe('log');
  });

  it('has nothing to say about an empty log', () => {
    const timing = analyseTurnTiming(
      [],
      syntheticPeaks(10, 1, [{ channel: 0, from: 1, to: 2 }]),
      MONO,
      DEFAULT_TURN_TIMING,
    );
    expect(timing.gaps).toEqual([]);
    expect(timing.summary).toEqual({
      medianGapSeconds: null,
      p90GapSeconds: null,
      longestGap: null,
      talkOverCount: 0,
      longestSilence: null,
    });
    expect(timing.basis).toBe('audio');
  });
});
