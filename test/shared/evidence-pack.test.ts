import { describe, expect, it } from 'vitest';
import { parseInteractionLink } from '$shared/deep-link';
import {
  audioRedactionNote,
  packExcerptText,
  ticketMarkdown,
  timingFactsText,
  type TicketBlockInput,
} from '$shared/evidence-pack';
import { DEFAULT_REDACTION_SETTINGS } from '$shared/redaction';

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

function input(overrides: Partial<TicketBlockInput> = {}): TicketBlockInput {
  return {
    sid: SID,
    workspaceName: 'Acme (EU)',
    range: { startSeconds: 65, endSeconds: 100 },
    entries: [
      { index: 4, role: 'agent', message: 'Can I take the card number?', offsetSeconds: 65 },
      { index: 5, role: 'user', message: 'four four seven nine, one two three four', offsetSeconds: 70.5 },
      { index: 6, role: 'agent', message: 'Thanks, *charging* now.', offsetSeconds: 80 },
    ],
    flagged: [
      { startSeconds: 10, endSeconds: 13, label: 'Slow reply: 3.0 s' },
      { startSeconds: 76, endSeconds: 79.2, label: 'Slow reply: 3.2 s' },
      { startSeconds: 90, endSeconds: 91.4, label: 'Talk-over: 1.4 s' },
    ],
    verdict: 'fail',
    scorePercent: 62.5,
    tags: ['billing', 'pci'],
    ticket: { kind: 'id', id: 'SUP-42' },
    notes: [
      {
        id: 'a',
        sid: SID,
        startSeconds: 71,
        endSeconds: null,
        text: 'Card read aloud: 4111 1111 1111 1111',
        createdAtMs: 1,
        updatedAtMs: 1,
      },
      {
        id: 'b',
        sid: SID,
        startSeconds: 5,
        endSeconds: null,
        text: 'Outside the range',
        createdAtMs: 1,
        updatedAtMs: 1,
      },
      {
        id: 'c',
        sid: SID,
        startSeconds: 60,
        endSeconds: 66,
        text: 'Range note\nsecond line',
        createdAtMs: 1,
        updatedAtMs: 1,
      },
    ],
    redaction: DEFAULT_REDACTION_SETTINGS,
    ...overrides,
  };
}

/** Every `(<voice-review://…>)` link of a Markdown text, read back by the app's own link reader. */
function linksOf(markdown: string) {
  return [...markdown.matchAll(/\]\(<(voice-review:[^>]+)>\)/g)].map((m) => {
    const parsed = parseInteractionLink(m[1]);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.link;
  });
}

describe('Copy for ticket', () => {
  it('holds the link at the range start, the verdict, the flagged moments and notes in the range as links, and the masked excerpt', () => {
    const block = ticketMarkdown(input());
    expect(block.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(
        /^\*\*Voice Review evidence\*\* · \[Open at 01:05\]\(<voice-review:\/\/.+>\) · 01:05–01:40$/,
      ) as string,
      '**Verdict:** Fail · **Score:** 63 % · **Tags:** billing, pci · **Ticket:** SUP-42',
    ]);
    expect(linksOf(block).map((l) => [l.atSeconds, l.workspaceName, l.sid])).toEqual([
      [65, 'Acme (EU)', SID],
      [76, 'Acme (EU)', SID],
      [90, 'Acme (EU)', SID],
      [60, 'Acme (EU)', SID],
      [71, 'Acme (EU)', SID],
    ]);
    expect(block).toContain('Slow reply: 3.2 s');
    expect(block).not.toContain('3.0 s');
    expect(block).not.toContain('Outside the range');
    expect(block).toContain('Range note\\\n  second line');
    expect(block).toContain('Card read aloud: \\[card number\\]');
    expect(block).toContain('**Excerpt** (personal data masked)');
    expect(block).toContain('- `[01:10]` **Caller:** \\[number\\]');
    expect(block).toContain('Thanks, \\*charging\\* now.');
    expect(block).not.toMatch(/four four seven|4111/);
  });

  it('copies text as it is when redaction is off, and leaves out empty sections', () => {
    const block = ticketMarkdown(
      input({ redaction: null, flagged: [], notes: [], tags: [], ticket: null, scorePercent: null }),
    );
    expect(block).toContain('four four seven nine');
    expect(block).toContain('**Excerpt**\n');
    expect(block).not.toMatch(/Flagged moments|\*\*Notes\*\*|Tags|Ticket|Score/);
    expect(block).toContain('**Verdict:** Fail\n');
  });

  it('makes a ticket URL a link and escapes a ticket ID', () => {
    expect(ticketMarkdown(input({ ticket: { kind: 'url', url: 'https://t.example.com/1' } }))).toContain(
      '**Ticket:** <https://t.example.com/1>',
    );
    expect(ticketMarkdown(input({ ticket: { kind: 'id', id: '[x](javascript:alert(1))' } }))).toContain(
      '**Ticket:** \\[x\\](javascript:alert(1))',
    );
  });

  it('writes the plain excerpt masked', () => {
    expect(packExcerptText(input())).toContain('[01:10] Caller: [number]');
  });
});

