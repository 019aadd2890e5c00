/**
 * Fields the server sent with the wrong type: the call is shown, and each such field reads
 * "Unreadable (its type)" in its own place in the call details and in the transcript.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Interaction } from '$shared/domain';
import CallSummary from '../../../renderer/src/lib/interaction/CallSummary.svelte';
import Transcript from '../../../renderer/src/lib/interaction/transcript/Transcript.svelte';
import { installFakeLayout } from '../fake-media';

const SID = 'interaction_6f1d8a2e-3b4c-4d5e-8f60-718293a4b5c6';

function interaction(over: Partial<Interaction>): Interaction {
  return {
    sid: SID,
    fromNumber: '+14155550123',
    toNumber: '+14155550199',
    direction: 'inbound',
    type: 'phone_call',
    status: 'completed',
    agentSid: 'agent_1',
    startedAtMs: Date.UTC(2024, 4, 1, 9, 30),
    endedAtMs: Date.UTC(2024, 4, 1, 9, 32),
    durationSeconds: 120,
    variables: {},
    log: [],
    recording: { available: false, reason: 'This interaction has no recording.' },
    ...over,
  };
}

/** The value shown under the details label `label`. */
function detail(label: string): string {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent.trim() ?? '';
}

describe('call details with unreadable fields', () => {
  it('shows "Unreadable" with the raw type in place of each unreadable field, and the rest as usual', () => {
    render(CallSummary, {
      props: {
        interaction: interaction({
          direction: null,
          startedAtMs: null,
          agentSid: null,
          unreadable: [
            { field: 'direction', rawType: 'number' },
            { field: 'started_at', rawType: 'object' },
            { field: 'agent_sid', rawType: 'array' },
          ],
        }),
      },
    });
    const details = screen.getByRole('region', { name: 'Call details' });
    expect(within(details).getByText(SID)).toBeInTheDocument();
    expect(detail('Direction')).toBe('Unreadable (a number)');
    expect(detail('Started')).toBe('Unreadable (an object)');
    expect(detail('Agent')).toBe('Unreadable (a list)');
    expect(detail('Type')).toBe('Phone call');
    expect(detail('Duration')).toBe('2 min 00 s');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('names unreadable variables, transcript and recording link in a note', () => {
    render(CallSummary, {
      props: {
        interaction: interaction({
          unreadable: [
            { field: 'variables', rawType: 'string' },
            { field: 'log', rawType: 'object' },
            { field: 'recording_url', rawType: 'boolean' },
          ],
        }),
      },
    });
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent('Variables: Unreadable (text)');
    expect(note).toHaveTextContent('Transcript: Unreadable (an object)');
    expect(note).toHaveTextContent('Recording link: Unreadable (true/false)');
  });

  it('shows a readable call with no "Unreadable" anywhere', () => {
    render(CallSummary, { props: { interaction: interaction({}) } });
    expect(screen.queryByText(/Unreadable/)).not.toBeInTheDocument();
  });
});

describe('transcript entries with unreadable fields', () => {
  beforeEach(() => {
    installFakeLayout({ viewportPx: 600, rowPx: 50 });
  });

  it('keeps each entry in its place, reading "Unreadable" where its role, message or time was', () => {
    const log = [
      { index: 0, role: 'agent', message: 'Hello', offsetSeconds: 0 },
      {
        index: 1,
        role: 'unknown',
        message: '',
        offsetSeconds: 1,
        unreadable: [{ field: 'message', rawType: 'object' }],
      },
      {
        index: 2,
        role: 'unknown',
        message: '',
        offsetSeconds: null,
        unreadable: [{ field: 'entry', rawType: 'string' }],
      },
      {
        index: 3,
        role: 'user',
        message: 'Bye',
        offsetSeconds: null,
        unreadable: [{ field: 'timestamp', rawType: 'string' }],
      },
    ];
    render(Transcript, { props: { log, currentTime: 0, canSeek: true, onSeek: () => undefined } });
    const rows = screen.getAllByRole('listitem');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toHaveTextContent('Hello');
    expect(rows[1]).toHaveTextContent('Unreadable (an object)');
    expect(rows[2]).toHaveTextContent('Unreadable (text)');
    expect(rows[3]).toHaveTextContent('Bye');
    expect(within(rows[3] as HTMLElement).getByText('Unreadable')).toHaveAttribute('title', 'Unreadable (text)');
  });
});
