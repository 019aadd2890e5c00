/**
 * Tolerant interaction fields: an optional field sent with the wrong type does not hide the call.
 * The call parses, the field holds its empty value and is listed as unreadable with its raw JSON
 * type, so the view can say "Unreadable" in its place. Times also come as ISO 8601 text, the form
 * the same API uses for `created_at`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interactionEnvelope, type ParsedInteraction } from '../../../electron/main/api/schemas';
import { isoToMs } from '../../../electron/main/api/timestamps';

const SID = 'interaction_6f1d8a2e-3b4c-4d5e-8f60-718293a4b5c6';

function parse(interaction: Record<string, unknown>): ParsedInteraction {
  return interactionEnvelope.parse({ status: 'success', interaction: { sid: SID, ...interaction } });
}

describe('an optional field of the wrong type', () => {
  it('keeps the call and names each unreadable field with its raw type', () => {
    const parsed = parse({
      direction: 42,
      started_at: {},
      variables: 'x',
      agent_sid: [],
      status: 'completed',
      from_number: '+14155550123',
    });
    expect(parsed.sid).toBe(SID);
    expect(parsed.direction).toBeNull();
    expect(parsed.startedAtMs).toBeNull();
    expect(parsed.variables).toEqual({});
    expect(parsed.agentSid).toBeNull();
    expect(parsed.status).toBe('completed');
    expect(parsed.fromNumber).toBe('+14155550123');
    expect(parsed.unreadable).toEqual(
      expect.arrayContaining([
        { field: 'agent_sid', rawType: 'array' },
        { field: 'direction', rawType: 'number' },
        { field: 'started_at', rawType: 'object' },
        { field: 'variables', rawType: 'string' },
      ]),
    );
    expect(parsed.unreadable).toHaveLength(4);
  });

  it('keeps a log that is not a list as an empty transcript, noted as unreadable', () => {
    const parsed = parse({ log: 'nope', recording_url: true });
    expect(parsed.log).toEqual([]);
    expect(parsed.recordingUrl).toBeNull();
    expect(parsed.unreadable).toContainEqual({ field: 'log', rawType: 'string' });
    expect(parsed.unreadable).toContainEqual({ field: 'recording_url', rawType: 'boolean' });
  });

  it('keeps every log entry in place, marking its unreadable fields or the whole entry', () => {
    const parsed = parse({
      log: [
        { role: 'agent', message: 'Hello', timestamp: 0 },
        { role: 7, message: { text: 'hi' }, timestamp: 1 },
        'not an entry',
        { role: 'user', message: 'Bye', timestamp: 'soon' },
      ],
    });
    expect(parsed.log.map((e) => e.message)).toEqual(['Hello', '', '', 'Bye']);
    expect(parsed.log[0]?.unreadable).toBeUndefined();
    expect(parsed.log[1]?.unreadable).toEqual([
      { field: 'role', rawType: 'number' },
      { field: 'message', rawType: 'object' },
    ]);
    expect(parsed.log[1]?.role).toBe('unknown');
    expect(parsed.log[2]?.unreadable).toEqual([{ field: 'entry', rawType: 'string' }]);
    expect(parsed.log[3]?.unreadable).toEqual([{ field: 'timestamp', rawType: 'string' }]);
    expect(parsed.log[3]?.offsetSeconds).toBeNull();
    expect(parsed.unreadable).toBeUndefined();
  });

  it('leaves a fully readable interaction without an unreadable list', () => {
    expect(parse({ direction: 'inbound', started_at: 1_700_000_000, log: [] })).not.toHaveProperty('unreadable');
  });

  it('never fails the parse for any JSON value in any optional field', () => {
    const fields = [
      'from_number',
      'to_number',
      'direction',
      'type',
      'status',
      'agent_sid',
      'started_at',
      'ended_at',
      'duration',
      'variables',
      'recording_url',
      'log',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (field, value) => {
        const result = interactionEnvelope.safeParse({ status: 'success', interaction: { sid: SID, [field]: value } });
        expect(result.success).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('still requires the sid: without it there is no call to show', () => {
    expect(interactionEnvelope.safeParse({ status: 'success', interaction: { sid: 42 } }).success).toBe(false);
  });
});

describe('ISO 8601 times for started_at and ended_at', () => {
  it('reads ISO text with fractional seconds and a zone as that instant, beside epoch numbers', () => {
    const parsed = parse({
      started_at: '2024-05-01T09:30:00.250Z',
      ended_at: 1_714_555_860,
      log: [{ role: 'agent', message: 'Hi', timestamp: '2024-05-01T09:30:30.250Z' }],
    });
    expect(parsed.startedAtMs).toBe(Date.UTC(2024, 4, 1, 9, 30, 0, 250));
    expect(parsed.endedAtMs).toBe(Date.UTC(2024, 4, 1, 9, 31, 0));
    expect(parsed.durationSeconds).toBeCloseTo(59.75, 6);
    expect(parsed.log[0]?.offsetSeconds).toBeCloseTo(30, 6);
    expect(parsed.unreadable).toBeUndefined();
  });

  it('reads offsets from UTC and whole seconds without fractions', () => {
    expect(isoToMs('2024-05-01T11:30:00+02:00')).toBe(Date.UTC(2024, 4, 1, 9, 30));
    expect(isoToMs('2024-05-01T11:30:00+0200')).toBe(Date.UTC(2024, 4, 1, 9, 30));
    expect(isoToMs('2024-05-01 09:30Z')).toBe(Date.UTC(2024, 4, 1, 9, 30));
  });

  it('marks text that is no instant (no zone, a date only, a month 13, words) as unreadable', () => {
    for (const text of ['2024-05-01T09:30:00', '2024-05-01', '2024-13-01T00:00:00Z', 'yesterday']) {
      expect(isoToMs(text)).toBeNull();
      const parsed = parse({ started_at: text });
      expect(parsed.startedAtMs).toBeNull();
      expect(parsed.unreadable).toEqual([{ field: 'started_at', rawType: 'string' }]);
    }
  });
});
