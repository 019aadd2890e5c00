/**
 * The saved workspaces: their ids, names and base URLs, which one is active, and the preferences,
 * all kept in settings.json (settings.ts). Knows nothing of keys or API clients; the session
 * (session.ts) composes it with the key storage and the active workspace.
 */
import { normalizeBaseUrl } from '$shared/base-url';
import type { Preferences } from '$shared/contract';
import { ApiError } from '$shared/errors';
import { REQUEST_TIMEOUT_SECONDS, workspaceNameProblem } from '$shared/validation';
import type { Settings, StoredWorkspace } from './settings';

/** Id of the embedded demo workspace in the settings file. */
export const DEMO_WORKSPACE_ID = 'demo';

/** Name the demo workspace gets when first opened (the user may rename it). */
export const DEMO_DEFAULT_NAME = 'Demo workspace';

/** settings.json as the registry needs it (see settings.ts `createSettingsStore`). */
export interface SettingsFile {
  load(): Promise<Settings>;
  save(settings: Settings): Promise<void>;
}

/** See {@link createWorkspaceRegistry}. Writes reject with the settings store's error; nothing changes then. */
export interface WorkspaceRegistry {
  /**
   * The settings, read from the file on first use and kept in memory after. Each saved base URL
   * is checked again with the rule of shared/base-url.ts: one that breaks it marks its workspace
   * with `baseUrlProblem` (see {@link checkSavedBaseUrls}).
   */
  settings(): Promise<Settings>;
  /**
   * The saved workspace with this id.
   * @throws ApiError `bad_input` when there is none.
   */
  find(id: string): Promise<StoredWorkspace>;
  /** Adds or replaces `workspace` (keeping its place in the list) and saves it as the active one. */
  saveActive(workspace: StoredWorkspace): Promise<void>;
  /** Saves which workspace is active (null: none). */
  setActiveId(id: string | null): Promise<void>;
  /** Saves a new name (already checked with {@link checkName}). */
  rename(id: string, name: string): Promise<void>;
  /** Removes a workspace; when it was the active one, none is active any more. */
  remove(id: string): Promise<void>;
  /**
   * Saves the preferences.
   * @throws ApiError `bad_input` for a timeout that is not a whole number of seconds in range.
   */
  setPreferences(preferences: Preferences): Promise<void>;
  /** Request timeout of new clients, in milliseconds, from the saved preference (seconds). */
  timeoutMs(): number;
}

/** An ApiError of kind `bad_input` with `message`. */
export function badInput(message: string): ApiError {
  return new ApiError({ kind: 'bad_input', message });
}

/**
 * A workspace name, trimmed.
 * @throws ApiError `bad_input` when it is empty (unless `allowEmpty`), longer than 200 characters
 *   or holds a character that is not printable ({@link workspaceNameProblem}).
 */
export function checkName(name: string, allowEmpty = false): string {
  const problem = workspaceNameProblem(name, { allowEmpty });
  if (problem !== null) throw badInput(problem);
  return name.trim();
}

function checkTimeout(seconds: number): void {
  const { min, max } = REQUEST_TIMEOUT_SECONDS;
  if (!Number.isInteger(seconds) || seconds < min || seconds > max) {
    throw badInput(`The timeout must be a whole number of seconds from ${min} to ${max}.`);
  }
}

/** Longest part of a saved base URL quoted in a message, in characters. */
const MAX_QUOTED_URL_LENGTH = 120;

/**
 * The settings with each saved base URL checked again by the rule used when it was added
 * (shared/base-url.ts `normalizeBaseUrl`): a URL the rule accepts is kept in its normal form; one
 * it refuses (plain http to a remote host, not a URL, no `/v1`, credentials in it…) marks its
 * workspace with `baseUrlProblem`, so opening it is a restore problem and no request goes there.
 * The demo workspace's address is not a URL (the demo runs on a new port each start).
 */
export function checkSavedBaseUrls(settings: Settings): Settings {
  const workspaces = settings.workspaces.map((workspace): StoredWorkspace => {
    if (workspace.id === DEMO_WORKSPACE_ID) return workspace;
    const checked = normalizeBaseUrl(workspace.baseUrl);
    return checked.ok ? { ...workspace, baseUrl: checked.url } : { ...workspace, baseUrlProblem: checked.message };
  });
  return { ...settings, workspaces };
}

/**
 * The error for opening a workspace marked by {@link checkSavedBaseUrls}: names the workspace and
 * the saved URL (shortened) and says what to do. An ApiError of kind `bad_input`.
 */
export function savedBaseUrlError(workspace: StoredWorkspace): ApiError {
  const url =
    workspace.baseUrl.length > MAX_QUOTED_URL_LENGTH
      ? `${workspace.baseUrl.slice(0, MAX_QUOTED_URL_LENGTH)}…`
      : workspace.baseUrl;
  return badInput(
    `The saved base URL of ${workspace.name}, "${url}", is not used: ${workspace.baseUrlProblem ?? 'it breaks the base URL rule.'} ` +
      'Remove this workspace and add it again with the right address.',
  );
}

/** Creates the registry over `file`. Nothing is read until the first call. */
export function createWorkspaceRegistry(file: SettingsFile): WorkspaceRegistry {
  let current: Settings | null = null;

  async function settings(): Promise<Settings> {
    current ??= checkSavedBaseUrls(await file.load());
    return current;
  }

  /** Saves what `change` makes of the settings and, only once written, keeps it in memory. */
  async function update(change: (s: Settings) => Settings): Promise<void> {
    const next = change(await settings());
    await file.save(next);
    current = next;
  }

  return {
    settings,
    async find(id) {
      const found = (await settings()).workspaces.find((w) => w.id === id);
      if (!found) throw badInput('That workspace no longer exists. Pick one from the list.');
      return found;
    },
    saveActive: (workspace) =>
      update((s) => {
        const exists = s.workspaces.some((w) => w.id === workspace.id);
        const workspaces = exists
          ? s.workspaces.map((w) => (w.id === workspace.id ? workspace : w))
          : [...s.workspaces, workspace];
        return { ...s, workspaces, activeWorkspaceId: workspace.id };
      }),
    setActiveId: (id) => update((s) => ({ ...s, activeWorkspaceId: id })),
    rename: (id, name) =>
      update((s) => ({ ...s, workspaces: s.workspaces.map((w) => (w.id === id ? { ...w, name } : w)) })),
    remove: (id) =>
      update((s) => ({
        ...s,
        workspaces: s.workspaces.filter((w) => w.id !== id),
        activeWorkspaceId: s.activeWorkspaceId === id ? null : s.activeWorkspaceId,
      })),
    async setPreferences(preferences) {
      const seconds = preferences.requestTimeoutSeconds;
      checkTimeout(seconds);
      await update((s) => ({ ...s, preferences: { requestTimeoutSeconds: seconds } }));
    },
    timeoutMs: () => (current?.preferences.requestTimeoutSeconds ?? REQUEST_TIMEOUT_SECONDS.default) * 1000,
  };
}
