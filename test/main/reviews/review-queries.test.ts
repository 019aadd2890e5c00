import { describe, expect, it } from 'vitest';
import type { ReviewStore } from '../../../electron/main/reviews/review-store';
import { reviewInputSchemas, type ReviewQueryInput } from '../../../electron/shared/reviews';
import { fakeClock, sidOf, storeIn, tempDir } from './fixtures/review-temp';

const WS = 'ws-acme';
const HOUR = 60 * 60 * 1000;
const key = (n: number) => ({ workspaceId: WS, sid: sidOf(n) });

/**
 * Five reviewed calls an hour apart (call 1 first) and one record whose only note was deleted:
 * 1 pass, billing, ticket SUP-1, note "refund promised"
 * 2 fail, billing + escalation, ticket https://tracker.example.com/SUP-2, note "Card number read aloud"
 * 3 needs_work, no tags, scored 50 %
 * 4 none, tag escalation only
 * 5 pass, scored 100 %, call started before all others
 * 6 note added then deleted: holds nothing
 */
function seeded(): { store: ReviewStore; times: number[] } {
  const clock = fakeClock();
  const store = storeIn(tempDir(), { now: clock.now });
  const times: number[] = [];
  const step = () => {
    clock.advance(HOUR);
    times.push(clock.now());
  };
  step();
  store.records.setVerdict(key(1), 'pass');
  store.records.setTags(key(1), ['billing']);
  store.records.setTicket(key(1), { kind: 'id', id: 'SUP-1' });
  store.notes.add(key(1), { startSeconds: 5, endSeconds: null }, 'Refund promised without checking');
  step();
  store.records.setVerdict(key(2), 'fail');
  store.records.setTags(key(2), ['billing', 'escalation']);
  store.records.setTicket(key(2), { kind: 'url', url: 'https://tracker.example.com/SUP-2' });
  store.notes.add(key(2), { startSeconds: 30, endSeconds: 35 }, 'Card number read aloud');
  step();
  store.records.setVerdict(key(3), 'needs_work');
  store.records.setScore(key(3), 'correct', 2);
  step();
  store.records.setTags(key(4), ['escalation']);
  step();
  store.records.setVerdict(key(5), 'pass');
  store.records.setScore(key(5), 'correct', 4);
  store.records.setCallStarted(key(5), Date.UTC(2026, 0, 1));
  step();
  const gone = store.notes.add(key(6), { startSeconds: 1, endSeconds: null }, 'oops');
  store.notes.delete(WS, gone.id);
  return { store, times };
}

const list = (store: ReviewStore, query: Omit<ReviewQueryInput, 'workspaceId'> = {}) =>
  store.queries.list(reviewInputSchemas.list.parse({ workspaceId: WS, ...query }));
const sids = (page: { rows: { sid: string }[] }) => page.rows.map((r) => Number.parseInt(r.sid.slice(12, 20), 16));

