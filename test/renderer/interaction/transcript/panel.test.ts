/**
 * The transcript panel alone (renderer/src/lib/Transcript.svelte), fed by props.
 *
 * jsdom has no layout: {@link installFakeLayout} gives the list a 600 px view and each row a
 * height, so the virtual list draws a window of rows as it would in Chromium.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '$shared/domain';
import Transcript from '../../../../renderer/src/lib/interaction/transcript/Transcript.svelte';
import { logEntry as entry } from '../../fake-api';
import { installFakeLayout } from '../../fake-media';

beforeEach(() => {
  installFakeLayout({ viewportPx: 600, rowPx: 50 });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A long call: `count` entries, one every 0.48 s..., alternating agent and user. */
function longLog(count: number, everySeconds = 0.48): LogEntry[] {
  return Array.from({ length: count }, (_, i) =>
    entry(i, i % 2 === 0 ? 'agent' : 'user', `Line ${i + 1} of the call`, Math.round(i * everySeconds * 100) / 100),
  );
}

function renderTranscript(props: { log: LogEntry[]; currentTime?: number; canSeek?: boolean }) {
  const onSeek = vi.fn<(seconds: number) => void>();
  const result = render(Transcript, { props: { currentTime: 0, canSeek: true, onSeek, ...props } });
  return { onSeek, ...result };
}

const rows = () => screen.getAllByRole('listitem');
const scroller = () => screen.getByRole('list').parentElement as HTMLElement;
/** Messages of the rows marked current. */
const currentMessages = () =>
  rows()
    .filter((row) => row.getAttribute('aria-current') === 'true')
    .map((row) => row.querySelector('.message')?.textContent);
/** 1-based positions (aria-posinset) of the rows in the DOM. */
const positions = () => rows().map((row) => Number(row.getAttribute('aria-posinset')));

