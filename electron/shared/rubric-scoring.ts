/**
 * Rubric scoring, pure: a call is scored per criterion on a 0–4 scale, and the rubric's weights
 * turn those scores into one percentage.
 *
 * Why 0–4: five anchored levels (not met, poor, partly, mostly, fully met) are what call-centre
 * QA scorecards use; pass/partial/fail hides the difference between "nearly" and "barely", and a
 * 0–10 scale invites arguments over 6 versus 7. Five levels are also one key each (0 to 4).
 * A criterion may also be marked not applicable (`null`): it then leaves the total, so a call
 * that needed no identity check is not marked down for skipping one.
 */

/** Lowest and highest score of one criterion. */
export const SCORE_MIN = 0;
export const SCORE_MAX = 4;

/** One criterion's score: 0 to {@link SCORE_MAX} in whole steps, or null for "not applicable". */
export type CriterionScore = 0 | 1 | 2 | 3 | 4 | null;

/** Words for each level, in order 0..4 (the review panel's choices). */
export const SCORE_LABELS: readonly string[] = ['Not met', 'Poor', 'Partly met', 'Mostly met', 'Fully met'];

/** A criterion as scoring needs it (see `RubricCriterion` in reviews.ts for the stored shape). */
export interface WeightedCriterion {
  /** Stable id; scores are keyed by it, so renaming a criterion keeps its scores. */
  id: string;
  /** Relative weight, 0 or more; 0 keeps the criterion on the form without counting it. */
  weight: number;
}

/** How a record's scores add up against a rubric. */
export interface RubricTotal {
  /**
   * Weighted total as a percentage 0–100 (not rounded): sum(weight × score / 4) / sum(weight)
   * over the criteria that are scored (not null) and weigh more than 0; null when there is none.
   */
  percent: number | null;
  /** Criteria of the rubric with a score (0–4, not "not applicable"). */
  scoredCount: number;
  /** Criteria of the rubric with no entry in the scores at all (added after the call was scored). */
  missing: string[];
  /** Score keys that name no criterion of the rubric (the criterion was removed): ignored. */
  unknown: string[];
  /** Sum of the weights that counted (scored, weight > 0). */
  countedWeight: number;
}

/**
 * Adds up `scores` against `criteria`.
 * - A criterion without an entry in `scores` is listed in `missing` and does not count (it was
 *   added to the rubric after the call was scored, or has not been scored yet).
 * - A score for a criterion the rubric no longer has is listed in `unknown` and ignored.
 * - A weight that is 0, negative or not finite does not count; a score outside 0–4 or not a
 *   whole number is treated as missing (scores are checked by the IPC schema before this).
 * @param criteria the rubric's criteria, in order
 * @param scores scores by criterion id
 */
export function scoreRubric(
  criteria: readonly WeightedCriterion[],
  scores: Readonly<Record<string, CriterionScore | undefined>>,
): RubricTotal {
  const known = new Set(criteria.map((c) => c.id));
  const missing: string[] = [];
  let countedWeight = 0;
  let earned = 0;
  let scoredCount = 0;
  for (const criterion of criteria) {
    const score = scores[criterion.id];
    if (score === undefined || (score !== null && !isScore(score))) {
      missing.push(criterion.id);
      continue;
    }
    if (score === null) continue;
    scoredCount += 1;
    if (!Number.isFinite(criterion.weight) || criterion.weight <= 0) continue;
    countedWeight += criterion.weight;
    earned += (criterion.weight * score) / SCORE_MAX;
  }
  const unknown = Object.keys(scores).filter((id) => !known.has(id));
  return {
    percent: countedWeight > 0 ? (earned / countedWeight) * 100 : null,
    scoredCount,
    missing,
    unknown,
    countedWeight,
  };
}

/** True for a whole number from {@link SCORE_MIN} to {@link SCORE_MAX}. */
export function isScore(value: unknown): value is Exclude<CriterionScore, null> {
  return typeof value === 'number' && Number.isInteger(value) && value >= SCORE_MIN && value <= SCORE_MAX;
}

/** A percentage for people: `87 %` (whole numbers), or `—` when there is no total. */
export function percentLabel(percent: number | null): string {
  return percent === null ? '—' : `${String(Math.round(percent))} %`;
}
