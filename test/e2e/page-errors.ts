/**
 * The page-error check every end-to-end file runs around each of its tests: the harness records
 * every error the page logs (console.error and uncaught exceptions, Harness.pageErrors); each
 * test starts with none and fails when it made one, so an error is reported by the test that
 * caused it.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import type { Harness } from './harness';

/**
 * Registers the check for the file's tests. Call it at the top of the file, before the file's
 * own `beforeEach`, so errors logged while a test's page is set up count for that test.
 * @param harness the file's harness, read when each test runs (undefined before `beforeAll` made it)
 */
export function checkPageErrorsEachTest(harness: () => Pick<Harness, 'pageErrors'> | undefined): void {
  beforeEach(() => {
    harness()?.pageErrors.splice(0);
  });
  afterEach(() => {
    expect(harness()?.pageErrors ?? [], 'errors the page logged during this test').toEqual([]);
  });
}
