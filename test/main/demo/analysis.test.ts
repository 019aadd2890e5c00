/**
 * The call analysis on generated audio with known answers: the demo's "Slow reply (mono)" and
 * "Talk-over (stereo)" recordings are decoded through main's real peaks pipeline, and the slow
 * reply, the talk-over, the long silence and the agent's lane are found where the generator
 * placed them (read from resources/demo/conversations.json and the seed's log times).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeToPeaks } from '../../../electron/main/peaks/decode';
import type { RecordingPeaks } from '../../../electron/shared/contract';
import type { LogEntry } from '../../../electron/shared/domain';
import { inferLaneRoles } from '../../../renderer/src/lib/interaction/analysis/lane-roles';
import { checkTranscriptTiming } from '../../../renderer/src/lib/interaction/analysis/timing-check';
import { analyseTurnTiming, DEFAULT_TURN_TIMING } from '../../../renderer/src/lib/interaction/analysis/turn-timing';
import { RESOURCES_DIR } from '../../fixtures/paths';

const DEMO_DIR = path.join(RESOURCES_DIR, 'demo');
const SLOW_SID = 'interaction_5e1a7c3d-9b24-4f6e-8a10-c2d4e6f80a13';
const STEREO_SID = 'interaction_9d3b5f71-2c8e-4a06-b4d9-7e1f3a5c8b20';
/** How far (seconds) a detected edge may be from where the generator put it. */
const TOLERANCE_SECONDS = 0.3;

interface SourceLine {
  role: string;
  pause_before_seconds?: number;
  overlap_seconds?: number;
}
const sources = (
  JSON.parse(fs.readFileSync(path.join(DEMO_DIR, 'conversations.json'), 'utf8')) as {
    interactions: { sid: string; agent_channel?: string; log: SourceLine[] }[];
  }
).interactions;
const seed = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, 'seed.json'), 'utf8')) as {
  interactions: {
    sid: string;
    started_at: number;
    ended_at: number;
    log: { role: string; message: string; timestamp: number }[];
  }[];
  interaction_labels: Record<string, string>;
};

/** The demo call's log as the app reads it (these calls use offsets in seconds). */
function logOf(sid: string): LogEntry[] {
  const wire = seed.interactions.find((i) => i.sid === sid);
  if (!wire) throw new Error(`${sid} is not in the seed`);
  return wire.log.map((e, index) => ({ index, role: e.role, message: e.message, offsetSeconds: e.timestamp }));
}

function sourceLines(sid: string): SourceLine[] {
  const source = sources.find((i) => i.sid === sid);
  if (!source) throw new Error(`${sid} is not in conversations.json`);
  return source.log;
}

async function peaksOf(sid: string): Promise<RecordingPeaks> {
  const bytes = fs.readFileSync(path.join(DEMO_DIR, 'recordings', `${sid}.ogg`));
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += 16 * 1024) yield new Uint8Array(bytes.subarray(at, at + 16 * 1024));
    await Promise.resolve();
  }
  return { ...(await decodeToPeaks(chunks(), { pause: () => Promise.resolve() })), fromCache: false };
}

describe('the slow-reply demo call (mono)', () => {
  const log = logOf(SLOW_SID);
  let peaks: RecordingPeaks;
  beforeAll(async () => {
    peaks = await peaksOf(SLOW_SID);
  });

  it('is labelled for the demo call list', () => {
    expect(seed.interaction_labels[SLOW_SID]).toMatch(/^Slow reply \(mono\) · /);
  });

  it('finds the one slow reply where the generator paused, from the audio', () => {
    expect(peaks.channels).toHaveLength(1);
    const lanes = inferLaneRoles(peaks, log);
    expect(lanes).toMatchObject({ kind: 'unknown', labels: [] });
    const timing = analyseTurnTiming(log, peaks, lanes, DEFAULT_TURN_TIMING);
    expect(timing.basis).toBe('audio');
    expect(timing.basisNote).toBeNull();

    const slowIndex = sourceLines(SLOW_SID).findIndex((l) => l.pause_before_seconds !== undefined);
    const pause = sourceLines(SLOW_SID)[slowIndex]?.pause_before_seconds ?? 0;
    const replyAt = log[slowIndex]?.offsetSeconds ?? 0;
    const slow = timing.flagged.filter((f) => f.kind === 'slow_turn');
    expect(slow).toHaveLength(1);
    expect(slow[0]?.entryIndex).toBe(slowIndex);
    expect(slow[0]?.endSeconds).toBeCloseTo(replyAt, 0);
    expect(Math.abs((slow[0]?.endSeconds ?? 0) - replyAt)).toBeLessThan(TOLERANCE_SECONDS);
    expect(Math.abs((slow[0]?.startSeconds ?? 0) - (replyAt - pause))).toBeLessThan(TOLERANCE_SECONDS);
    expect(slow[0]?.label).toMatch(/^Slow reply: [34]\.\d s$/);
    expect(timing.summary.longestGap?.agentEntryIndex).toBe(slowIndex);

    // Every other reply is quick (the generator's natural pauses are 0.4 to 0.9 s).
    const others = timing.gaps.filter((g) => g.agentEntryIndex !== slowIndex);
    expect(others.length).toBeGreaterThanOrEqual(3);
    for (const g of others) {
      expect(g.source).toBe('audio');
      expect(g.gapSeconds).toBeGreaterThan(0.2);
      expect(g.gapSeconds).toBeLessThan(1.2);
    }
    expect(timing.summary.medianGapSeconds).toBeLessThan(1.2);
    expect(timing.talkOver).toEqual([]);
    expect(timing.flagged.filter((f) => f.kind === 'silence')).toEqual([]);
  });

  it('agrees with its transcript times', () => {
    const wire = seed.interactions.find((i) => i.sid === SLOW_SID);
    const durationSeconds = wire ? wire.ended_at - wire.started_at : null;
    expect(checkTranscriptTiming(log, peaks, { durationSeconds })).toBeNull();
  });
});