describe('Transcript: the current entry', () => {
  const log = [
    entry(0, 'agent', 'Hello, Sample Clinic.', 2),
    entry(1, 'user', 'I need a refill.', 5),
    entry(2, 'agent', 'Which medication?', 9),
  ];

  it('marks no row before the first entry starts', async () => {
    renderTranscript({ log, currentTime: 1.5 });
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    expect(currentMessages()).toEqual([]);
  });

  it('marks the entry being spoken', async () => {
    renderTranscript({ log, currentTime: 6 });
    await vi.waitFor(() => expect(currentMessages()).toEqual(['I need a refill.']));
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

  it('never marks an untimed entry; the last timed one before it stays current', async () => {
    renderTranscript({
      log: [
        entry(0, 'system', 'Call connected.', null),
        entry(1, 'agent', 'Hello.', 1),
        entry(2, 'tool', 'lookup_patient()', null),
        entry(3, 'agent', 'Found you.', 8),
      ],
      currentTime: 5,
    });
    await vi.waitFor(() => expect(currentMessages()).toEqual(['Hello.']));
  });

  it('marks the current entry when the call opens with untimed entries', async () => {
    renderTranscript({
      log: [
        entry(0, 'system', 'Call connected.', null),
        entry(1, 'system', 'Recording started.', null),
        entry(2, 'agent', 'Hello.', 1),
        entry(3, 'user', 'Hi, a question about my bill.', 4),
      ],
      currentTime: 5,
    });
    await vi.waitFor(() => expect(currentMessages()).toEqual(['Hi, a question about my bill.']));
  });
});

describe('Transcript: rows', () => {
  it('shows role, m:ss offset and message per row; an untimed row shows a dash', async () => {
    renderTranscript({
      log: [entry(0, 'agent', 'Hello.', 3.7), entry(1, 'tool_result', 'ok', null), entry(2, 'user', 'Bye.', 125)],
    });
    expect(screen.getByRole('heading')).toHaveTextContent('Transcript 3 entries');
    await vi.waitFor(() =>
      expect(rows().map((row) => row.textContent.replace(/\s+/g, ' ').trim())).toEqual([
        'Agent 0:03 Hello.',
        'Tool result — ok',
        'Caller 2:05 Bye.',
      ]),
    );
  });

  it('names each row for assistive technology by role, time and message, and its place in the list', async () => {
    renderTranscript({ log: [entry(0, 'agent', 'Hello.', 3.7), entry(1, 'user', 'Bye.', 125)] });
    expect(await screen.findByRole('button', { name: 'Agent 0:03: Hello.' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Caller 2:05: Bye.' })).toBeInTheDocument();
    expect(rows().map((row) => [row.getAttribute('aria-posinset'), row.getAttribute('aria-setsize')])).toEqual([
      ['1', '2'],
      ['2', '2'],
    ]);
  });

  it('does not announce a time for an untimed row', async () => {
    renderTranscript({ log: [entry(0, 'tool', 'lookup_patient()', null)] });
    const button = within((await screen.findAllByRole('listitem'))[0]!).getByRole('button');
    expect(button).toHaveAccessibleName(/lookup_patient\(\)/);
    expect(button).not.toHaveAccessibleName(/0:00/);
  });

  it('seeks to the offset of a clicked row', async () => {
    const user = userEvent.setup();
    const { onSeek } = renderTranscript({ log: [entry(0, 'agent', 'Hello.', 2), entry(1, 'user', 'Bye.', 12.5)] });

    await user.click(await screen.findByRole('button', { name: /Bye\./ }));

    expect(onSeek).toHaveBeenCalledTimes(1);
    expect(onSeek).toHaveBeenCalledWith(12.5);
  });

  it('cannot seek to an untimed row', async () => {
    const user = userEvent.setup();
    const { onSeek } = renderTranscript({
      log: [entry(0, 'tool', 'lookup_patient()', null), entry(1, 'agent', 'Hello.', 2)],
    });

    const untimed = within((await screen.findAllByRole('listitem'))[0]!).getByRole('button');
    expect(untimed).toBeDisabled();
    expect(screen.getByRole('button', { name: /Hello\./ })).toBeEnabled();
    await user.click(untimed);
    expect(onSeek).not.toHaveBeenCalled();
  });

  it('disables every row when there is nothing to seek in', async () => {
    const user = userEvent.setup();
    const { onSeek } = renderTranscript({
      log: [entry(0, 'agent', 'Hello.', 2), entry(1, 'user', 'Bye.', 12.5)],
      canSeek: false,
    });

    const buttons = await screen.findAllByRole('button');
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

describe('Transcript: 5,000 entries', () => {
  const log = longLog(5000);

  it('puts only a window of rows in the DOM, each saying where it is in the whole list', async () => {
    renderTranscript({ log });
    expect(screen.getByRole('heading')).toHaveTextContent('Transcript 5,000 entries');
    await vi.waitFor(() => expect(rows().length).toBeGreaterThan(0));
    // 600 px of view at about 50 px a row is 12 rows; a few more are drawn either side.
    expect(rows().length).toBeGreaterThanOrEqual(12);
    expect(rows().length).toBeLessThan(40);
    expect(positions()[0]).toBe(1);
    for (const row of rows()) expect(row).toHaveAttribute('aria-setsize', '5000');
    // The list is as tall as all rows together, so the scrollbar is right.
    expect(parseFloat(screen.getByRole('list').style.height)).toBeGreaterThan(5000 * 50);
  });

  it('follows playback deep into the call: the current row is drawn, marked and scrolled to', async () => {
    const { rerender } = renderTranscript({ log, currentTime: 0 });
    await vi.waitFor(() => expect(currentMessages()).toEqual(['Line 1 of the call']));

    const time = log[4200]!.offsetSeconds! + 0.1; // minute 33 or so
    await rerender({ currentTime: time });

    await vi.waitFor(() => expect(currentMessages()).toEqual(['Line 4201 of the call']));
    expect(scroller().scrollTop).toBeGreaterThan(4000 * 50);
    expect(rows().length).toBeLessThan(40);
    expect(positions()).toContain(4201);
    expect(positions()).not.toContain(1);
  });

  it('stops following when the user scrolls away, and "Follow playback" brings the current row back', async () => {
    const { rerender } = renderTranscript({ log, currentTime: log[10]!.offsetSeconds! });
    await vi.waitFor(() => expect(currentMessages()).toEqual(['Line 11 of the call']));
    expect(screen.queryByRole('button', { name: 'Follow playback' })).not.toBeInTheDocument();

    // The user wheels far down the list.
    const area = scroller();
    await fireEvent.wheel(area, { deltaY: 3000 });
    area.scrollTop = 100_000;
    await fireEvent.scroll(area);
    const follow = await screen.findByRole('button', { name: 'Follow playback' });

    // Playback moves on; the list stays where the user put it.
    await rerender({ currentTime: log[12]!.offsetSeconds! });
    expect(area.scrollTop).toBe(100_000);
    expect(currentMessages()).toEqual([]); // row 13 is not drawn down here

    await userEvent.setup().click(follow);
    await vi.waitFor(() => expect(currentMessages()).toEqual(['Line 13 of the call']));
    expect(area.scrollTop).toBeLessThan(1000);
    expect(screen.queryByRole('button', { name: 'Follow playback' })).not.toBeInTheDocument();
  });

  it('keeps the place of a reader who scrolled away before the first entry started', async () => {
    const late = longLog(5000).map((e) => ({ ...e, offsetSeconds: e.offsetSeconds! + 20 }));
    const { rerender } = renderTranscript({ log: late, currentTime: 5 });
    await vi.waitFor(() => expect(rows().length).toBeGreaterThan(0));
    expect(currentMessages()).toEqual([]);

    // During the call's opening silence the user wheels down to read further on.
    const area = scroller();
    await fireEvent.wheel(area, { deltaY: 3000 });
    area.scrollTop = 100_000;
    await fireEvent.scroll(area);

    // The first entry becomes current: the list stays where the user put it, and offers to follow.
    await rerender({ currentTime: late[0]!.offsetSeconds + 0.1 });
    await screen.findByRole('button', { name: 'Follow playback' });
    expect(area.scrollTop).toBe(100_000);
  });

  it('moves keyboard focus row by row with the arrow keys, past the drawn window, and Enter seeks', async () => {
    const user = userEvent.setup();
    const { onSeek } = renderTranscript({ log });
    const first = await screen.findByRole('button', { name: /Line 1 of the call/ });
    first.focus();

    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('button', { name: /Line 3 of the call/ })).toHaveFocus();

    await user.keyboard('{End}');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: /Line 5000 of the call/ })).toHaveFocus());

    await user.keyboard('{Enter}');
    expect(onSeek).toHaveBeenCalledWith(log[4999]!.offsetSeconds);
  });

  it('keeps tall rows apart: a row of several lines gets its measured height', async () => {
    installFakeLayout({
      viewportPx: 600,
      rowHeight: (row) => (row.dataset.index === '1' ? 200 : 50),
    });
    renderTranscript({ log: longLog(50) });
    await vi.waitFor(() => expect(rows().length).toBeGreaterThan(3));
    const top = (i: number) => Number(/translateY\(([\d.]+)px\)/.exec(rows()[i]!.style.transform)?.[1]);
    await vi.waitFor(() => expect(top(2) - top(1)).toBeGreaterThanOrEqual(200));
    expect(top(1) - top(0)).toBeLessThan(60);
  });
});
