/**
 * What the transcript panel adds for finding a moment (Transcript.svelte): the times of the
 * search matches handed to the player for its ticks, flag badges on rows, the one-line timing
 * note, and stepping from entry to entry for the view's Up/Down keys.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FlaggedMoment } from '../../../../renderer/src/lib/interaction/analysis/types';
import Transcript from '../../../../renderer/src/lib/interaction/transcript/Transcript.svelte';
import { adjacentTimedEntry } from '../../../../renderer/src/lib/interaction/transcript/transcript';
import { logEntry as entry } from '../../fake-api';
import { installFakeLayout } from '../../fake-media';

beforeEach(() => {
  installFakeLayout({ viewportPx: 600, rowPx: 50 });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const log = [
  entry(0, 'agent', 'Your refund is on its way.', 2),
  entry(1, 'user', 'When does the refund arrive?', 6),
  entry(2, 'tool_call', 'lookup_refund(42)', null),
  entry(3, 'agent', 'The refund arrives in five days. Refund number 42.', 15.5),
  entry(4, 'user', 'Thanks.', 30),
];

describe('Transcript: search matches for the waveform', () => {
  it('hands over the time of each entry holding a match, once per entry, none when cleared', async () => {
    const onMatchTimes = vi.fn<(times: number[]) => void>();
    const user = userEvent.setup();
    render(Transcript, { log, currentTime: 0, canSeek: true, onSeek: () => {}, onMatchTimes });
    await vi.waitFor(() => expect(onMatchTimes).toHaveBeenLastCalledWith([]));

    await user.type(screen.getByRole('searchbox', { name: 'Search the transcript' }), 'refund');
    // Entry 2 matches too but has no time: no tick for it. The ticks follow the highlighted rows
    // once the page is idle.
    await vi.waitFor(() => expect(onMatchTimes).toHaveBeenLastCalledWith([2, 6, 15.5]));

    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(onMatchTimes).toHaveBeenLastCalledWith([]));
  });
});

describe('Transcript: flags and the timing note', () => {
  const slow: FlaggedMoment = {
    kind: 'slow_turn',
    startSeconds: 7.2,
    endSeconds: 15.5,
    entryIndex: 3,
    label: 'Slow reply: 8.3 s',
  };
  const overlap: FlaggedMoment = {
    kind: 'talk_over',
    startSeconds: 20,
    endSeconds: 21.4,
    entryIndex: 3,
    label: 'Talk-over: 1.4 s',
  };

  it('shows a badge per flagged moment on its row and names them in the row', () => {
    render(Transcript, {
      log,
      currentTime: 0,
      canSeek: true,
      onSeek: () => {},
      flagsByEntry: new Map([[3, [slow, overlap]]]),
    });

    const row = screen.getByRole('button', { name: /five days/ });
    expect(row).toHaveAccessibleName(
      'Agent 0:15 Slow reply 8.3 s Talk-over: The refund arrives in five days. Refund number 42.. Flagged: Slow reply: 8.3 s; Talk-over: 1.4 s',
    );
    expect(within(row).getByText('Slow reply 8.3 s')).toHaveAttribute('title', 'Slow reply: 8.3 s');
    expect(within(row).getByText('Talk-over')).toHaveAttribute('title', 'Talk-over: 1.4 s');
    expect(screen.getAllByText(/Slow reply|Talk-over/)).toHaveLength(2);
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('shows the timing note in one line above the transcript', () => {
    const note = 'The recording is 2 min 00 s long but the call lasted 10 min 00 s, so the times may not match.';
    render(Transcript, { log, currentTime: 0, canSeek: true, onSeek: () => {}, timingNote: note });

    const line = screen.getByRole('note');
    expect(line).toHaveTextContent(note);
    // Above the list: it comes before the search bar and the rows.
    const search = screen.getByRole('search');
    expect(line.compareDocumentPosition(search) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('Transcript: stepping from entry to entry', () => {
  it('finds the next and previous timed entry, skipping untimed ones', () => {
    expect(adjacentTimedEntry(log, -1, 1)).toBe(0);
    expect(adjacentTimedEntry(log, 1, 1)).toBe(3);
    expect(adjacentTimedEntry(log, 3, -1)).toBe(1);
    expect(adjacentTimedEntry(log, 0, -1)).toBeNull();
    expect(adjacentTimedEntry(log, 4, 1)).toBeNull();
  });

  it('seeks to the entry after and before the current one, and not without a recording', async () => {
    const onSeek = vi.fn<(seconds: number) => void>();
    const { component, rerender } = render(Transcript, { log, currentTime: 7, canSeek: true, onSeek });
    const transcript = component as unknown as { stepEntry: (direction: 1 | -1) => void };

    transcript.stepEntry(1);
    expect(onSeek).toHaveBeenLastCalledWith(15.5);
    transcript.stepEntry(-1);
    expect(onSeek).toHaveBeenLastCalledWith(2);

    onSeek.mockClear();
    await rerender({ canSeek: false });
    transcript.stepEntry(1);
    expect(onSeek).not.toHaveBeenCalled();
  });
});
