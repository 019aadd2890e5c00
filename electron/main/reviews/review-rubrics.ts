/**
 * Rubrics, one per workspace, kept as immutable versions (`rubric_versions`): saving changed
 * criteria adds version N+1, and a record keeps the version it was scored with, so its total is
 * always worked out with the weights the reviewer saw.
 *
 * Per workspace rather than app-wide: a workspace is one voice-agent deployment and its team (a
 * sales agent is judged on other things than a support agent), its records are scored and
 * exported per workspace, and an export then carries one rubric. A team that wants the same
 * rubric everywhere saves the same criteria in each workspace.
 *
 * A workspace that never saved one uses {@link DEFAULT_RUBRIC_CRITERIA} as version 1; it is
 * written to the file the first time a call is scored or the rubric is saved.
 */
import { z } from 'zod';
import { DEFAULT_RUBRIC_CRITERIA, rubricCriterionSchema, type Rubric, type RubricCriterion } from '$shared/reviews';
import { parseJsonColumn, read, write, type ReviewContext } from './review-context';

interface RubricRow {
  version: number;
  criteria: string;
  created_at_ms: number;
}

/** Criteria as stored; a criterion that no longer parses is dropped rather than failing the read. */
const storedCriteriaSchema = z.array(z.unknown()).catch([]);

function criteriaOf(text: string): RubricCriterion[] {
  return storedCriteriaSchema.parse(parseJsonColumn(text, [])).flatMap((c) => {
    const parsed = rubricCriterionSchema.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Rubric versions of the workspaces, read through a cache (versions never change once saved). */
export class ReviewRubrics {
  private readonly cache = new Map<string, Rubric>();

  constructor(private readonly ctx: ReviewContext) {}

  /** The workspace's latest rubric (the default as version 1 when none was saved). */
  current(workspaceId: string): Rubric {
    return read(this.ctx, () => this.latest(workspaceId) ?? this.defaultRubric());
  }

  /** Version `version` of the workspace's rubric, or null when there is no such version. */
  version(workspaceId: string, version: number): Rubric | null {
    const key = `${workspaceId}\u0000${String(version)}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const row = this.ctx.db
      .prepare<[string, number], RubricRow>(
        'SELECT version, criteria, created_at_ms FROM rubric_versions WHERE workspace_id = ? AND version = ?',
      )
      .get(workspaceId, version);
    if (!row) return version === 1 && this.latest(workspaceId) === null ? this.defaultRubric() : null;
    const rubric = this.rubricOf(row);
    this.cache.set(key, rubric);
    return rubric;
  }

  /**
   * Saves `criteria` as the workspace's rubric: a new version when they differ from the latest
   * (in order, ids, labels, descriptions or weights), else the latest unchanged.
   * @param criteria already checked by `rubricCriteriaSchema`
   * @returns the rubric now in force
   */
  save(workspaceId: string, criteria: readonly RubricCriterion[]): Rubric {
    return write(this.ctx, () => {
      const latest = this.latest(workspaceId);
      if (latest && sameCriteria(latest.criteria, criteria)) return latest;
      const version = (latest?.version ?? 0) + 1;
      this.insert(workspaceId, version, criteria);
      return this.version(workspaceId, version) ?? this.defaultRubric();
    });
  }

  /**
   * The latest stored rubric, storing the default as version 1 when there is none. Call inside a
   * write transaction (scoring does, so the version a record names always exists in the file).
   */
  ensureCurrent(workspaceId: string): Rubric {
    const latest = this.latest(workspaceId);
    if (latest) return latest;
    this.insert(workspaceId, 1, DEFAULT_RUBRIC_CRITERIA);
    return this.latest(workspaceId) ?? this.defaultRubric();
  }

  private latest(workspaceId: string): Rubric | null {
    const row = this.ctx.db
      .prepare<[string], RubricRow>(
        'SELECT version, criteria, created_at_ms FROM rubric_versions WHERE workspace_id = ? ORDER BY version DESC LIMIT 1',
      )
      .get(workspaceId);
    return row ? this.rubricOf(row) : null;
  }

  private insert(workspaceId: string, version: number, criteria: readonly RubricCriterion[]): void {
    this.ctx.db
      .prepare('INSERT INTO rubric_versions (workspace_id, version, criteria, created_at_ms) VALUES (?, ?, ?, ?)')
      .run(workspaceId, version, JSON.stringify(criteria), this.ctx.now());
  }

  private rubricOf(row: RubricRow): Rubric {
    return { version: row.version, criteria: criteriaOf(row.criteria), createdAtMs: row.created_at_ms };
  }

  private defaultRubric(): Rubric {
    return { version: 1, criteria: DEFAULT_RUBRIC_CRITERIA.map((c) => ({ ...c })), createdAtMs: 0 };
  }
}

function sameCriteria(a: readonly RubricCriterion[], b: readonly RubricCriterion[]): boolean {
  return JSON.stringify(a.map(ordered)) === JSON.stringify(b.map(ordered));
}

function ordered(c: RubricCriterion): [string, string, string, number] {
  return [c.id, c.label, c.description, c.weight];
}
