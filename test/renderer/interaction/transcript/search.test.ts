/**
 * Transcript search: the pure module (renderer/src/lib/interaction/transcript/search.ts), the
 * search bar in the transcript panel, and the view's `/` and Ctrl/Cmd+F shortcut.
 *
 * jsdom has no layout: {@link installFakeLayout} gives the list a 600 px view and 50 px rows, so
 * the virtual list draws a window of rows as it would in Chromium.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '$shared/domain';
import { formatCount } from '../../../../renderer/src/lib/format';
import Transcript from '../../../../renderer/src/lib/interaction/transcript/Transcript.svelte';
import {
  buildSearchIndex,
  foldForSearch,
  highlightSegments,
  searchTranscript,
  stepMatch,
  type SearchMatch,
  type TranscriptSearchIndex,
} from '../../../../renderer/src/lib/interaction/transcript/search';
import { demoSession, interaction, logEntry as entry, ok } from '../../fake-api';
import { installFakeLayout } from '../../fake-media';
import { renderWorkspace } from '../../render-app';

vi.mock('wavesurfer.js', async () => (await import('../../fake-wavesurfer')).wavesurferModule);

beforeEach(() => {
  installFakeLayout({ viewportPx: 600, rowPx: 50 });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Every match of `query`, numbered in log order, read one by one as the search bar steps through them. */
function findMatches(index: TranscriptSearchIndex, query: string): SearchMatch[] {
  const results = searchTranscript(index, query);
  const matches: SearchMatch[] = [];
  for (let k = 0; k < results.count; k += 1) {
    const match = results.at(k);
    if (match) matches.push(match);
  }
  expect(results.at(results.count)).toBeUndefined();
  return matches;
}

/** What each match covers in the original messages. */
function matchedTexts(log: LogEntry[], query: string): string[] {
  return findMatches(buildSearchIndex(log), query).map((m) => log[m.entry]!.message.slice(m.start, m.end));
}

describe('transcript-search: matching', () => {
  it('ignores accents: "reembolso" finds "Reembolsó", precomposed or decomposed', () => {
    const log = [entry(0, 'agent', 'Le hago el Reembolsó hoy.', 1), entry(1, 'user', 'El reembolso\u0301 llega?', 2)];
    expect(matchedTexts(log, 'reembolso')).toEqual(['Reembolsó', 'reembolso\u0301']);
    // And the other way round: an accented query finds the plain word.
    expect(matchedTexts([entry(0, 'agent', 'reembolso', 1)], 'REEMBOLSÓ')).toEqual(['reembolso']);
  });

  it('ignores case', () => {
    const log = [entry(0, 'agent', 'REFUND approved; a refund takes 5 days. Refund!', 1)];
    expect(matchedTexts(log, 'Refund')).toEqual(['REFUND', 'refund', 'Refund']);
  });

  it('maps matches back to the original text when folding changes lengths', () => {
    // "İ" folds to "i" plus a dot that is dropped; Hangul syllables fold to three jamo each; an
    // emoji outside the BMP is two code units. Offsets after each must still land right.
    const text = 'İstanbul 😀 café 한국 end';
    const log = [entry(0, 'user', text, 1)];
    expect(matchedTexts(log, 'istanbul')).toEqual(['İstanbul']);
    expect(matchedTexts(log, 'cafe')).toEqual(['café']);
    expect(matchedTexts(log, '국')).toEqual(['국']);
    expect(matchedTexts(log, '😀 CAFÉ')).toEqual(['😀 café']);
    expect(matchedTexts(log, 'END')).toEqual(['end']);
    const [match] = findMatches(buildSearchIndex(log), 'cafe');
    expect(match).toEqual({ entry: 0, start: text.indexOf('café'), end: text.indexOf('café') + 4 });
  });

  it('finds nothing for an empty or blank query, or text that is not there', () => {
    const index = buildSearchIndex([entry(0, 'agent', 'Hello there.', 1)]);
    expect(findMatches(index, '')).toEqual([]);
    expect(findMatches(index, '   ')).toEqual([]);
    expect(findMatches(index, 'refund')).toEqual([]);
  });

  it('finds every occurrence in log order, left to right, without overlaps', () => {
    const log = [entry(0, 'agent', 'aaaa', 1), entry(1, 'user', 'no', 2), entry(2, 'agent', 'xaax', 3)];
    expect(findMatches(buildSearchIndex(log), 'aa')).toEqual([
      { entry: 0, start: 0, end: 2 },
      { entry: 0, start: 2, end: 4 },
      { entry: 2, start: 1, end: 3 },
    ]);
    const results = searchTranscript(buildSearchIndex(log), 'aa');
    expect(results.entries).toEqual([0, 2]);
    expect([...results.byEntry]).toEqual([
      [
        0,
        [
          [0, 2],
          [2, 4],
        ],
      ],
      [2, [[1, 3]]],
    ]);
  });

  it('folds the query as the text (case, accents, a final sigma)', () => {
    expect(foldForSearch('Ça VA')).toBe('ca va');
    expect(foldForSearch('ΟΔΟΣ')).toBe(foldForSearch('οδος'));
  });

  it('cuts a message into plain, matched and current pieces', () => {
    expect(
      highlightSegments(
        'a refund, a Refund',
        [
          [2, 8],
          [12, 18],
        ],
        1,
      ),
    ).toEqual([
      { text: 'a ', mark: null },
      { text: 'refund', mark: 'match' },
      { text: ', a ', mark: null },
      { text: 'Refund', mark: 'current' },
    ]);
  });

  it('steps through matches with wrap-around at both ends', () => {
    expect(stepMatch(-1, 3, 1)).toBe(0);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });

  it('counts in English', () => {
    expect(formatCount(1, 'entry', 'entries')).toBe('1 entry');
    expect(formatCount(0, 'entry', 'entries')).toBe('0 entries');
    expect(formatCount(12, 'match', 'matches')).toBe('12 matches');
    expect(formatCount(5000, 'entry', 'entries')).toBe('5,000 entries');
    expect(formatCount(1, 'call')).toBe('1 call');
    expect(formatCount(2, 'call')).toBe('2 calls');
  });
});

