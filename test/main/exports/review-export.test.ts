import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  REVIEW_CSV_COLUMNS,
  exportReviews,
  recordsForExport,
  type ReviewExportInput,
} from '../../../electron/main/exports/review-export';
import { DEFAULT_REDACTION_SETTINGS } from '../../../electron/shared/redaction';
import { reviewInputSchemas, type ReviewRecord, type Rubric } from '../../../electron/shared/reviews';
import { sidOf, storeIn, tempDir } from '../reviews/fixtures/review-temp';

const RUBRIC: Rubric = {
  version: 3,
  criteria: [
    { id: 'correct', label: 'Gave correct information', description: '', weight: 3 },
    { id: 'tone', label: 'Tone, "warmth" and clarity', description: '', weight: 1 },
  ],
  createdAtMs: 0,
};

function record(overrides: Partial<ReviewRecord>): ReviewRecord {
  return {
    workspaceId: 'ws',
    sid: sidOf(1),
    verdict: 'needs_work',
    scores: { correct: 4, tone: null },
    rubricVersion: 3,
    scorePercent: 100,
    tags: ['billing', 'escalation'],
    ticket: { kind: 'url', url: 'https://tracker.example.com/SUP-1?a=1,2' },
    callStartedAtMs: Date.UTC(2026, 2, 4, 9, 30),
    notes: [],
    createdAtMs: Date.UTC(2026, 2, 4, 10),
    updatedAtMs: Date.UTC(2026, 2, 4, 11),
    ...overrides,
  };
}

const HOSTILE = [
  '=HYPERLINK("http://evil.example","click")',
  '+1+1',
  '-2+3',
  '@SUM(A1:A2)',
  '\tindented',
  '\rcarriage',
  '＝1+1',
];

function input(records: ReviewRecord[], redaction: ReviewExportInput['redaction'] = null): ReviewExportInput {
  return {
    workspaceName: 'Acme, "support"',
    records,
    rubrics: new Map([[3, RUBRIC]]),
    redaction,
    exportedAtMs: Date.UTC(2026, 2, 5),
  };
}

const parseCsv = (csv: string) => parse<Record<string, string>>(csv, { bom: true, columns: true, relax_quotes: false });

describe('reviews CSV', () => {
  it('parses back with a real CSV parser to the same values: commas, quotes and line breaks included', () => {
    const notes = [
      {
        id: 'n1',
        sid: sidOf(1),
        startSeconds: 65.5,
        endSeconds: null,
        text: 'Said "no", then, hung up',
        createdAtMs: 1,
        updatedAtMs: 1,
      },
      { id: 'n2', sid: sidOf(1), startSeconds: 70, endSeconds: 75, text: 'two\nlines', createdAtMs: 1, updatedAtMs: 1 },
    ];
    const csv = exportReviews('csv', input([record({ notes })]));
    expect(csv.startsWith('\uFEFFsid,workspace,')).toBe(true);
    expect(csv).toContain('\r\n');
    const [row, ...rest] = parseCsv(csv);
    expect(rest).toEqual([]);
    expect(Object.keys(row!)).toEqual([...REVIEW_CSV_COLUMNS]);
    expect(row).toEqual({
      sid: sidOf(1),
      workspace: 'Acme, "support"',
      verdict: 'Needs work',
      score_percent: '100.0',
      rubric_version: '3',
      scores: 'Gave correct information: 4/4; Tone, "warmth" and clarity: n/a',
      tags: 'billing, escalation',
      ticket: 'https://tracker.example.com/SUP-1?a=1,2',
      call_started_at: '2026-03-04T09:30:00.000Z',
      reviewed_at: '2026-03-04T10:00:00.000Z',
      updated_at: '2026-03-04T11:00:00.000Z',
      note_count: '2',
      notes: '[01:05] Said "no", then, hung up\n[01:10–01:15] two\nlines',
    });
  });

  it('prefixes every cell that a spreadsheet would read as a formula with a single quote', () => {
    const records = HOSTILE.map((text, i) =>
      record({
        sid: sidOf(i),
        tags: [text],
        ticket: { kind: 'id', id: text },
        notes: [],
      }),
    );
    const rows = parseCsv(exportReviews('csv', input(records)));
    expect(rows.map((r) => r.ticket)).toEqual(HOSTILE.map((t) => `'${t}`));
    expect(rows.map((r) => r.tags)).toEqual(HOSTILE.map((t) => `'${t}`));
    // Harmless text keeps its first character.
    const plain = parseCsv(exportReviews('csv', input([record({ ticket: { kind: 'id', id: 'SUP-1' } })])));
    expect(plain[0]!.ticket).toBe('SUP-1');
  });

  it('masks PII in notes when redaction is asked for, and not otherwise', () => {
    const notes = [
      {
        id: 'n',
        sid: sidOf(1),
        startSeconds: 1,
        endSeconds: null,
        text: 'card 4111 1111 1111 1111 read aloud',
        createdAtMs: 1,
        updatedAtMs: 1,
      },
    ];
    const redacted = parseCsv(exportReviews('csv', input([record({ notes })], DEFAULT_REDACTION_SETTINGS)));
    expect(redacted[0]!.notes).toBe('[00:01] card [card number] read aloud');
    const plain = parseCsv(exportReviews('csv', input([record({ notes })])));
    expect(plain[0]!.notes).toContain('4111 1111 1111 1111');
  });
});

