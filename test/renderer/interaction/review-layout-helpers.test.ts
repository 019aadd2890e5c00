/**
 * The small rules behind the reviewing layout: several SIDs read from a ticket's text, where a
 * mark sits on the marker track, the colour family of a call's status, the one word for the
 * caller, short times for lists, and why an action that needs the recording is disabled.
 */
import { describe, expect, it } from 'vitest';
import { extractInteractionSids } from '$shared/sid';
import { speakerLabel } from '../../../renderer/src/lib/interaction/analysis/regions';
import { statusTone } from '../../../renderer/src/lib/interaction/call-status';
import { needsRecordingReason } from '../../../renderer/src/lib/interaction/needs-recording';
import { callLine } from '../../../renderer/src/lib/interaction/queue/call-line';
import { markPlacement, toolMarks } from '../../../renderer/src/lib/interaction/waveform/track-marks';
import { formatShortTime } from '../../../renderer/src/lib/format';

const A = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const B = 'interaction_6fa459ea-ee8a-3ca4-894e-db77e160355e';

describe('SIDs in pasted text', () => {
  it('finds every SID once, in order, lower-cased, in links and prose alike', () => {
    const ticket = `Calls: ${A.toUpperCase().replace('INTERACTION', 'interaction')}, voice-review://interactions/${B}?t=4 and again ${A}.`;
    expect(extractInteractionSids(ticket)).toEqual([A, B]);
    expect(extractInteractionSids('no SID here')).toEqual([]);
    // A UUID running on into more hex digits is not a SID.
    expect(extractInteractionSids(`${A}0`)).toEqual([]);
  });
});

describe('the marker track', () => {
  it('places moments and stretches as percentages of the recording, and leaves out what lies outside it', () => {
    expect(markPlacement({ kind: 'flag', startSeconds: 30, endSeconds: 45, label: 'Slow reply' }, 120)).toEqual({
      leftPct: 25,
      widthPct: 12.5,
    });
    expect(markPlacement({ kind: 'search', startSeconds: 60, label: 'Search match' }, 120)).toEqual({
      leftPct: 50,
      widthPct: 0,
    });
    // A stretch running past the end is cut at the end.
    expect(markPlacement({ kind: 'note', startSeconds: 110, endSeconds: 200, label: 'n' }, 120)?.widthPct).toBeCloseTo(
      (10 / 120) * 100,
    );
    expect(markPlacement({ kind: 'tool', startSeconds: 130, label: 't' }, 120)).toBeNull();
    expect(markPlacement({ kind: 'tool', startSeconds: 1, label: 't' }, 0)).toBeNull();
  });

  it('marks timed tool calls of the transcript, named by their first words', () => {
    const marks = toolMarks([
      { index: 0, role: 'agent', message: 'Hello', offsetSeconds: 0 },
      { index: 1, role: 'tool', message: 'lookup_patient(P-1234)\n-> found', offsetSeconds: 12 },
      { index: 2, role: 'function_call', message: 'untimed', offsetSeconds: null },
    ]);
    expect(marks).toEqual([{ kind: 'tool', startSeconds: 12, label: 'Tool: lookup_patient(P-1234) -> found' }]);
  });
});

describe('words and colours of a call', () => {
  it('colours failures apart from ended calls, and calls still running apart from both', () => {
    expect(['failed', 'error', 'no_answer', 'busy'].map(statusTone)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(['in_progress', 'ringing'].map(statusTone)).toEqual(['running', 'running']);
    expect(['completed', 'ended', 'transferred', null, 'something_new'].map(statusTone)).toEqual([
      'neutral',
      'neutral',
      'neutral',
      'neutral',
      'neutral',
    ]);
  });

  it('says Caller for every caller role and Agent for the agent', () => {
    expect(['user', 'User', 'customer', 'caller'].map(speakerLabel)).toEqual(['Caller', 'Caller', 'Caller', 'Caller']);
    expect(['agent', 'assistant', 'tool', 'system'].map(speakerLabel)).toEqual(['Agent', 'Agent', 'Tool', 'System']);
  });

  it('says why an action needing the recording is disabled, and nothing when there is one', () => {
    expect(needsRecordingReason({ available: true, src: 'vr-recording://x' })).toBeNull();
    expect(needsRecordingReason({ available: false, reason: 'This interaction has no recording.' })).toBe(
      'No recording: This interaction has no recording.',
    );
  });

  it('shortens times for lists: the time today, the day this year, the date before', () => {
    const now = new Date(2026, 10, 28, 15, 0).getTime();
    const today = formatShortTime(new Date(2026, 10, 28, 9, 5).getTime(), now);
    const thisYear = formatShortTime(new Date(2026, 2, 4, 9, 5).getTime(), now);
    const earlier = formatShortTime(new Date(2024, 2, 4, 9, 5).getTime(), now);
    expect(today).toMatch(/09:05|9:05/);
    expect(today).not.toMatch(/2026/);
    expect(thisYear).toMatch(/4/);
    expect(thisYear).not.toMatch(/2026/);
    expect(earlier).toMatch(/2024/);
    expect(formatShortTime(null, now)).toBe('—');
  });

  it('names a queued call not opened yet by its SID, and an opened one by its numbers, time and status', () => {
    expect(callLine(A, undefined)).toMatchObject({ numbers: A, status: null });
    const line = callLine(A, {
      sid: A,
      fromNumber: '+447700900517',
      toNumber: '+14155550188',
      direction: 'inbound',
      status: 'failed',
      startedAtMs: Date.UTC(2026, 10, 19, 16, 27),
      openedAtMs: 0,
    });
    expect(line.numbers).toBe('+44 7700 900 517 → +1 415 555 0188');
    expect(line).toMatchObject({ status: 'Failed', tone: 'failed' });
    expect(line.full).toContain(A);
  });
});