/** A long call of `count` entries, one every 0.48 s, alternating agent and user; every 50th mentions a refund. */
function longLog(count: number): LogEntry[] {
  return Array.from({ length: count }, (_, i) =>
    entry(
      i,
      i % 2 === 0 ? 'agent' : 'user',
      i % 50 === 7 ? `Line ${i + 1}: about the Reembolsó you asked for` : `Line ${i + 1} of the call`,
      Math.round(i * 48) / 100,
    ),
  );
}

function renderTranscript(props: { log: LogEntry[]; currentTime?: number; canSeek?: boolean }) {
  const onSeek = vi.fn<(seconds: number) => void>();
  const result = render(Transcript, { props: { currentTime: 0, canSeek: true, onSeek, ...props } });
  return { onSeek, user: userEvent.setup(), ...result };
}

const searchBox = () => screen.getByRole('searchbox', { name: 'Search the transcript' });
const status = () => within(screen.getByRole('search')).getByRole('status');
/** Texts of the marks drawn, and of the current one. */
const marks = () => Array.from(document.querySelectorAll('mark'), (m) => m.textContent);
const currentMark = () => document.querySelector('mark.current');
const rowOf = (node: Element | null) => node?.closest('li');

describe('Transcript search bar', () => {
  const log = [
    entry(0, 'agent', 'Hello, how can I help?', 1),
    entry(1, 'user', 'I want my reembolso, please.', 4),
    entry(2, 'tool', 'refund_lookup() -> none', null),
    entry(3, 'agent', 'Your Reembolsó is on its way. REEMBOLSO confirmed.', 9),
  ];

  it('highlights every match, says "1 of 3" and steps with Enter, Shift+Enter and the buttons, wrapping', async () => {
    const { user } = renderTranscript({ log });
    await user.type(searchBox(), 'reembolso');

    expect(status()).toHaveTextContent('1 of 3');
    expect(marks()).toEqual(['reembolso', 'Reembolsó', 'REEMBOLSO']);
    expect(currentMark()).toHaveTextContent('reembolso');

    await user.keyboard('{Enter}');
    expect(status()).toHaveTextContent('2 of 3');
    expect(currentMark()).toHaveTextContent('Reembolsó');
    await user.click(screen.getByRole('button', { name: 'Next match' }));
    await user.click(screen.getByRole('button', { name: 'Next match' }));
    expect(status()).toHaveTextContent('1 of 3'); // wrapped
    await user.click(screen.getByRole('button', { name: 'Previous match' }));
    expect(status()).toHaveTextContent('3 of 3'); // wrapped back
    expect(currentMark()).toHaveTextContent('REEMBOLSO');
    searchBox().focus();
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(status()).toHaveTextContent('2 of 3');
  });

  it('says "No matches" in words and marks nothing', async () => {
    const { user } = renderTranscript({ log });
    await user.type(searchBox(), 'cancel');
    expect(status()).toHaveTextContent('No matches');
    expect(marks()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Next match' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Play from here' })).toBeDisabled();
  });

  it('Escape clears the query and every mark', async () => {
    const { user } = renderTranscript({ log });
    await user.type(searchBox(), 'REEMBOLSO');
    expect(marks()).toHaveLength(3);
    await user.keyboard('{Escape}');
    expect(searchBox()).toHaveValue('');
    expect(marks()).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Next match' })).not.toBeInTheDocument();
  });

  it('"Play from here" and Ctrl+Enter seek to the current match\'s entry; an untimed one cannot be played', async () => {
    const { user, onSeek } = renderTranscript({ log });
    await user.type(searchBox(), 'refund');
    // The only match is in the untimed tool entry.
    expect(status()).toHaveTextContent('1 of 1');
    expect(screen.getByRole('button', { name: 'Play from here' })).toBeDisabled();

    await user.clear(searchBox());
    await user.type(searchBox(), 'reembolso{Enter}');
    await user.click(screen.getByRole('button', { name: 'Play from here' }));
    expect(onSeek).toHaveBeenLastCalledWith(9);
    searchBox().focus();
    await user.keyboard('{Shift>}{Enter}{/Shift}{Control>}{Enter}{/Control}');
    expect(onSeek).toHaveBeenLastCalledWith(4);
    expect(onSeek).toHaveBeenCalledTimes(2);
  });

  it("keeps the role and time in the row's name while marking the message", async () => {
    const { user } = renderTranscript({ log });
    await user.type(searchBox(), 'help');
    expect(screen.getByRole('button', { name: 'Agent 0:01: Hello, how can I help?' })).toBeInTheDocument();
    expect(rowOf(currentMark())?.getAttribute('aria-posinset')).toBe('1');
  });

  it('shows tool and system entries as events, with an icon', async () => {
    renderTranscript({ log: [entry(0, 'system', 'Caller verified.', 0.3), entry(1, 'agent', 'Hello.', 1)] });
    const [event, speech] = await screen.findAllByRole('listitem');
    expect(event).toHaveClass('other');
    expect(event!.querySelector('svg.icon')).not.toBeNull();
    expect(speech!.querySelector('svg.icon')).toBeNull();
  });

  it('reads a count of one in the singular', () => {
    renderTranscript({ log: [entry(0, 'agent', 'Hello.', 1)] });
    expect(screen.getByRole('heading')).toHaveTextContent('Transcript 1 entry');
  });
});

