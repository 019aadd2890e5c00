import { describe, expect, it } from 'vitest';
import { ReviewStoreError } from '../../../electron/main/reviews/review-db';
import { KEEP_DELETED_MS } from '../../../electron/main/reviews/review-store';
import { DEFAULT_RUBRIC_CRITERIA, reviewInputSchemas } from '../../../electron/shared/reviews';
import { fakeClock, sidOf, storeIn, tempDir } from './fixtures/review-temp';

const WS = 'ws-acme';
const key = (n: number) => ({ workspaceId: WS, sid: sidOf(n) });

describe('review store: notes', () => {
  it('keeps a note at a moment and one over a range, by start time, across a restart', () => {
    const dir = tempDir();
    const store = storeIn(dir);
    store.notes.add(key(1), { startSeconds: 42.25, endSeconds: null }, 'Agent read the card number back');
    store.notes.add(key(1), { startSeconds: 3.5, endSeconds: 9.75 }, 'Greeting took too long');
    store.close();

    const reopened = storeIn(dir);
    const record = reopened.records.get(key(1));
    expect(record?.notes.map((n) => [n.startSeconds, n.endSeconds, n.text])).toEqual([
      [3.5, 9.75, 'Greeting took too long'],
      [42.25, null, 'Agent read the card number back'],
    ]);
  });

  it('edits a note and dates the edit', () => {
    const clock = fakeClock();
    const store = storeIn(tempDir(), { now: clock.now });
    const note = store.notes.add(key(1), { startSeconds: 10, endSeconds: null }, 'first words');
    clock.advance(5000);
    const edited = store.notes.update(WS, note.id, {
      text: 'better words',
      place: { startSeconds: 11, endSeconds: 12 },
    });
    expect(edited).toMatchObject({
      text: 'better words',
      startSeconds: 11,
      endSeconds: 12,
      createdAtMs: note.createdAtMs,
    });
    expect(edited.updatedAtMs).toBeGreaterThan(note.updatedAtMs);
    expect(store.records.get(key(1))?.updatedAtMs).toBe(edited.updatedAtMs);
  });

  it('deletes a note so it is gone from the record, and undo brings it back as it was', () => {
    const store = storeIn(tempDir());
    const kept = store.notes.add(key(1), { startSeconds: 1, endSeconds: null }, 'kept');
    const gone = store.notes.add(key(1), { startSeconds: 2, endSeconds: null }, 'deleted then restored');
    expect(store.notes.delete(WS, gone.id).text).toBe('deleted then restored');
    expect(store.records.get(key(1))?.notes.map((n) => n.id)).toEqual([kept.id]);
    expect(() => store.notes.delete(WS, gone.id)).toThrow(ReviewStoreError);
    expect(() => store.notes.update(WS, gone.id, { text: 'x' })).toThrow(/no longer exists/);

    const restored = store.notes.restore(WS, gone.id);
    expect(restored).toMatchObject({ id: gone.id, text: 'deleted then restored', startSeconds: 2 });
    expect(store.records.get(key(1))?.notes.map((n) => n.id)).toEqual([kept.id, gone.id]);
    expect(() => store.notes.restore(WS, gone.id)).toThrow(/no deleted note/);
  });

  it('never shows or changes a note through another workspace', () => {
    const store = storeIn(tempDir());
    const note = store.notes.add(key(1), { startSeconds: 1, endSeconds: null }, 'private to acme');
    expect(store.notes.get('ws-other', note.id)).toBeNull();
    expect(() => store.notes.delete('ws-other', note.id)).toThrow(ReviewStoreError);
    expect(store.records.get({ workspaceId: 'ws-other', sid: sidOf(1) })).toBeNull();
    expect(store.notes.get(WS, note.id)?.text).toBe('private to acme');
  });

  it('refuses blank text, a range that ends before it starts, and times past 24 hours at the IPC schema', () => {
    const base = { workspaceId: WS, sid: sidOf(1) };
    const bad = [
      { ...base, text: '   ', place: { startSeconds: 1 } },
      { ...base, text: 'x', place: { startSeconds: 5, endSeconds: 5 } },
      { ...base, text: 'x', place: { startSeconds: -1 } },
      { ...base, text: 'x', place: { startSeconds: 90_000 } },
      { ...base, text: 'x'.repeat(5001), place: { startSeconds: 1 } },
      { ...base, sid: 'interaction_nope', text: 'x', place: { startSeconds: 1 } },
    ];
    for (const input of bad) expect(reviewInputSchemas.addNote.safeParse(input).success).toBe(false);
    const ok = reviewInputSchemas.addNote.parse({
      ...base,
      sid: sidOf(1).toUpperCase().replace('INTERACTION', 'interaction'),
      text: 'fine',
      place: { startSeconds: 1.5 },
    });
    expect(ok).toMatchObject({ sid: sidOf(1), place: { startSeconds: 1.5, endSeconds: null } });
  });
});