describe('the talk-over demo call (stereo, agent on the right)', () => {
  const log = logOf(STEREO_SID);
  const lines = sourceLines(STEREO_SID);
  let peaks: RecordingPeaks;
  beforeAll(async () => {
    peaks = await peaksOf(STEREO_SID);
  });

  it('is labelled for the demo call list and puts the agent on the right', () => {
    expect(seed.interaction_labels[STEREO_SID]).toMatch(/^Talk-over \(stereo\) · /);
    expect(sources.find((i) => i.sid === STEREO_SID)?.agent_channel).toBe('right');
  });

  it('infers the lanes: agent right, caller left', () => {
    expect(peaks.channels).toHaveLength(2);
    const lanes = inferLaneRoles(peaks, log);
    expect(lanes.kind).toBe('inferred');
    if (lanes.kind !== 'inferred') return;
    expect(lanes.agentChannel).toBe(1);
    expect(lanes.labels).toEqual(['Caller (left)', 'Agent (right)']);
    expect(lanes.confidence).toBeGreaterThanOrEqual(0.8);
    expect(lanes.confidenceText).toMatch(/inferred from the transcript/);
  });

  it('finds the talk-over and the long silence where the generator placed them', () => {
    const timing = analyseTurnTiming(log, peaks, inferLaneRoles(peaks, log), DEFAULT_TURN_TIMING);
    expect(timing.basis).toBe('audio');

    const overlapIndex = lines.findIndex((l) => l.overlap_seconds !== undefined);
    const overlapStart = log[overlapIndex]?.offsetSeconds ?? 0;
    const overlapEnd = overlapStart + (lines[overlapIndex]?.overlap_seconds ?? 0);
    expect(timing.talkOver).toHaveLength(1);
    expect(Math.abs((timing.talkOver[0]?.startSeconds ?? 0) - overlapStart)).toBeLessThan(TOLERANCE_SECONDS);
    expect(Math.abs((timing.talkOver[0]?.endSeconds ?? 0) - overlapEnd)).toBeLessThan(TOLERANCE_SECONDS);
    expect(timing.summary.talkOverCount).toBe(1);

    const silenceIndex = lines.findIndex((l) => l.pause_before_seconds !== undefined);
    const silenceEnd = log[silenceIndex]?.offsetSeconds ?? 0;
    const silenceStart = silenceEnd - (lines[silenceIndex]?.pause_before_seconds ?? 0);
    expect(timing.silences).toHaveLength(1);
    expect(Math.abs((timing.silences[0]?.startSeconds ?? 0) - silenceStart)).toBeLessThan(TOLERANCE_SECONDS);
    expect(Math.abs((timing.silences[0]?.endSeconds ?? 0) - silenceEnd)).toBeLessThan(TOLERANCE_SECONDS);
    expect(timing.summary.longestSilence).toEqual(timing.silences[0]);

    expect(timing.flagged.map((f) => f.kind)).toEqual(['silence', 'talk_over']);
    expect(timing.flagged[0]?.label).toMatch(/^Silence: 6\.\d s$/);
    expect(timing.flagged[1]?.label).toMatch(/^Talk-over: 1\.\d s$/);
    // The caller barged in: the agent's next reply is quick, none is slow.
    expect(timing.gaps.every((g) => g.source === 'audio' && g.gapSeconds < DEFAULT_TURN_TIMING.slowGapSeconds)).toBe(
      true,
    );
  });
});