describe('Transcript search on 5,000 entries', () => {
  const log = longLog(5000);

  it('finds every match, scrolls the current one into view deep in the call, in a moment', async () => {
    const { user, onSeek } = renderTranscript({ log });
    await vi.waitFor(() => expect(screen.getAllByRole('listitem').length).toBeGreaterThan(0));
    // Rows not yet drawn are assumed as high as the drawn ones (50 px here, 2 px apart, once
    // their sizes are reported after layout), so the scroll range is the transcript's real height and does not shift as rows come into view.
    await vi.waitFor(() => expect(screen.getByRole('list').style.height).toBe(`${String(5000 * 50 + 4999 * 2)}px`));
    searchBox().focus();
    await user.paste('REEMBOLSO');
    expect(status()).toHaveTextContent('1 of 100');

    // Last match: entry 4957 (0-based), far below the drawn window.
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(status()).toHaveTextContent('100 of 100');
    await vi.waitFor(() => expect(rowOf(currentMark())?.getAttribute('aria-posinset')).toBe('4958'));
    expect(screen.getAllByRole('listitem').length).toBeLessThan(40);
    await user.click(screen.getByRole('button', { name: 'Play from here' }));
    expect(onSeek).toHaveBeenCalledWith(log[4957]!.offsetSeconds);
  });
});

describe('Calls view: the search shortcut', () => {
  const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

  async function showCall() {
    const call = interaction({ sid: SID, log: [entry(0, 'agent', 'Hello.', 1), entry(1, 'user', 'Reembolsó?', 3)] });
    const rendered = await renderWorkspace(demoSession('Sample Clinic (demo)', []), {
      getInteraction: ok(call),
    });
    const sid = screen.getByRole('textbox', { name: 'Interaction SID' });
    await rendered.user.click(sid);
    await rendered.user.paste(SID);
    await rendered.user.click(screen.getByRole('button', { name: 'Show call' }));
    await screen.findByRole('searchbox', { name: 'Search the transcript' });
    return { ...rendered, sid };
  }

  it('"/" focuses the search from anywhere in the view, and is typed as text in the SID field', async () => {
    const { user, sid } = await showCall();
    (document.activeElement as HTMLElement | null)?.blur();

    await user.keyboard('/');
    expect(searchBox()).toHaveFocus();
    expect(searchBox()).toHaveValue('');

    await user.click(sid);
    await user.keyboard('/');
    expect(sid).toHaveFocus();
    expect(sid).toHaveValue(`${SID}/`);
  });

  it('Ctrl+F focuses the search too, but not while typing in the SID field', async () => {
    const { user, sid } = await showCall();
    await user.click(screen.getByRole('heading', { name: /Transcript/ }));

    await user.keyboard('{Control>}f{/Control}');
    expect(searchBox()).toHaveFocus();

    // Pressed again in the search itself, it selects the query so typing replaces it.
    await user.keyboard('refund{Control>}f{/Control}reembolso');
    expect(searchBox()).toHaveValue('reembolso');
    expect(within(screen.getByRole('search')).getByRole('status')).toHaveTextContent('1 of 1');

    await user.click(sid);
    await user.keyboard('{Control>}f{/Control}');
    expect(sid).toHaveFocus();
  });
});