describe('review store: verdict, tags, ticket', () => {
  it('keeps each field written by its own call, with every other field left as it was', () => {
    const dir = tempDir();
    const store = storeIn(dir);
    store.records.setVerdict(key(1), 'needs_work');
    store.records.setTags(
      key(1),
      reviewInputSchemas.setTags.parse({ ...key(1), tags: ['Billing', ' escalation ', 'billing'] }).tags,
    );
    const ticket = reviewInputSchemas.setTicket.parse({
      ...key(1),
      ticket: 'https://tracker.example.com/browse/SUP-42',
    }).ticket;
    store.records.setTicket(key(1), ticket);
    store.close();

    const record = storeIn(dir).records.get(key(1));
    expect(record).toMatchObject({
      verdict: 'needs_work',
      tags: ['billing', 'escalation'],
      ticket: { kind: 'url', url: 'https://tracker.example.com/browse/SUP-42' },
    });
  });

  it('clears the ticket with null, and keeps a plain ID as an ID, never a link', () => {
    const store = storeIn(tempDir());
    const parse = (ticket: string | null) => reviewInputSchemas.setTicket.parse({ ...key(1), ticket }).ticket;
    expect(store.records.setTicket(key(1), parse('SUP-42')).ticket).toEqual({ kind: 'id', id: 'SUP-42' });
    expect(store.records.setTicket(key(1), parse(null)).ticket).toBeNull();
  });

  it('deletes a whole record with undo, notes included', () => {
    const store = storeIn(tempDir());
    store.records.setVerdict(key(1), 'fail');
    store.notes.add(key(1), { startSeconds: 5, endSeconds: null }, 'wrong refund amount');
    expect(store.records.delete(key(1))).toBe(true);
    expect(store.records.get(key(1))).toBeNull();
    expect(store.records.delete(key(1))).toBe(false);
    const restored = store.records.restore(key(1));
    expect(restored.verdict).toBe('fail');
    expect(restored.notes.map((n) => n.text)).toEqual(['wrong refund amount']);
  });

  it('starts a new record when a deleted one is written to, so its undo is over', () => {
    const store = storeIn(tempDir());
    store.records.setVerdict(key(1), 'fail');
    store.records.delete(key(1));
    const fresh = store.records.setTags(key(1), ['follow-up']);
    expect(fresh).toMatchObject({ verdict: 'none', tags: ['follow-up'], notes: [] });
    expect(() => store.records.restore(key(1))).toThrow(/no deleted review/);
  });

  it('removes what was deleted more than 30 days ago when the store opens, and keeps what is newer', () => {
    const dir = tempDir();
    const clock = fakeClock();
    const store = storeIn(dir, { now: clock.now });
    const old = store.notes.add(key(1), { startSeconds: 1, endSeconds: null }, 'old');
    store.notes.delete(WS, old.id);
    clock.advance(KEEP_DELETED_MS - 60_000);
    const recent = store.notes.add(key(1), { startSeconds: 2, endSeconds: null }, 'recent');
    store.notes.delete(WS, recent.id);
    store.close();

    clock.advance(120_000);
    const reopened = storeIn(dir, { now: clock.now });
    expect(() => reopened.notes.restore(WS, old.id)).toThrow(/no deleted note/);
    expect(reopened.notes.restore(WS, recent.id).text).toBe('recent');
  });
});

describe('review store: scores and rubric versions', () => {
  it('scores against the default rubric until the team saves one, and keeps the version scored with', () => {
    const store = storeIn(tempDir());
    expect(store.rubrics.current(WS)).toMatchObject({ version: 1, criteria: DEFAULT_RUBRIC_CRITERIA });
    for (const c of DEFAULT_RUBRIC_CRITERIA) store.records.setScore(key(1), c.id, 4);
    const scored = store.records.setScore(key(1), 'tone', 0);
    // Tone weighs 10 of 100: full marks everywhere else gives 90 %.
    expect(scored).toMatchObject({ rubricVersion: 1, scorePercent: 90 });

    const v2 = store.rubrics.save(WS, [
      { id: 'correct', label: 'Gave correct information', description: '', weight: 1 },
      { id: 'tone', label: 'Tone', description: '', weight: 1 },
    ]);
    expect(v2.version).toBe(2);
    // The record still reads with version 1's weights.
    expect(store.records.get(key(1))).toMatchObject({ rubricVersion: 1, scorePercent: 90 });
    expect(store.rubrics.version(WS, 1)?.criteria).toEqual(DEFAULT_RUBRIC_CRITERIA);
  });

  it('moves a record to the current rubric when it is scored again, keeping the criteria still there', () => {
    const store = storeIn(tempDir());
    store.records.setScore(key(1), 'correct', 4);
    store.records.setScore(key(1), 'understood', 2);
    store.rubrics.save(WS, [
      { id: 'correct', label: 'Correct', description: '', weight: 3 },
      { id: 'empathy', label: 'Empathy', description: '', weight: 1 },
    ]);
    const rescored = store.records.setScore(key(1), 'empathy', 0);
    expect(rescored).toMatchObject({ rubricVersion: 2, scores: { correct: 4, empathy: 0 }, scorePercent: 75 });
  });

  it('saves no new version when the criteria did not change, and refuses a score for a criterion it no longer has', () => {
    const store = storeIn(tempDir());
    const criteria = [{ id: 'only', label: 'Only', description: '', weight: 1 }];
    expect(store.rubrics.save(WS, criteria).version).toBe(1);
    expect(store.rubrics.save(WS, criteria).version).toBe(1);
    expect(store.rubrics.save(WS, [{ ...criteria[0]!, weight: 2 }]).version).toBe(2);
    expect(() => store.records.setScore(key(1), 'tone', 3)).toThrow(/no longer in the rubric/);
  });

  it('keeps each workspace its own rubric', () => {
    const store = storeIn(tempDir());
    store.rubrics.save('ws-sales', [{ id: 'close', label: 'Asked for the sale', description: '', weight: 1 }]);
    expect(store.rubrics.current('ws-sales').criteria.map((c) => c.id)).toEqual(['close']);
    expect(store.rubrics.current(WS).criteria).toEqual(DEFAULT_RUBRIC_CRITERIA);
  });

  it('clears scores, and "not applicable" leaves a criterion out of the total', () => {
    const store = storeIn(tempDir());
    store.records.setScore(key(1), 'process', null);
    const record = store.records.setScore(key(1), 'correct', 2);
    expect(record.scorePercent).toBe(50);
    expect(store.records.clearScores(key(1))).toMatchObject({ scores: {}, rubricVersion: null, scorePercent: null });
  });
});
