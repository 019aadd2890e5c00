/** The transcript panel alone (renderer/src/lib/Transcript.svelte), fed by props. */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '../../electron/shared/domain';
import Transcript from '../../renderer/src/lib/Transcript.svelte';

// jsdom has no layout, so no scrollIntoView; the panel calls it to keep the current row in view.
const scrollIntoView = vi.fn();
beforeEach(() => {
  scrollIntoView.mockClear();
  Element.prototype.scrollIntoView = scrollIntoView;
});

function entry(index: number, role: string, message: string, offsetSeconds: number | null): LogEntry {
  return { index, role, message, offsetSeconds };
}

function renderTranscript(props: { log: LogEntry[]; currentTime?: number; canSeek?: boolean }) {
  const onSeek = vi.fn<(seconds: number) => void>();
  const result = render(Transcript, { props: { currentTime: 0, canSeek: true, onSeek, ...props } });
  return { onSeek, ...result };
}

const rows = () => screen.getAllByRole('listitem');
/** Messages of the rows marked current. */
const currentMessages = () =>
  rows()
    .filter((row) => row.getAttribute('aria-current') === 'true')
    .map((row) => row.querySelector('.message')?.textContent);

describe('Transcript: the current entry', () => {
  const log = [
    entry(0, 'agent', 'Hello, Sample Clinic.', 2),
    entry(1, 'user', 'I need a refill.', 5),
    entry(2, 'agent', 'Which medication?', 9),
  ];

  it('marks no row before the first entry starts', () => {
    renderTranscript({ log, currentTime: 1.5 });
    expect(currentMessages()).toEqual([]);
    expect(scrollIntoView).not.toHaveBeenCalled();
  });

  it('marks the entry being spoken and keeps it in view', () => {
    renderTranscript({ log, currentTime: 6 });
    expect(currentMessages()).toEqual(['I need a refill.']);
    expect(scrollIntoView.mock.contexts.at(-1)).toBe(rows()[1]);
  });

  it('moves the mark as the time changes, including exactly on an offset', async () => {
    const { rerender } = renderTranscript({ log, currentTime: 0 });
    await rerender({ currentTime: 2 });
    expect(currentMessages()).toEqual(['Hello, Sample Clinic.']);
    await rerender({ currentTime: 9 });
    expect(currentMessages()).toEqual(['Which medication?']);
    await rerender({ currentTime: 4.9 });
    expect(currentMessages()).toEqual(['Hello, Sample Clinic.']);
  });

  it('never marks an untimed entry; the last timed one before it stays current', () => {
    renderTranscript({
      log: [
        entry(0, 'system', 'Call connected.', null),
        entry(1, 'agent', 'Hello.', 1),
        entry(2, 'tool', 'lookup_patient()', null),
        entry(3, 'agent', 'Found you.', 8),
      ],
      currentTime: 5,
    });
    expect(currentMessages()).toEqual(['Hello.']);
  });

  it('marks the current entry when the call opens with untimed entries', () => {
    renderTranscript({
      log: [
        entry(0, 'system', 'Call connected.', null),
        entry(1, 'system', 'Recording started.', null),
        entry(2, 'agent', 'Hello.', 1),
        entry(3, 'user', 'Hi, a question about my bill.', 4),
      ],
      currentTime: 5,
    });
    expect(currentMessages()).toEqual(['Hi, a question about my bill.']);
  });
});

describe('Transcript: rows', () => {
  it('shows role, m:ss offset and message per row; an untimed row shows a dash', () => {
    renderTranscript({
      log: [entry(0, 'agent', 'Hello.', 3.7), entry(1, 'tool_result', 'ok', null), entry(2, 'user', 'Bye.', 125)],
    });
    expect(screen.getByRole('heading')).toHaveTextContent('Transcript 3 entries');
    expect(rows().map((row) => row.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Agent 0:03 Hello.',
      'Tool result — ok',
      'User 2:05 Bye.',
    ]);
  });

  it('names each row for assistive technology by role, time and message', () => {
    renderTranscript({ log: [entry(0, 'agent', 'Hello.', 3.7), entry(1, 'user', 'Bye.', 125)] });
    expect(screen.getByRole('button', { name: 'Agent at 0:03: Hello.' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'User at 2:05: Bye.' })).toBeInTheDocument();
  });

  it('does not announce a time for an untimed row', () => {
    renderTranscript({ log: [entry(0, 'tool', 'lookup_patient()', null)] });
    const button = within(rows()[0]!).getByRole('button');
    expect(button).toHaveAccessibleName(/lookup_patient\(\)/);
    expect(button).not.toHaveAccessibleName(/0:00/);
  });

  it('seeks to the offset of a clicked row', async () => {
    const user = userEvent.setup();
    const { onSeek } = renderTranscript({ log: [entry(0, 'agent', 'Hello.', 2), entry(1, 'user', 'Bye.', 12.5)] });

    await user.click(screen.getByRole('button', { name: /Bye\./ }));

    expect(onSeek).toHaveBeenCalledTimes(1);
    expect(onSeek).toHaveBeenCalledWith(12.5);
  });

  it('cannot seek to an untimed row', async () => {
    const user = userEvent.setup();
    const { onSeek } = renderTranscript({ log: [entry(0, 'tool', 'lookup_patient()', null), entry(1, 'agent', 'Hello.', 2)] });

    const untimed = within(rows()[0]!).getByRole('button');
    expect(untimed).toBeDisabled();
    expect(screen.getByRole('button', { name: /Hello\./ })).toBeEnabled();
    await user.click(untimed);
    expect(onSeek).not.toHaveBeenCalled();
  });

  it('disables every row when there is nothing to seek in', async () => {
    const user = userEvent.setup();
    const { onSeek } = renderTranscript({ log: [entry(0, 'agent', 'Hello.', 2), entry(1, 'user', 'Bye.', 12.5)], canSeek: false });

    const buttons = screen.getAllByRole('button');
    expect(buttons).toHaveLength(2);
    for (const button of buttons) expect(button).toBeDisabled();
    await user.click(buttons[1]!);
    expect(onSeek).not.toHaveBeenCalled();
  });

  it('says so when the call has no transcript', () => {
    renderTranscript({ log: [] });
    expect(screen.getByText('This call has no transcript.')).toBeInTheDocument();
    expect(screen.getByRole('heading')).toHaveTextContent('Transcript 0 entries');
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });
});