describe('Reviews screen listing', () => {
  it('lists the records that hold something, most recently updated first, with their figures', () => {
    const { store } = seeded();
    const page = list(store);
    expect(sids(page)).toEqual([5, 4, 3, 2, 1]);
    expect(page.total).toBe(5);
    expect(page.rows.find((r) => r.sid === sidOf(2))).toMatchObject({
      verdict: 'fail',
      tags: ['billing', 'escalation'],
      ticket: { kind: 'url', url: 'https://tracker.example.com/SUP-2' },
      noteCount: 1,
      scorePercent: null,
    });
    expect(page.rows.find((r) => r.sid === sidOf(3))?.scorePercent).toBe(50);
  });

  it('filters by verdict, tag, ticket and text in notes, each ignoring case where it is text', () => {
    const { store } = seeded();
    expect(sids(list(store, { verdicts: ['pass'] }))).toEqual([5, 1]);
    expect(sids(list(store, { verdicts: ['fail', 'needs_work'] }))).toEqual([3, 2]);
    expect(sids(list(store, { tag: 'Escalation' }))).toEqual([4, 2]);
    expect(sids(list(store, { ticket: 'sup-2' }))).toEqual([2]);
    expect(sids(list(store, { ticket: 'SUP' }))).toEqual([2, 1]);
    expect(sids(list(store, { text: 'CARD NUMBER' }))).toEqual([2]);
    expect(sids(list(store, { text: 'oops' }))).toEqual([]);
    expect(sids(list(store, { tag: 'billing', verdicts: ['pass'] }))).toEqual([1]);
  });

  it('treats % and _ in the searched text as themselves', () => {
    const { store } = seeded();
    store.notes.add(key(9), { startSeconds: 1, endSeconds: null }, 'discount of 100% given');
    expect(sids(list(store, { text: '100%' }))).toEqual([9]);
    expect(sids(list(store, { text: '_' }))).toEqual([]);
  });

  it('filters by a date range on the review dates or the call start', () => {
    const { store, times } = seeded();
    expect(sids(list(store, { fromMs: times[1], toMs: times[3] }))).toEqual([3, 2]);
    expect(sids(list(store, { dateField: 'created', fromMs: times[3] }))).toEqual([5, 4]);
    expect(sids(list(store, { dateField: 'callStarted', toMs: Date.UTC(2026, 1, 1) }))).toEqual([5]);
  });

  it('sorts by score, verdict and SID both ways, with rows lacking a value last', () => {
    const { store } = seeded();
    expect(sids(list(store, { sortBy: 'score', direction: 'desc' }))).toEqual([5, 3, 4, 2, 1]);
    expect(sids(list(store, { sortBy: 'score', direction: 'asc' }))).toEqual([3, 5, 4, 2, 1]);
    expect(sids(list(store, { sortBy: 'verdict', direction: 'asc' }))).toEqual([2, 3, 5, 1, 4]);
    expect(sids(list(store, { sortBy: 'sid', direction: 'asc' }))).toEqual([1, 2, 3, 4, 5]);
    expect(sids(list(store, { sortBy: 'notes', direction: 'desc' }))).toEqual([2, 1, 5, 4, 3]);
  });

  it('pages through the rows and still counts them all', () => {
    const { store } = seeded();
    const page = list(store, { sortBy: 'sid', direction: 'asc', limit: 2, offset: 2 });
    expect(sids(page)).toEqual([3, 4]);
    expect(page.total).toBe(5);
  });

  it('leaves deleted records and other workspaces out', () => {
    const { store } = seeded();
    store.records.delete(key(2));
    store.records.setVerdict({ workspaceId: 'ws-other', sid: sidOf(8) }, 'pass');
    expect(sids(list(store))).toEqual([5, 4, 3, 1]);
  });
});

describe('summaries for the queue and recent calls', () => {
  it('gives verdict and tags of the SIDs asked about that have a review, and nothing for the rest', () => {
    const { store } = seeded();
    const summaries = store.queries.summaries(WS, [sidOf(2), sidOf(4), sidOf(6), sidOf(99)]);
    expect(summaries).toEqual({
      [sidOf(2)]: { verdict: 'fail', tags: ['billing', 'escalation'], noteCount: 1, scorePercent: null },
      [sidOf(4)]: { verdict: 'none', tags: ['escalation'], noteCount: 0, scorePercent: null },
    });
    expect(store.queries.summaries(WS, [])).toEqual({});
  });

  it('refuses more SIDs than a list shows, and malformed SIDs, at the IPC schema', () => {
    const many = Array.from({ length: 501 }, (_, i) => sidOf(i));
    expect(reviewInputSchemas.summaries.safeParse({ workspaceId: WS, sids: many }).success).toBe(false);
    expect(reviewInputSchemas.summaries.safeParse({ workspaceId: WS, sids: ["x' OR 1=1"] }).success).toBe(false);
  });
});
