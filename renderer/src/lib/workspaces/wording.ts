/**
 * Workspaces in words: where one points, connection-test results, keychain problems, where keys
 * are kept, and the check of the request-timeout field (a workspace name's check is shared with
 * main: `workspaceNameProblem` in electron/shared/validation.ts).
 */
import type {
  ConnectionTestResult,
  KeychainProblem,
  SecretStorageStatus,
  SessionInfo,
  WorkspaceInfo,
} from '$shared/contract';
import { REQUEST_TIMEOUT_SECONDS } from '$shared/validation';

/** Where a workspace points, for people: the base URL, or what the demo workspace is. */
export function workspaceAddress(workspace: WorkspaceInfo): string {
  return workspace.isDemo ? 'Built-in demo service on this computer' : workspace.baseUrl;
}

/** Name of a saved workspace by id, or null when it is not saved (any more). */
export function workspaceName(session: SessionInfo, id: string): string | null {
  return session.workspaces.find((w) => w.id === id)?.name ?? session.workspace?.name ?? null;
}

/** Short label of a failed connection test's problem (contract `ConnectionTestResult.problem`). */
const TEST_PROBLEM_LABEL: Record<NonNullable<ConnectionTestResult['problem']>, string> = {
  key_rejected: 'Key rejected',
  not_v1: 'Not a v1 endpoint',
  unreachable: 'Unreachable',
  tls: 'TLS error',
  timeout: 'No answer in time',
  server: 'Server error',
  keychain: 'Key could not be read',
  bad_url: 'Saved address refused',
};

/**
 * A connection test's result in words: `headline` ("Connected in 120 ms", "Key rejected") and
 * `detail` (main's sentence saying what to do; empty when it adds nothing). Milliseconds are
 * rounded to whole milliseconds.
 */
export function describeConnectionTest(result: ConnectionTestResult): { headline: string; detail: string } {
  if (result.ok) {
    const headline = result.elapsedMs === undefined ? 'Connected' : `Connected in ${Math.round(result.elapsedMs)} ms`;
    return { headline, detail: result.message === headline ? '' : result.message };
  }
  const headline = result.problem ? TEST_PROBLEM_LABEL[result.problem] : 'Connection failed';
  return { headline, detail: result.message };
}

/** Heading for a keychain problem (the message from main says what to do). */
export function keychainProblemTitle(problem: KeychainProblem): string {
  switch (problem) {
    case 'locked':
      return 'The system keychain is locked';
    case 'unavailable':
      return 'No system keychain is available';
    case 'not_loaded':
      return 'The keychain module could not be loaded';
  }
}

/** Where a key is deleted to when a workspace is removed, as a phrase ("from the system keychain"). */
export function keyStoragePlace(storage: SecretStorageStatus): string {
  return storage.backend === 'safe_storage' ? 'from the encrypted key file' : 'from the system keychain';
}

/**
 * Reads the request-timeout field (text as typed, in seconds).
 * @returns the whole number of seconds, or a message saying what to enter instead
 */
export function parseTimeoutSeconds(text: string): { ok: true; seconds: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  const range = `from ${REQUEST_TIMEOUT_SECONDS.min} to ${REQUEST_TIMEOUT_SECONDS.max}`;
  if (trimmed === '') return { ok: false, message: `Enter a number of seconds ${range}.` };
  const seconds = Number(trimmed);
  if (!Number.isFinite(seconds)) return { ok: false, message: `“${trimmed}” is not a number. Enter seconds ${range}.` };
  if (!Number.isInteger(seconds)) return { ok: false, message: `Use whole seconds ${range}.` };
  if (seconds < REQUEST_TIMEOUT_SECONDS.min || seconds > REQUEST_TIMEOUT_SECONDS.max) {
    return { ok: false, message: `The timeout must be ${range} seconds; ${seconds} is out of range.` };
  }
  return { ok: true, seconds };
}
