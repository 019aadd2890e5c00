/**
 * The time rules documented at the top of electron/main/api/timestamps.ts (spec 2 "Gaps": units
 * not shown), one block per rule, then end to end through the interaction schema with the seed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { interactionEnvelope } from '../../../electron/main/api/schemas';
import { epochToMs, resolveDurationSeconds, resolveLogOffsets } from '../../../electron/main/api/timestamps';
import { RESOURCES_DIR } from '../../fixtures/paths';

const SEED_FILE = path.join(RESOURCES_DIR, 'demo/seed.json');

interface SeedInteraction {
  sid: string;
  status: string;
  started_at: number;
  ended_at?: number | null;
  duration?: number;
  log: { role: string; message: string; timestamp: number }[];
}

function readSeed(): SeedInteraction[] {
  return (JSON.parse(fs.readFileSync(SEED_FILE, 'utf8')) as { interactions: SeedInteraction[] }).interactions;
}

function parse(interaction: Record<string, unknown>) {
  return interactionEnvelope.parse({ status: 'success', interaction: { sid: 'interaction_x', ...interaction } });
}

describe('rule 1: epoch seconds or milliseconds', () => {
  it('reads a 10-digit epoch as seconds and a 13-digit one as milliseconds, both to the same instant', () => {
    expect(epochToMs(1793725928)).toBe(1793725928000);
    expect(epochToMs(1793725928000)).toBe(1793725928000);
    expect(new Date(epochToMs(1793725928)).toISOString()).toBe('2026-11-03T17:12:08.000Z');
  });

  it('splits at 1e11: just below is seconds, at the threshold is milliseconds', () => {
    expect(epochToMs(99_999_999_999)).toBe(99_999_999_999_000);
    expect(epochToMs(100_000_000_000)).toBe(100_000_000_000);
  });

  it('reads fractional seconds', () => {
    expect(epochToMs(1700000000.25)).toBe(1700000000250);
  });

  it('gives the same start and end whichever unit the server used', () => {
    const seconds = parse({ started_at: 1700000000, ended_at: 1700000090 });
    const millis = parse({ started_at: 1700000000000, ended_at: 1700000090000 });
    expect(seconds.startedAtMs).toBe(1700000000000);
    expect(seconds.endedAtMs).toBe(1700000090000);
    expect(millis.startedAtMs).toBe(seconds.startedAtMs);
    expect(millis.endedAtMs).toBe(seconds.endedAtMs);
    expect(millis.durationSeconds).toBe(90);
  });
});

describe('rule 2: duration', () => {
  const start = 1700000000000;

  it('keeps a duration in seconds that matches start and end', () => {
    expect(resolveDurationSeconds(start, start + 96_000, 96)).toBe(96);
  });

  it('keeps a rounded duration within 2 s of the derived length', () => {
    expect(resolveDurationSeconds(start, start + 64_478, 64)).toBe(64);
  });

  it('accepts 2 % of slack on a long call', () => {
    expect(resolveDurationSeconds(start, start + 3_600_000, 3650)).toBe(3650);
    expect(resolveDurationSeconds(start, start + 3_600_000, 3700)).toBe(3600);
  });

  it('derives the length from start and end when the given duration disagrees', () => {
    expect(resolveDurationSeconds(start, start + 96_000, 30)).toBe(96);
    expect(resolveDurationSeconds(start, start + 96_000, 5000)).toBe(96);
  });

  it('reads a duration given in milliseconds as seconds', () => {
    expect(resolveDurationSeconds(start, start + 68_000, 68_221)).toBeCloseTo(68.221, 6);
  });

  it('derives the length when no duration is given', () => {
    expect(resolveDurationSeconds(start, start + 12_500, null)).toBe(12.5);
  });

  it('reads duration as seconds when there is no end', () => {
    expect(resolveDurationSeconds(start, null, 42)).toBe(42);
    expect(resolveDurationSeconds(null, null, 42)).toBe(42);
  });

  it('is unknown when nothing says, and ignores a negative duration', () => {
    expect(resolveDurationSeconds(start, null, null)).toBeNull();
    expect(resolveDurationSeconds(null, null, -5)).toBeNull();
    expect(resolveDurationSeconds(start, start + 10_000, -5)).toBe(10);
  });

  it('falls back to the given duration when the end is before the start', () => {
    expect(resolveDurationSeconds(start, start - 10_000, 30)).toBe(30);
    expect(resolveDurationSeconds(start, start - 10_000, null)).toBeNull();
  });
});

describe('rule 3: log timestamps', () => {
  it('reads absolute milliseconds as offsets from the start', () => {
    const startMs = 1793893312594;
    expect(resolveLogOffsets([1793893312944, 1793893319474, 1793893373693], startMs, 64)).toEqual([0.35, 6.88, 61.099]);
  });

  it('reads absolute fractional seconds as offsets from the start', () => {
    const offsets = resolveLogOffsets([1794233131.35, 1794233131.65, 1794233298.8], 1794233131000, 172);
    expect(offsets[0]).toBeCloseTo(0.35, 3);
    expect(offsets[1]).toBeCloseTo(0.65, 3);
    expect(offsets[2]).toBeCloseTo(167.8, 3);
  });

  it('reads absolute milliseconds when the start was given in seconds (same clock, other unit)', () => {
    expect(resolveLogOffsets([1700000001500, 1700000030000], epochToMs(1700000000), 60)).toEqual([1.5, 30]);
  });

  it('keeps small values as offsets in seconds', () => {
    expect(resolveLogOffsets([0.35, 7.78, 91.28], 1793725928000, 96)).toEqual([0.35, 7.78, 91.28]);
  });

  it('reads offsets as milliseconds when the largest cannot fit the call in seconds (> duration × 1.5 + 5)', () => {
    expect(resolveLogOffsets([350, 7780, 59000], 1700000000000, 60)).toEqual([0.35, 7.78, 59]);
  });

  it('keeps seconds up to the limit of duration × 1.5 + 5, and switches just past it', () => {
    // Duration 60: the limit is 95 s.
    expect(resolveLogOffsets([1, 95], 1700000000000, 60)).toEqual([1, 95]);
    expect(resolveLogOffsets([1, 96], 1700000000000, 60)).toEqual([0.001, 0.096]);
  });

  it('uses one unit for the whole log', () => {
    // 2 and 3 would fit as seconds, but the log's largest offset shows the log is in ms.
    expect(resolveLogOffsets([2, 3, 30000], null, 32)).toEqual([0.002, 0.003, 30]);
  });

  it('assumes a call of up to 4 hours when the length is unknown', () => {
    // The limit is then 4 h × 1.5 + 5 s = 21 605 s.
    expect(resolveLogOffsets([350, 21605], 1700000000000, null)).toEqual([350, 21605]);
    expect(resolveLogOffsets([350, 21606], 1700000000000, null)).toEqual([0.35, 21.606]);
    expect(resolveLogOffsets([350, 27470], null, null)).toEqual([0.35, 27.47]);
  });

  it('measures absolute timestamps from the earliest one when there is no start time', () => {
    expect(resolveLogOffsets([1700000005, 1700000002.5, 1700000010], null, null)).toEqual([2.5, 0, 7.5]);
    expect(resolveLogOffsets([1700000002500, 1700000005000], null, 10)).toEqual([0, 2.5]);
  });

  it('keeps offsets in seconds when there is no start time', () => {
    expect(resolveLogOffsets([0.5, 4], null, null)).toEqual([0.5, 4]);
  });

  it('clamps to zero: entries before the start, negative offsets', () => {
    expect(resolveLogOffsets([1699999998, 1700000003], 1700000000000, 10)).toEqual([0, 3]);
    expect(resolveLogOffsets([-2, 1], 1700000000000, 10)).toEqual([0, 1]);
  });

  it('leaves a missing timestamp as null, without shifting the others', () => {
    expect(resolveLogOffsets([null, 2, null, 5], 1700000000000, 10)).toEqual([null, 2, null, 5]);
    expect(resolveLogOffsets([Number.NaN, 1], 1700000000000, 10)).toEqual([null, 1]);
  });
});

describe('an interaction end to end through the schema', () => {
  it('applies all three rules together: start in ms, duration in ms, log in absolute seconds', () => {
    const interaction = parse({
      started_at: 1700000000000,
      ended_at: 1700000068000,
      duration: 68221,
      log: [
        { role: 'agent', message: 'Hello', timestamp: 1700000000.5 },
        { role: 'user', message: 'Hi', timestamp: 1700000004 },
      ],
    });
    expect(interaction.startedAtMs).toBe(1700000000000);
    expect(interaction.durationSeconds).toBeCloseTo(68.221, 6);
    expect(interaction.log.map((e) => e.offsetSeconds)).toEqual([0.5, 4]);
  });

  it('orders the log by offset; an entry without one stays after the entry before it', () => {
    const interaction = parse({
      started_at: 1700000000,
      ended_at: 1700000010,
      log: [
        { role: 'agent', message: 'third', timestamp: 5 },
        { role: 'user', message: 'first', timestamp: 1 },
        { role: 'tool', message: 'after first' },
        { role: 'user', message: 'second', timestamp: 3 },
      ],
    });
    expect(interaction.log.map((e) => e.message)).toEqual(['first', 'after first', 'second', 'third']);
    expect(interaction.log.map((e) => e.index)).toEqual([1, 2, 3, 0]);
  });

  it('accepts numeric strings for times', () => {
    const interaction = parse({
      started_at: '1700000000',
      ended_at: '1700000030',
      log: [{ role: 'agent', message: 'a', timestamp: '2.5' }],
    });
    expect(interaction.durationSeconds).toBe(30);
    expect(interaction.log[0]?.offsetSeconds).toBe(2.5);
  });
});

describe('the demo seed end to end through the schema', () => {
  const seed = readSeed();
  const finished = seed.filter((i) => i.ended_at !== undefined && i.ended_at !== null);

  it('the seed has finished interactions in every timestamp style', () => {
    expect(finished.length).toBeGreaterThanOrEqual(5);
    expect(finished.some((i) => i.started_at >= 1e11)).toBe(true);
    expect(finished.some((i) => i.log.some((e) => e.timestamp >= 1e9 && e.timestamp < 1e11))).toBe(true);
    expect(finished.some((i) => i.duration !== undefined && i.duration > 1000)).toBe(true);
  });

  it.each(finished.map((i) => [i.sid, i] as const))(
    'seed %s: offsets increase from 0 and the last is within the call',
    (_sid, wire) => {
      const interaction = parse(wire as unknown as Record<string, unknown>);
      expect(interaction.startedAtMs).toBe(epochToMs(wire.started_at));
      const duration = interaction.durationSeconds;
      expect(duration).not.toBeNull();
      // Within 2 s of what the start and end say, whatever unit duration was given in.
      expect(Math.abs(duration! - (epochToMs(wire.ended_at!) - epochToMs(wire.started_at)) / 1000)).toBeLessThanOrEqual(
        2,
      );
      const offsets = interaction.log.map((e) => e.offsetSeconds);
      expect(offsets).toHaveLength(wire.log.length);
      expect(offsets.every((o) => o !== null)).toBe(true);
      const values = offsets as number[];
      expect(values[0]).toBeGreaterThanOrEqual(0);
      expect(values[0]).toBeLessThan(5);
      for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
      expect(values[values.length - 1]).toBeLessThanOrEqual(duration!);
      // Server order is kept: the seed logs are already in time order.
      expect(interaction.log.map((e) => e.index)).toEqual(wire.log.map((_, index) => index));
    },
  );

  it('the seeded call in progress has no length, and its log is read in seconds', () => {
    const wire = seed.find((i) => i.status === 'in_progress');
    expect(wire).toBeDefined();
    const interaction = parse(wire as unknown as Record<string, unknown>);
    expect(interaction.endedAtMs).toBeNull();
    expect(interaction.durationSeconds).toBeNull();
    const offsets = interaction.log.map((e) => e.offsetSeconds as number);
    expect(offsets).toEqual(wire!.log.map((e) => e.timestamp));
  });
});
