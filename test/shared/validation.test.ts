/**
 * Workspace names (electron/shared/validation.ts), the rule the Connect and Rename forms and
 * main's handlers share: any printable text, nothing invisible or that moves other text.
 */
import { describe, expect, it } from 'vitest';
import { workspaceNameProblem } from '../../electron/shared/validation';

describe('workspace names', () => {
  it('accepts printable names in any script, trimmed, up to 200 characters', () => {
    for (const name of [
      'Production',
      '  Staging (EU)  ',
      'Support – Zürich',
      '客服 東京',
      'מוקד תמיכה',
      'Ops 🚀',
      'x'.repeat(200),
    ]) {
      expect(workspaceNameProblem(name), name).toBeNull();
    }
  });

  it('refuses controls, line breaks, bidi controls and zero-width characters, naming the one found', () => {
    const refused: Array<[string, string]> = [
      ['Prod\nStaging', 'U+000A'],
      ['Prod\rA', 'U+000D'],
      ['Prod\tA', 'U+0009'],
      ['Prod\x1b[31m', 'U+001B'],
      ['Prod\u0085', 'U+0085'],
      ['Prod\u2028A', 'U+2028'],
      ['Prod\u2029A', 'U+2029'],
      ['Invoice\u202Efdp.exe', 'U+202E'],
      ['Prod\u2066A\u2069', 'U+2066'],
      ['Pro\u200Bd', 'U+200B'],
      ['Pro\u200Dd', 'U+200D'],
      ['Pro\uFEFFd', 'U+FEFF'],
      ['Prod\uD800', 'U+D800'],
    ];
    for (const [name, code] of refused) {
      const problem = workspaceNameProblem(name);
      expect(problem, JSON.stringify(name)).toMatch(/^Use only printable characters/);
      expect(problem, JSON.stringify(name)).toContain(`(${code})`);
    }
  });

  it('asks for a name unless an empty one is allowed, and caps the length', () => {
    expect(workspaceNameProblem('   ')).toBe('Enter a name, e.g. Production or Staging.');
    expect(workspaceNameProblem('   ', { allowEmpty: true })).toBeNull();
    expect(workspaceNameProblem('x'.repeat(201))).toBe('Use at most 200 characters.');
  });
});
