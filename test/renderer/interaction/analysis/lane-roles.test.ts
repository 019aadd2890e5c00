import { describe, expect, it } from 'vitest';
import { inferLaneRoles } from '../../../../renderer/src/lib/interaction/analysis/lane-roles';
import { syntheticPeaks, transcript, type Speech } from './fixtures';

/** Eight alternating turns of 3 s, agent first, each followed by 1 s of quiet. */
const TURNS: ['agent' | 'user', number][] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [
  i % 2 === 0 ? 'agent' : 'user',
  i * 4,
]);
const log = transcript([
  ['system', 0, 'Call connected'],
  ...TURNS.map(([role, at]) => [role, at + 0.2] as [string, number]),
]);

/** Speech of every turn, the agent's on `agentChannel` and the caller's on the other, unless `swapped` says otherwise for a turn. */
function speech(agentChannel: number, swapped: (turn: number) => boolean = () => false): Speech[] {
  return TURNS.map(([role, at], turn) => {
    const onAgentChannel = (role === 'agent') !== swapped(turn);
    return { channel: onAgentChannel ? agentChannel : 1 - agentChannel, from: at + 0.2, to: at + 3.2 };
  });
}

describe('inferLaneRoles', () => {
  it('finds the agent on the left when the left channel is loud in the agent turns', () => {
    const lanes = inferLaneRoles(syntheticPeaks(32, 2, speech(0)), log);
    expect(lanes).toMatchObject({
      kind: 'inferred',
      agentChannel: 0,
      labels: ['Agent (left)', 'Caller (right)'],
      confidence: 1,
    });
    if (lanes.kind === 'inferred')
      expect(lanes.confidenceText).toMatch(
        /^Very likely, inferred from the transcript: the left channel .*\(8 of 8 turns agree\)/,
      );
  });

  it('finds the agent on the right, against a left-is-agent guess', () => {
    const lanes = inferLaneRoles(syntheticPeaks(32, 2, speech(1)), log);
    expect(lanes).toMatchObject({ kind: 'inferred', agentChannel: 1, labels: ['Caller (left)', 'Agent (right)'] });
  });

  it('stays sure but says "likely" when one turn in eight disagrees', () => {
    const lanes = inferLaneRoles(
      syntheticPeaks(
        32,
        2,
        speech(1, (turn) => turn === 3),
      ),
      log,
    );
    expect(lanes).toMatchObject({ kind: 'inferred', agentChannel: 1, confidence: 7 / 8 });
    if (lanes.kind === 'inferred') expect(lanes.confidenceText).toMatch(/^Likely, .*7 of 8 turns agree/);
  });

  it('keeps Channel 1/2 when the turns disagree', () => {
    const lanes = inferLaneRoles(
      syntheticPeaks(
        32,
        2,
        speech(0, (turn) => turn % 4 >= 2),
      ),
      log,
    );
    expect(lanes).toEqual({
      kind: 'unknown',
      labels: ['Channel 1 (left)', 'Channel 2 (right)'],
      reason: expect.stringMatching(/does not clearly follow .*4 of 8 turns agree/) as unknown,
    });
  });

  it('keeps Channel 1/2 when both channels carry the same sound (a mono call in a stereo file)', () => {
    const both = speech(0).flatMap((s) => [s, { ...s, channel: 1 - s.channel }]);
    const lanes = inferLaneRoles(syntheticPeaks(32, 2, both), log);
    expect(lanes).toMatchObject({ kind: 'unknown', labels: ['Channel 1 (left)', 'Channel 2 (right)'] });
    if (lanes.kind === 'unknown') expect(lanes.reason).toMatch(/Too few/);
  });

  it('keeps Channel 1/2 with too few turns, or turns of one side only', () => {
    const short = transcript([
      ['agent', 0.2],
      ['user', 4.2],
    ]);
    expect(inferLaneRoles(syntheticPeaks(32, 2, speech(0)), short)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringMatching(/Too few/) as unknown,
    });
    const agentsOnly = transcript(TURNS.map(([, at]) => ['agent', at + 0.2]));
    expect(inferLaneRoles(syntheticPeaks(32, 2, speech(0)), agentsOnly).kind).toBe('unknown');
  });

  it('has no lane labels for mono, and says why without peaks or with more channels', () => {
    expect(inferLaneRoles(syntheticPeaks(32, 1, []), log)).toEqual({
      kind: 'unknown',
      labels: [],
      reason: 'The recording has one channel.',
    });
    expect(inferLaneRoles(null, log)).toMatchObject({
      kind: 'unknown',
      labels: ['Channel 1 (left)', 'Channel 2 (right)'],
      reason: expect.stringMatching(/no waveform/) as unknown,
    });
    expect(inferLaneRoles(syntheticPeaks(32, 3, speech(0)), log)).toMatchObject({
      kind: 'unknown',
      labels: ['Channel 1', 'Channel 2', 'Channel 3'],
    });
  });
});