describe('reviews JSON', () => {
  it('holds every field and note, and the rubric versions used', () => {
    const notes = [
      {
        id: 'n',
        sid: sidOf(1),
        startSeconds: 1.25,
        endSeconds: 2,
        text: 'call me on +14155550123',
        createdAtMs: 5,
        updatedAtMs: 6,
      },
    ];
    const doc = JSON.parse(exportReviews('json', input([record({ notes })], DEFAULT_REDACTION_SETTINGS))) as Record<
      string,
      unknown
    >;
    expect(doc).toMatchObject({
      format: 'voice-review.reviews',
      version: 1,
      workspace: 'Acme, "support"',
      exportedAt: '2026-03-05T00:00:00.000Z',
      redacted: true,
      rubrics: [{ version: 3, criteria: RUBRIC.criteria }],
      records: [
        {
          sid: sidOf(1),
          verdict: 'needs_work',
          scores: { correct: 4, tone: null },
          ticket: { kind: 'url', url: 'https://tracker.example.com/SUP-1?a=1,2' },
          notes: [{ startSeconds: 1.25, endSeconds: 2, text: 'call me on [phone number]' }],
        },
      ],
    });
  });
});

describe('records for an export', () => {
  it('collects the full records a Reviews filter lists, past one page, with their rubric versions', () => {
    const store = storeIn(tempDir());
    for (let i = 0; i < 3; i += 1) {
      store.records.setTags({ workspaceId: 'ws', sid: sidOf(i) }, ['billing']);
      store.notes.add({ workspaceId: 'ws', sid: sidOf(i) }, { startSeconds: i, endSeconds: null }, `note ${String(i)}`);
    }
    store.records.setScore({ workspaceId: 'ws', sid: sidOf(0) }, 'correct', 3);
    store.records.setTags({ workspaceId: 'ws', sid: sidOf(9) }, ['other']);
    const query = reviewInputSchemas.list.parse({
      workspaceId: 'ws',
      tag: 'billing',
      sortBy: 'sid',
      direction: 'asc',
      limit: 1,
    });
    const { records, rubrics } = recordsForExport(store, query);
    expect(records.map((r) => [r.sid, r.notes.map((n) => n.text)])).toEqual([
      [sidOf(0), ['note 0']],
      [sidOf(1), ['note 1']],
      [sidOf(2), ['note 2']],
    ]);
    expect([...rubrics.keys()]).toEqual([1]);
  });
});