describe('timing facts of the range', () => {
  it('lists replies, slow replies, talk-over and silences in the range only', () => {
    const text = timingFactsText({
      range: { startSeconds: 60, endSeconds: 120 },
      gaps: [
        { startSeconds: 30, endSeconds: 31, gapSeconds: 1 },
        { startSeconds: 62, endSeconds: 62.8, gapSeconds: 0.8 },
        { startSeconds: 76, endSeconds: 79.2, gapSeconds: 3.2 },
        { startSeconds: 95, endSeconds: 95.5, gapSeconds: 0.5 },
      ],
      talkOver: [
        { startSeconds: 90, endSeconds: 91.4 },
        { startSeconds: 100, endSeconds: 100.5 },
      ],
      silences: [{ startSeconds: 10, endSeconds: 16 }],
      slowGapSeconds: 1.5,
      basis: 'audio',
      basisNote: null,
    });
    expect(text).toBe(
      [
        'Timing facts, 01:00–02:00 (60.0 s)',
        'Replies: 3; median gap 0.8 s; longest 3.2 s at 01:16',
        'Slow replies (over 1.5 s): 01:16 (3.2 s)',
        'Talk-over: 2 times, 1.9 s in all; 01:30 (1.4 s), 01:40 (0.5 s)',
        'Long silences: none',
        'Measured from the audio.',
        '',
      ].join('\n'),
    );
  });

  it('says when nothing happened and when the figures come from the transcript', () => {
    const text = timingFactsText({
      range: { startSeconds: 0, endSeconds: 5 },
      gaps: [],
      talkOver: [],
      silences: [],
      slowGapSeconds: 1.5,
      basis: 'log',
      basisNote: 'the recording is mono',
    });
    expect(text).toContain('Replies: none in this range');
    expect(text).toContain('Talk-over: none');
    expect(text).toContain("Measured from the transcript's times only: the recording is mono");
  });
});

describe('audio redaction note', () => {
  it('says what was masked, how, and that it errs wide', () => {
    const note = audioRedactionNote([{ startSeconds: 5.25, endSeconds: 15.25 }], {
      clipStartSeconds: 65,
      marginSeconds: 0.25,
      mask: 'silence',
      untimedEntries: 1,
    });
    expect(note).toContain('is silenced from its start to the next turn, plus 0.25 s on each side');
    expect(note).toContain('Masked (times in the call): 01:10–01:20.');
    expect(note).toContain('1 turn holding personal data had no time');
    expect(
      audioRedactionNote([], { clipStartSeconds: 0, marginSeconds: 0.5, mask: 'bleep', untimedEntries: 0 }),
    ).toContain('Nothing in this clip was masked.');
  });
});
