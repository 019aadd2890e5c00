import { describe, expect, it } from 'vitest';
import { isScore, percentLabel, scoreRubric } from '$shared/rubric-scoring';

const rubric = [
  { id: 'correct', weight: 3 },
  { id: 'tone', weight: 1 },
];

describe('rubric scoring', () => {
  it('weights each criterion: full marks on the heavy one and none on the light one is 75 %', () => {
    expect(scoreRubric(rubric, { correct: 4, tone: 0 })).toEqual({
      percent: 75,
      scoredCount: 2,
      missing: [],
      unknown: [],
      countedWeight: 4,
    });
    expect(scoreRubric(rubric, { correct: 0, tone: 4 }).percent).toBe(25);
    expect(scoreRubric(rubric, { correct: 2, tone: 2 }).percent).toBe(50);
    expect(scoreRubric(rubric, { correct: 4, tone: 4 }).percent).toBe(100);
  });

  it('leaves a zero-weight criterion out of the total but still counts it as scored', () => {
    const withZero = [...rubric, { id: 'bonus', weight: 0 }];
    const total = scoreRubric(withZero, { correct: 4, tone: 0, bonus: 0 });
    expect(total.percent).toBe(75);
    expect(total.scoredCount).toBe(3);
  });

  it('has no total when every weight is zero or nothing is scored', () => {
    expect(scoreRubric([{ id: 'a', weight: 0 }], { a: 4 }).percent).toBeNull();
    expect(scoreRubric(rubric, {}).percent).toBeNull();
    expect(scoreRubric([], {}).percent).toBeNull();
  });

  it('leaves "not applicable" out of the total', () => {
    expect(scoreRubric(rubric, { correct: null, tone: 3 }).percent).toBe(75);
    expect(scoreRubric(rubric, { correct: null, tone: null }).percent).toBeNull();
  });

  it('after a rubric edit: lists criteria added since scoring as missing and ignores scores of removed ones', () => {
    const edited = [
      { id: 'correct', weight: 3 },
      { id: 'empathy', weight: 1 },
    ];
    const total = scoreRubric(edited, { correct: 2, tone: 4 });
    expect(total.percent).toBe(50);
    expect(total.missing).toEqual(['empathy']);
    expect(total.unknown).toEqual(['tone']);
  });

  it('treats a score outside 0–4, a fraction or a bad weight as not counting', () => {
    const odd = { correct: 5, tone: 2.5 } as unknown as Record<string, 0>;
    expect(scoreRubric(rubric, odd)).toMatchObject({ percent: null, missing: ['correct', 'tone'] });
    expect(
      scoreRubric(
        [
          { id: 'a', weight: Number.NaN },
          { id: 'b', weight: -2 },
          { id: 'c', weight: 1 },
        ],
        { a: 4, b: 4, c: 0 },
      ).percent,
    ).toBe(0);
    expect([0, 4, -1, 1.5, '3'].map(isScore)).toEqual([true, true, false, false, false]);
  });

  it('labels a total for people', () => {
    expect(percentLabel(87.5)).toBe('88 %');
    expect(percentLabel(null)).toBe('—');
  });
});
