/**
 * The transcript's virtual list takes its sizes from ResizeObserver reports
 * (renderer/src/lib/interaction/transcript/measure.ts): while the call's view is built, it reads
 * no layout and scrolls nothing, so the browser is not made to lay the page out in the middle of
 * the build; the rows then stand at the heights reported after layout. And the view's second part
 * is built in a task of its own (afterWaitingTasks in renderer/src/lib/idle.ts).
 *
 * jsdom has no layout: {@link installFakeLayout} gives the list a 600 px view, rows of 50 px (one
 * of 200 px), and a ResizeObserver that reports them a microtask after they are observed.
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '$shared/domain';
import Transcript from '../../../../renderer/src/lib/interaction/transcript/Transcript.svelte';
import { afterWaitingTasks } from '../../../../renderer/src/lib/idle';
import { logEntry as entry } from '../../fake-api';
import { installFakeLayout } from '../../fake-media';

afterEach(() => {
  vi.restoreAllMocks();
});

function lines(count: number): LogEntry[] {
  return Array.from({ length: count }, (_, i) => entry(i, i % 2 === 0 ? 'agent' : 'user', `Line ${i + 1}`, i));
}

const rowTop = (row: HTMLElement) => Number(/translateY\(([\d.]+)px\)/.exec(row.style.transform)?.[1]);

describe('Transcript: sizes from ResizeObserver, no layout read while built', () => {
  it('draws its rows without reading layout or scrolling, then places them at their reported heights', async () => {
    const { scrollTo } = installFakeLayout({
      viewportPx: 600,
      rowHeight: (row) => (row.dataset.index === '1' ? 200 : 50),
    });
    const reads = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get');
    const widthReads = vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get');

    render(Transcript, { props: { log: lines(50), currentTime: 0, canSeek: true, onSeek: vi.fn() } });

    // Built: rows are drawn (at the assumed height), and nothing was read from layout.
    const drawn = screen.getAllByRole('listitem');
    expect(drawn.length).toBeGreaterThan(3);
    expect(reads).not.toHaveBeenCalled();
    expect(widthReads).not.toHaveBeenCalled();
    expect(scrollTo).not.toHaveBeenCalled();

    // After the reports: the tall second row pushes the third 200 px (plus the gap) down.
    await vi.waitFor(() => {
      const rows = screen.getAllByRole('listitem');
      expect(rowTop(rows[2]!) - rowTop(rows[1]!)).toBe(202);
    });
    const rows = screen.getAllByRole('listitem');
    expect(rowTop(rows[1]!) - rowTop(rows[0]!)).toBe(52);
  });
});

describe('afterWaitingTasks', () => {
  it('runs the work once, in a later task', async () => {
    const work = vi.fn();
    afterWaitingTasks(work);
    await Promise.resolve();
    expect(work).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(work).toHaveBeenCalledTimes(1));
  });

  it('does not run cancelled work', async () => {
    const cancelled = vi.fn();
    const kept = vi.fn();
    afterWaitingTasks(cancelled)();
    afterWaitingTasks(kept);
    await vi.waitFor(() => expect(kept).toHaveBeenCalledTimes(1));
    expect(cancelled).not.toHaveBeenCalled();
  });
});
