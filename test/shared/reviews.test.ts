import { describe, expect, it } from 'vitest';
import { normalizeTag, parseTicket, reviewInputSchemas, rubricCriteriaSchema, tagsSchema } from '$shared/reviews';

describe('ticket field', () => {
  it.each([
    ['SUP-42', { kind: 'id', id: 'SUP-42' }],
    ['  INC0012345 ', { kind: 'id', id: 'INC0012345' }],
    ['#4521', { kind: 'id', id: '#4521' }],
    ['Case 00123', { kind: 'id', id: 'Case 00123' }],
    ['https://tracker.example.com/browse/SUP-42', { kind: 'url', url: 'https://tracker.example.com/browse/SUP-42' }],
    ['http://helpdesk.local/tickets/9?view=full', { kind: 'url', url: 'http://helpdesk.local/tickets/9?view=full' }],
  ])('keeps %j', (text, ticket) => {
    expect(parseTicket(text)).toEqual({ ok: true, ticket });
  });

  it.each([
    ['', /Enter a ticket/],
    ['javascript:alert(1)', /https:\/\/ or http:\/\//],
    ['data:text/html,<b>x</b>', /https:\/\/ or http:\/\//],
    ['file:///etc/passwd', /https:\/\/ or http:\/\//],
    ['ftp://files.example.com/ticket', /https:\/\/ or http:\/\//],
    ['https://', /not a valid address/],
    ['https://user:hunter2@tracker.example.com/SUP-1', /user name, password or token/],
    ['https://tracker.example.com/SUP-1?api_key=sk_live_123', /user name, password or token/],
    ['https://tracker.example.com/SUP-1?token=abc', /user name, password or token/],
    ['X'.repeat(101), /at most 100/],
    ['SUP-1\nSUP-2', /line breaks/],
    ['SUP\u202e1', /control/],
  ])('refuses %j in words that do not repeat it', (text, message) => {
    const parsed = parseTicket(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toMatch(message);
    if (text.length > 3) expect(parsed.message).not.toContain(text);
  });
});

describe('tags', () => {
  it('normalises white space and case, and drops duplicates', () => {
    expect(normalizeTag('  Follow   Up ')).toBe('follow up');
    expect(tagsSchema.parse(['Billing', 'billing', 'ESCALATION', 'billing '])).toEqual(['billing', 'escalation']);
  });

  it('refuses blank, long, and markup-like tags, and more than twenty', () => {
    expect(normalizeTag('   ')).toBeNull();
    expect(normalizeTag('x'.repeat(41))).toBeNull();
    expect(normalizeTag('<script>')).toBeNull();
    expect(normalizeTag('a,b')).toBeNull();
    expect(normalizeTag('café #2')).toBe('café #2');
    expect(tagsSchema.safeParse(Array.from({ length: 21 }, (_, i) => `t${String(i)}`)).success).toBe(false);
  });
});

describe('IPC input schemas', () => {
  it('refuses a rubric with two criteria of one id, a negative weight or a blank name', () => {
    const c = { id: 'a', label: 'A', weight: 1 };
    expect(rubricCriteriaSchema.safeParse([c, c]).success).toBe(false);
    expect(rubricCriteriaSchema.safeParse([{ ...c, weight: -1 }]).success).toBe(false);
    expect(rubricCriteriaSchema.safeParse([{ ...c, label: '  ' }]).success).toBe(false);
    expect(rubricCriteriaSchema.safeParse([{ ...c, id: 'Has Space' }]).success).toBe(false);
    expect(rubricCriteriaSchema.parse([c])).toEqual([{ ...c, description: '' }]);
  });

  it('takes scores 0–4 or null only', () => {
    const base = { workspaceId: 'ws', sid: 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427', criterionId: 'tone' };
    for (const score of [0, 4, null])
      expect(reviewInputSchemas.setScore.safeParse({ ...base, score }).success).toBe(true);
    for (const score of [5, -1, 2.5, '3'])
      expect(reviewInputSchemas.setScore.safeParse({ ...base, score }).success).toBe(false);
  });

  it('refuses an unknown verdict and an unknown sort column', () => {
    const base = { workspaceId: 'ws', sid: 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427' };
    expect(reviewInputSchemas.setVerdict.safeParse({ ...base, verdict: 'great' }).success).toBe(false);
    expect(reviewInputSchemas.list.safeParse({ workspaceId: 'ws', sortBy: 'deleted_at_ms' }).success).toBe(false);
    expect(reviewInputSchemas.list.parse({ workspaceId: 'ws' })).toMatchObject({
      sortBy: 'updated',
      direction: 'desc',
      dateField: 'updated',
      limit: 500,
      offset: 0,
    });
  });
});
