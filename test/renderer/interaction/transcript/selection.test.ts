/**
 * Picking transcript entries for an excerpt (Transcript.svelte fed by props): a row's pick box,
 * shift-click on a box or an entry to extend the pick to a contiguous range, Shift+Up/Down from
 * a row, Escape to clear; the bar above the list counts the entries and copies them through the
 * shared excerpt formatter (user-event's clipboard stand-in). A plain click on an entry still
 * seeks; a shift-click does not.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '$shared/domain';
import { excerptMarkdown, excerptText } from '$shared/excerpt';
import Transcript from '../../../../renderer/src/lib/interaction/transcript/Transcript.svelte';
import { logEntry as entry } from '../../fake-api';
import { installFakeLayout } from '../../fake-media';

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const WORKSPACE = 'Production';
const log: LogEntry[] = Array.from({ length: 8 }, (_, i) =>
  entry(i, i % 2 === 0 ? 'agent' : 'user', `Line ${i + 1} of the call`, i * 4),
);

beforeEach(() => {
  installFakeLayout({ viewportPx: 600, rowPx: 50 });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function renderTranscript(canSeek = true) {
  const user = userEvent.setup();
  const onSeek = vi.fn<(seconds: number) => void>();
  render(Transcript, {
    props: { log, currentTime: 0, canSeek, onSeek, excerpt: { sid: SID, workspaceName: WORKSPACE } },
  });
  return { user, onSeek };
}

/** The pick box of entry `n` (1-based, as its name says). */
const box = (n: number) => screen.getByRole('checkbox', { name: `Select entry ${n} for an excerpt` });
/** 1-based positions of the rows shown as picked, and of the boxes ticked. */
function picked(): { rows: number[]; boxes: number[] } {
  const items = screen.getAllByRole('listitem');
  const position = (row: HTMLElement) => Number(row.getAttribute('aria-posinset'));
  return {
    rows: items.filter((row) => row.classList.contains('selected')).map(position),
    boxes: items.filter((row) => within(row).getByRole<HTMLInputElement>('checkbox').checked).map(position),
  };
}
const bar = () => screen.queryByRole('group', { name: 'Excerpt' });

describe('picking transcript entries for an excerpt', () => {
  it('picks an entry with its box and extends the pick with a shift-click, either way', async () => {
    const { user, onSeek } = renderTranscript();
    await screen.findAllByRole('listitem');
    expect(bar()).not.toBeInTheDocument();

    await user.click(box(3));
    expect(picked()).toEqual({ rows: [3], boxes: [3] });
    expect(within(bar()!).getByText('1 entry selected')).toBeInTheDocument();

    await user.keyboard('{Shift>}');
    await user.click(box(5));
    await user.keyboard('{/Shift}');
    expect(picked()).toEqual({ rows: [3, 4, 5], boxes: [3, 4, 5] });
    expect(within(bar()!).getByText('3 entries selected')).toBeInTheDocument();

    // Shift-click on an entry extends too (from the same first pick), without seeking.
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('button', { name: /Line 1 of the call/ }));
    await user.keyboard('{/Shift}');
    expect(picked()).toEqual({ rows: [1, 2, 3], boxes: [1, 2, 3] });
    expect(onSeek).not.toHaveBeenCalled();

    // A plain click on an entry seeks as before and leaves the pick alone.
    await user.click(screen.getByRole('button', { name: /Line 7 of the call/ }));
    expect(onSeek).toHaveBeenCalledWith(24);
    expect(picked().rows).toEqual([1, 2, 3]);
  });

  it('picks one entry alone when a box inside the pick is clicked, and nothing when it is clicked again', async () => {
    const { user } = renderTranscript();
    await screen.findAllByRole('listitem');
    await user.click(box(2));
    await user.keyboard('{Shift>}');
    await user.click(box(4));
    await user.keyboard('{/Shift}');

    await user.click(box(3));
    expect(picked()).toEqual({ rows: [3], boxes: [3] });

    await user.click(box(3));
    expect(picked()).toEqual({ rows: [], boxes: [] });
    expect(bar()).not.toBeInTheDocument();
  });

  it('extends the pick with Shift+Down and Shift+Up from a row, and Escape clears it', async () => {
    const { user } = renderTranscript();
    const second = await screen.findByRole('button', { name: /Line 2 of the call/ });
    second.focus();

    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(picked()).toEqual({ rows: [2, 3, 4], boxes: [2, 3, 4] });
    expect(box(4)).toHaveFocus();

    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(picked().rows).toEqual([2, 3]);
    expect(box(3)).toHaveFocus();

    // Plain arrows on a pick box move between boxes without changing the pick.
    await user.keyboard('{ArrowDown}');
    expect(box(4)).toHaveFocus();
    expect(picked().rows).toEqual([2, 3]);

    await user.keyboard('{Escape}');
    expect(picked()).toEqual({ rows: [], boxes: [] });
    expect(bar()).not.toBeInTheDocument();
  });

  it('picks entries without a recording too (the entries cannot seek, the boxes still pick)', async () => {
    const { user } = renderTranscript(false);
    await screen.findAllByRole('listitem');
    await user.click(box(1));
    box(1).focus();
    await user.keyboard('{Shift>}{ArrowDown}{/Shift}');
    expect(picked().rows).toEqual([1, 2]);
  });

  it('copies the picked range as text and as Markdown with the shared formatter, and Clear empties it', async () => {
    const { user } = renderTranscript();
    await screen.findAllByRole('listitem');
    await user.click(box(2));
    await user.keyboard('{Shift>}');
    await user.click(box(4));
    await user.keyboard('{/Shift}');
    const input = { sid: SID, workspaceName: WORKSPACE, entries: log.slice(1, 4) };

    await user.click(within(bar()!).getByRole('button', { name: 'Copy as text' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(excerptText(input));
    expect((await navigator.clipboard.readText()).split('\n').slice(2)).toEqual([
      '[00:04] Caller: Line 2 of the call',
      '[00:08] Agent: Line 3 of the call',
      '[00:12] Caller: Line 4 of the call',
    ]);

    await user.click(within(bar()!).getByRole('button', { name: 'Copy as Markdown' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(excerptMarkdown(input));

    await user.click(within(bar()!).getByRole('button', { name: 'Clear' }));
    expect(picked().rows).toEqual([]);
  });

  it('clears the pick with Escape pressed in the bar', async () => {
    const { user } = renderTranscript();
    await screen.findAllByRole('listitem');
    await user.click(box(5));
    within(bar()!).getByRole('button', { name: 'Clear' }).focus();
    await user.keyboard('{Escape}');
    expect(bar()).not.toBeInTheDocument();
  });
});
