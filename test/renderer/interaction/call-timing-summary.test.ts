/**
 * The call's turn timing summary (CallTimingSummary.svelte) and the stored slow-reply threshold
 * (timing-settings.ts): figures that play from their moment, the note when the figures come from
 * the log's times, and a threshold that refuses anything but 0.5 to 10 s in 0.5 s steps.
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TurnGap, TurnTiming } from '../../../renderer/src/lib/interaction/analysis/types';
import CallTimingSummary from '../../../renderer/src/lib/interaction/CallTimingSummary.svelte';
import {
  loadSlowReplySeconds,
  parseSlowReplySeconds,
  saveSlowReplySeconds,
  SLOW_REPLY_STORAGE_KEY,
} from '../../../renderer/src/lib/interaction/timing-settings';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

function gap(startSeconds: number, gapSeconds: number, source: TurnGap['source'] = 'audio'): TurnGap {
  return {
    userEntryIndex: 0,
    agentEntryIndex: 1,
    startSeconds,
    endSeconds: startSeconds + gapSeconds,
    gapSeconds,
    source,
  };
}

/** Gaps of 0.5 s at 10 s, 0.9 s at 20 s, 1.0 s at 30 s and 4.0 s at 40 s; two talk-overs; a 6 s silence at 70 s. */
function timing(overrides: Partial<TurnTiming> = {}): TurnTiming {
  const gaps = [gap(10, 0.5), gap(20, 0.9), gap(30, 1), gap(40, 4)];
  return {
    gaps,
    talkOver: [
      { startSeconds: 55, endSeconds: 56.5 },
      { startSeconds: 90, endSeconds: 91 },
    ],
    silences: [{ startSeconds: 70, endSeconds: 76 }],
    flagged: [],
    summary: {
      medianGapSeconds: 0.8,
      p90GapSeconds: 3.1,
      longestGap: gaps[3] ?? null,
      talkOverCount: 2,
      longestSilence: { startSeconds: 70, endSeconds: 76 },
    },
    basis: 'audio',
    basisNote: null,
    ...overrides,
  };
}

function renderSummary(props: Partial<Parameters<typeof CallTimingSummary>[1]> = {}) {
  const onSeek = vi.fn<(seconds: number) => void>();
  const onThreshold = vi.fn((seconds: number) => parseSlowReplySeconds(seconds) !== null);
  const user = userEvent.setup();
  render(CallTimingSummary, {
    timing: timing(),
    slowGapSeconds: 1.5,
    onThreshold,
    canSeek: true,
    pending: false,
    onSeek,
    ...props,
  });
  return { user, onSeek, onThreshold };
}

describe('Turn timing summary', () => {
  it('shows each figure in words, and each plays from its moment', async () => {
    const { user, onSeek } = renderSummary();

    const figures: Array<[RegExp, number]> = [
      // The median and p90 play from the reply nearest to them.
      [/^Median reply: 0\.8 s\. Listen from there$/, 20],
      [/^p90 reply: 3\.1 s\. Listen from there$/, 40],
      [/^Longest reply: 4\.0 s\. Listen from there$/, 40],
      [/^Talk-over: 2 times\. Listen from there$/, 55],
      [/^Longest silence: 6\.0 s\. Listen from there$/, 70],
    ];
    for (const [name, at] of figures) {
      onSeek.mockClear();
      await user.click(screen.getByRole('button', { name }));
      expect(onSeek).toHaveBeenCalledWith(at);
    }
    expect(screen.queryByText(/estimated from the transcript times/)).not.toBeInTheDocument();
  });

  it('shows a dash and no button for a figure with no moment', () => {
    renderSummary({
      timing: timing({
        gaps: [],
        talkOver: [],
        silences: [],
        summary: {
          medianGapSeconds: null,
          p90GapSeconds: null,
          longestGap: null,
          talkOverCount: 0,
          longestSilence: null,
        },
      }),
    });

    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText('Median reply').nextElementSibling).toHaveTextContent('—');
    expect(screen.getByText('Talk-over').nextElementSibling).toHaveTextContent('0 times');
  });

  it('says why when the figures come from the transcript times, not the audio', () => {
    const note = 'There is no waveform for this call, so reply gaps are estimated from the transcript times.';
    renderSummary({ timing: timing({ basis: 'log', basisNote: note }) });

    expect(screen.getByText(note)).toBeVisible();
  });

  it('says the figures are provisional while the waveform is still computed', () => {
    renderSummary({ pending: true, timing: timing({ basis: 'log', basisNote: 'No waveform.' }) });

    expect(screen.getByRole('status')).toHaveTextContent(
      "Figures from the transcript's times until the waveform is complete.",
    );
    expect(screen.queryByText('No waveform.')).not.toBeInTheDocument();
  });

  it('does not seek without a recording', () => {
    renderSummary({ canSeek: false });

    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText('Longest reply').nextElementSibling).toHaveTextContent('4.0 s');
  });

  it('sets the threshold, and refuses garbage with words, keeping what was typed', async () => {
    const { user, onThreshold } = renderSummary();
    const field = screen.getByRole('spinbutton', { name: 'Flag replies slower than' });
    expect(field).toHaveValue(1.5);
    expect(field).toHaveAccessibleDescription('0 moments flagged. N and P go through them.');

    await user.clear(field);
    await user.type(field, '12');
    expect(onThreshold).toHaveBeenLastCalledWith(12);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Enter a number of seconds from 0.5 to 10, in steps of 0.5.');
    expect(field).toHaveValue(12);

    await user.clear(field);
    await user.type(field, '3');
    expect(onThreshold).toHaveBeenLastCalledWith(3);
    expect(field).toHaveAttribute('aria-invalid', 'false');
  });
});

describe('Stored slow-reply threshold', () => {
  it('accepts 0.5 to 10 s in 0.5 s steps and nothing else', () => {
    for (const ok of [0.5, 1, 1.5, 3.5, 10, '2', ' 4.5 ']) expect(parseSlowReplySeconds(ok)).toBe(Number(ok));
    for (const bad of [0, 0.25, 0.7, 10.5, -1, NaN, Infinity, '', 'banana', '1,5', null, undefined, {}, [2], true]) {
      expect(parseSlowReplySeconds(bad)).toBeNull();
    }
  });

  it('is 1.5 s until set, and what was stored after', () => {
    expect(loadSlowReplySeconds()).toBe(1.5);
    expect(saveSlowReplySeconds(3)).toBe(true);
    expect(localStorage.getItem(SLOW_REPLY_STORAGE_KEY)).toBe('3');
    expect(loadSlowReplySeconds()).toBe(3);
  });

  it('refuses to store garbage, and reads stored garbage as the default', () => {
    expect(saveSlowReplySeconds(0.7)).toBe(false);
    expect(saveSlowReplySeconds(Number.NaN)).toBe(false);
    expect(localStorage.getItem(SLOW_REPLY_STORAGE_KEY)).toBeNull();
    for (const stored of ['banana', '-3', '99', '', '{"seconds":2}']) {
      localStorage.setItem(SLOW_REPLY_STORAGE_KEY, stored);
      expect(loadSlowReplySeconds()).toBe(1.5);
    }
  });

  it('falls back to the default when storage refuses access', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(loadSlowReplySeconds()).toBe(1.5);
    expect(saveSlowReplySeconds(2)).toBe(false);
  });
});
