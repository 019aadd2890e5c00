/**
 * The session: the saved workspaces (issue 4 "Workspaces"), which one is active, its API client,
 * and the recordings it has seen. Plain Node (no Electron import) so tests and the end-to-end
 * harness use it as Electron does.
 *
 * Where things live: each workspace's id, name and base URL in settings.json (settings.ts); its API
 * key in the key storage (`deps.secrets`, account = workspace id); the demo workspace's key nowhere
 * (the embedded demo service makes a new one at each start). A key never appears in a
 * {@link SessionInfo}, an error message or settings.json.
 *
 * Choices where issue 4 is silent, each repeated at its place below:
 * - A workspace key that cannot be read (missing, or the key storage failed) is an ApiError of kind
 *   `keychain`, not `unauthorized`: the server never saw it, and the renderer's 401 view says "the
 *   key was rejected", which would be untrue. The renderer offers `changeWorkspaceKey` for both.
 * - The saved active workspace is restored once per session; after a restore problem, switching to
 *   it again (`switchWorkspace`) or entering its key (`changeWorkspaceKey`) reads storage again.
 * - `removeWorkspace` refuses (workspace kept) when the key storage throws while deleting the key,
 *   so no key is left behind where the app can no longer reach it.
 * - A connection test makes a single attempt (no retries), so its verdict and `elapsedMs` describe
 *   one request.
 */
import { randomUUID } from 'node:crypto';
import { normalizeBaseUrl } from '../shared/base-url';
import type {
  ConnectInput,
  ConnectionTestResult,
  DemoInteractionSummary,
  Preferences,
  SecretStorageStatus,
  SessionInfo,
  WorkspaceInfo,
} from '../shared/contract';
import { ApiError, type ApiErrorData } from '../shared/errors';
import { createApiClient, type ApiClient } from './api/client';
import type { SecretStore } from './keychain';
import type { KeyStorage } from './secret-storage';
import type { RecordingLocation } from './recording-protocol';
import { REQUEST_TIMEOUT_SECONDS } from '../shared/validation';
import type { Settings, StoredWorkspace } from './settings';

/** Id of the embedded demo workspace in the settings file. */
export const DEMO_WORKSPACE_ID = 'demo';

/** Name the demo workspace gets when first opened (the user may rename it). */
const DEMO_DEFAULT_NAME = 'Demo workspace';

/** Longest workspace name, in characters after trimming. */
const MAX_NAME_LENGTH = 200;

/** A running demo service, as the session needs it (see demo/server.ts). */
export interface DemoHandle {
  baseUrl: string;
  apiKey: string;
  interactions: DemoInteractionSummary[];
  close(): Promise<void>;
}

/** What the session is built from; each part is injected so tests can use real ones on loopback. */
export interface SessionDeps {
  /** settings.json (settings.ts): workspaces, the active one, preferences. */
  settings: { load(): Promise<Settings>; save(settings: Settings): Promise<void> };
  /**
   * Where keys are kept (account = workspace id). A {@link KeyStorage} also reports its status and
   * can switch to safeStorage; a plain SecretStore (tests, harness) reports itself as a working
   * keychain and refuses `useSafeStorage`.
   */
  secrets: SecretStore | KeyStorage;
  startDemo: () => Promise<DemoHandle>;
  fetch?: typeof fetch;
}

/** See {@link createSession}. Every method rejects with an {@link ApiError} unless said otherwise. */
export interface Session {
  /** The active workspace, every saved one, a restore problem if any, key storage status, preferences. */
  info(): Promise<SessionInfo>;
  /**
   * The active workspace's client. Rejects with `bad_input` when no workspace is active, or with the
   * restore problem's error (kind `keychain`) when the saved active workspace's key could not be read.
   */
  client(): Promise<ApiClient>;
  /**
   * Adds a workspace after a cheap authenticated read (GET /phones) with the given key, stores the
   * key, and makes it active. A base URL equal to an existing (non-demo) workspace's updates that
   * workspace (its key, and its name when one is given) instead of adding another. On any failure
   * nothing is stored.
   */
  connect(input: ConnectInput): Promise<SessionInfo>;
  /** Starts the embedded demo service (once) and makes the demo workspace active. */
  openDemo(): Promise<SessionInfo>;
  /** No workspace active any more; workspaces and keys are kept. */
  disconnect(): Promise<SessionInfo>;
  /**
   * Makes a saved workspace active (remembered across restarts); its key is read from storage.
   * @throws ApiError `bad_input` for an unknown id; `keychain` when the key is missing or the key
   *   storage fails (then the previously active workspace stays active).
   */
  switchWorkspace(id: string): Promise<SessionInfo>;
  /**
   * Renames a workspace (the demo one too). The name is trimmed and must be 1 to 200 characters.
   * @throws ApiError `bad_input` for an unknown id or a bad name.
   */
  renameWorkspace(id: string, name: string): Promise<SessionInfo>;
  /**
   * Replaces a workspace's key. The new key is first tried with a cheap read (GET /phones) against
   * that workspace's base URL; only if that works is it stored. If the workspace is active its
   * client is rebuilt with the new key; if it is the workspace whose restore failed, it becomes
   * active. Nothing else is cleared and the old key is never returned.
   * @throws ApiError `bad_input` (unknown id, demo workspace, empty key), the read's error
   *   (`unauthorized`, `network`, ...) or `keychain`; in each case nothing changed.
   */
  changeWorkspaceKey(id: string, apiKey: string): Promise<SessionInfo>;
  /**
   * Tests a saved workspace's base URL and key with one GET /phones (timeout from the preferences).
   * Resolves with the verdict, also when the test fails; rejects only for an unknown id.
   */
  testWorkspace(id: string): Promise<ConnectionTestResult>;
  /**
   * Removes a workspace and deletes its key from storage (the demo has none). Removing the active
   * workspace leaves none active.
   * @throws ApiError `bad_input` for an unknown id; the key storage's error (kind `keychain`) when
   *   deleting the key fails, in which case the workspace is kept.
   */
  removeWorkspace(id: string): Promise<SessionInfo>;
  /**
   * Switches key storage to Electron safeStorage (see KeyStorage.useSafeStorage).
   * @throws ApiError `bad_input` when the key storage cannot switch (plain SecretStore), when
   *   safeStorage cannot encrypt here, or when it is weak and `confirmWeak` is false.
   */
  useSafeStorage(confirmWeak: boolean): Promise<SessionInfo>;
  /**
   * Saves the preferences in settings.json; the active client is rebuilt so the new request timeout
   * (seconds, 3 to 120) applies to the next call.
   * @throws ApiError `bad_input` for a timeout that is not a whole number of seconds in range.
   */
  setPreferences(preferences: Preferences): Promise<SessionInfo>;
  /** Name of the active workspace, for messages such as "not found in workspace NAME". */
  activeWorkspaceName(): string | null;
  /** Remembers the `recording_url` of an interaction just fetched. */
  rememberRecording(sid: string, recordingUrl: string | null): void;
  /** For the recording protocol: where an interaction's recording is (fetches it if unseen). */
  locateRecording(sid: string): Promise<RecordingLocation | null>;
  /** Stops the demo service if running. */
  close(): Promise<void>;
}

/** The key storage status reported for a plain SecretStore, which cannot tell more. */
const PLAIN_STORE_STATUS: SecretStorageStatus = {
  backend: 'keychain',
  description: 'System keychain',
  keychainProblem: null,
  safeStorage: null,
};

function isKeyStorage(store: SecretStore | KeyStorage): store is KeyStorage {
  const s = store as Partial<KeyStorage>;
  return typeof s.status === 'function' && typeof s.useSafeStorage === 'function';
}

/** The error for a workspace whose key is not in storage (libsecret also says so for a locked item). */
function missingKeyError(name: string): ApiError {
  return new ApiError({
    kind: 'keychain',
    message: `The API key for ${name} is not in the keychain (it may have been removed, or the keyring is locked). Enter the key again.`,
  });
}

/** A key storage failure as an ApiError; anything else becomes a generic `keychain` error (its text may not be safe to show). */
function asKeychainError(err: unknown, name: string): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError({
    kind: 'keychain',
    message: `The API key for ${name} could not be read from the keychain. Check that the keychain is unlocked and working, then try again.`,
  });
}

function badInput(message: string): ApiError {
  return new ApiError({ kind: 'bad_input', message });
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** Creates the session. Nothing is read until the first call. */
export function createSession(deps: SessionDeps): Session {
  let settings: Settings | null = null;
  let demo: Promise<DemoHandle> | null = null;
  let active: { workspace: WorkspaceInfo; client: ApiClient; apiKey: string } | null = null;
  let restoreProblem: { workspaceId: string; error: ApiErrorData } | null = null;
  let restored: Promise<void> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const recordingUrls = new Map<string, string | null>();

  async function loadSettings(): Promise<Settings> {
    settings ??= await deps.settings.load();
    return settings;
  }

  /** Saves `next` and, only once written, makes it the settings in memory. */
  async function saveSettings(next: Settings): Promise<void> {
    await deps.settings.save(next);
    settings = next;
  }

  function ensureDemo(): Promise<DemoHandle> {
    demo ??= deps.startDemo().catch((err: unknown) => {
      demo = null;
      throw err;
    });
    return demo;
  }

  /** Request timeout of new clients, in milliseconds, from the saved preference (seconds). */
  function timeoutMs(): number {
    return (settings?.preferences.requestTimeoutSeconds ?? REQUEST_TIMEOUT_SECONDS.default) * 1000;
  }

  function clientFor(baseUrl: string, apiKey: string, single = false): ApiClient {
    return createApiClient({
      baseUrl,
      apiKey,
      timeoutMs: timeoutMs(),
      fetch: deps.fetch,
      ...(single ? { retry: { attempts: 1 } } : {}),
    });
  }

  /** Makes `workspace` active. Recordings seen are forgotten unless it is the same workspace. */
  function activate(workspace: WorkspaceInfo, apiKey: string): void {
    if (active?.workspace.id !== workspace.id) recordingUrls.clear();
    active = { workspace, apiKey, client: clientFor(workspace.baseUrl, apiKey) };
  }

  /**
   * Runs state changes one at a time, after the restore, so two calls (say a rename and a switch)
   * cannot interleave and write settings.json out of order.
   */
  function serialized<T>(fn: () => Promise<T>): Promise<T> {
    const previous = queue;
    const run = ensureRestored()
      .then(() => previous)
      .then(fn);
    queue = run.catch(() => undefined);
    return run;
  }

  /** Restores the saved active workspace once per session (a failure to load settings is retried next call). */
  function ensureRestored(): Promise<void> {
    restored ??= restore().catch((err: unknown) => {
      restored = null;
      throw err;
    });
    return restored;
  }

  /** Restores the workspace saved as active (the demo restarts on a new port). */
  async function restore(): Promise<void> {
    const s = await loadSettings();
    const stored = s.workspaces.find((w) => w.id === s.activeWorkspaceId);
    if (!stored) return;
    if (stored.id === DEMO_WORKSPACE_ID) {
      const d = await ensureDemo();
      activate({ id: stored.id, name: stored.name, baseUrl: d.baseUrl, isDemo: true }, d.apiKey);
      return;
    }
    try {
      activate({ ...stored, isDemo: false }, await readKey(stored));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // The workspace stays saved as active, so the next start tries again; the renderer offers to enter the key.
      restoreProblem = { workspaceId: stored.id, error: err.toData() };
    }
  }

  /**
   * The stored key of a (non-demo) workspace.
   * @throws ApiError `keychain` when it is missing or the key storage fails. Kind `keychain`, not
   *   `unauthorized`: the server did not reject anything (see the file comment).
   */
  async function readKey(workspace: StoredWorkspace): Promise<string> {
    let key: string | null;
    try {
      key = await deps.secrets.get(workspace.id);
    } catch (err) {
      throw asKeychainError(err, workspace.name);
    }
    if (key === null) throw missingKeyError(workspace.name);
    return key;
  }

  async function findWorkspace(id: string): Promise<StoredWorkspace> {
    const s = await loadSettings();
    const found = s.workspaces.find((w) => w.id === id);
    if (!found) throw badInput('That workspace no longer exists. Pick one from the list.');
    return found;
  }

  async function storageStatus(): Promise<SecretStorageStatus> {
    if (!isKeyStorage(deps.secrets)) return PLAIN_STORE_STATUS;
    try {
      return await deps.secrets.status();
    } catch (err) {
      // The status is shown in settings; a failure to get it must not take the whole session down.
      return {
        ...PLAIN_STORE_STATUS,
        keychainProblem: {
          problem: 'unavailable',
          message:
            err instanceof ApiError
              ? err.message
              : 'Voice Review could not check the system keychain. Restart the app and try again.',
        },
      };
    }
  }

  async function info(): Promise<SessionInfo> {
    await ensureRestored();
    const s = await loadSettings();
    const current = active;
    const workspaces: WorkspaceInfo[] = s.workspaces.map((w) =>
      current?.workspace.id === w.id ? current.workspace : { ...w, isDemo: w.id === DEMO_WORKSPACE_ID },
    );
    return {
      workspace: current?.workspace ?? null,
      workspaces,
      restoreProblem,
      demoInteractions: current?.workspace.isDemo && demo ? (await demo).interactions : [],
      secretStorage: await storageStatus(),
      preferences: { ...s.preferences },
    };
  }

  /** Adds or replaces `workspace` (keeping its place in the list) and makes it the active one. */
  async function saveActive(workspace: StoredWorkspace): Promise<void> {
    const s = await loadSettings();
    const exists = s.workspaces.some((w) => w.id === workspace.id);
    const workspaces = exists
      ? s.workspaces.map((w) => (w.id === workspace.id ? workspace : w))
      : [...s.workspaces, workspace];
    await saveSettings({ ...s, workspaces, activeWorkspaceId: workspace.id });
  }

  function checkName(name: string): string {
    const trimmed = name.trim();
    if (trimmed === '') throw badInput('Enter a name.');
    if (trimmed.length > MAX_NAME_LENGTH)
      throw badInput(`The name is too long (${MAX_NAME_LENGTH} characters at most).`);
    return trimmed;
  }

  function checkKey(apiKey: string): string {
    const trimmed = apiKey.trim();
    if (trimmed === '') throw badInput('Enter the API key from the API Keys page of your account settings.');
    return trimmed;
  }

  async function testWorkspace(id: string): Promise<ConnectionTestResult> {
    await ensureRestored();
    const stored = await findWorkspace(id);
    let baseUrl: string;
    let apiKey: string;
    if (stored.id === DEMO_WORKSPACE_ID) {
      const d = await ensureDemo();
      ({ baseUrl, apiKey } = d);
    } else {
      baseUrl = stored.baseUrl;
      try {
        apiKey = await readKey(stored);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return { ok: false, problem: 'keychain', message: err.message };
      }
    }
    const host = hostOf(baseUrl);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const phones = await clientFor(baseUrl, apiKey, true).listPhones();
      const count = phones.length === 1 ? '1 phone number' : `${phones.length} phone numbers`;
      return {
        ok: true,
        message: `Connected to ${host}: the key works (${count} in this workspace).`,
        elapsedMs: elapsed(),
      };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return connectionProblem(err, host, elapsed());
    }
  }

  return {
    info,
    async client() {
      await ensureRestored();
      if (active) return active.client;
      if (restoreProblem) throw new ApiError(restoreProblem.error);
      throw badInput('Connect to a workspace first (or open the demo workspace).');
    },
    connect: (input) =>
      serialized(async () => {
        const base = normalizeBaseUrl(input.baseUrl);
        if (!base.ok) throw badInput(base.message);
        const apiKey = checkKey(input.apiKey);
        if (input.name.trim().length > MAX_NAME_LENGTH)
          throw badInput(`The name is too long (${MAX_NAME_LENGTH} characters at most).`);
        // A cheap authenticated read proves the URL and the key before anything is saved.
        await clientFor(base.url, apiKey).listPhones();
        const s = await loadSettings();
        const existing = s.workspaces.find((w) => w.baseUrl === base.url && w.id !== DEMO_WORKSPACE_ID);
        const name = input.name.trim() || existing?.name || new URL(base.url).host;
        const id = existing?.id ?? randomUUID();
        await deps.secrets.set(id, apiKey);
        try {
          await saveActive({ id, name, baseUrl: base.url });
        } catch (err) {
          // A new workspace that could not be saved must not leave its key behind.
          if (!existing) await deps.secrets.delete(id).catch(() => false);
          throw err;
        }
        activate({ id, name, baseUrl: base.url, isDemo: false }, apiKey);
        restoreProblem = null;
        return info();
      }),
    openDemo: () =>
      serialized(async () => {
        const d = await ensureDemo();
        const s = await loadSettings();
        const name = s.workspaces.find((w) => w.id === DEMO_WORKSPACE_ID)?.name ?? DEMO_DEFAULT_NAME;
        await saveActive({ id: DEMO_WORKSPACE_ID, name, baseUrl: 'embedded' });
        activate({ id: DEMO_WORKSPACE_ID, name, baseUrl: d.baseUrl, isDemo: true }, d.apiKey);
        restoreProblem = null;
        return info();
      }),
    disconnect: () =>
      serialized(async () => {
        const s = await loadSettings();
        await saveSettings({ ...s, activeWorkspaceId: null });
        active = null;
        restoreProblem = null;
        recordingUrls.clear();
        return info();
      }),
    switchWorkspace: (id) =>
      serialized(async () => {
        const stored = await findWorkspace(id);
        let workspace: WorkspaceInfo;
        let apiKey: string;
        if (stored.id === DEMO_WORKSPACE_ID) {
          const d = await ensureDemo();
          workspace = { id: stored.id, name: stored.name, baseUrl: d.baseUrl, isDemo: true };
          apiKey = d.apiKey;
        } else {
          // Kind 'keychain' when the key cannot be read; the previous workspace stays active.
          apiKey = await readKey(stored);
          workspace = { ...stored, isDemo: false };
        }
        const s = await loadSettings();
        await saveSettings({ ...s, activeWorkspaceId: id });
        activate(workspace, apiKey);
        restoreProblem = null;
        return info();
      }),
    renameWorkspace: (id, name) =>
      serialized(async () => {
        await findWorkspace(id);
        const newName = checkName(name);
        const s = await loadSettings();
        await saveSettings({ ...s, workspaces: s.workspaces.map((w) => (w.id === id ? { ...w, name: newName } : w)) });
        if (active?.workspace.id === id) active = { ...active, workspace: { ...active.workspace, name: newName } };
        return info();
      }),
    changeWorkspaceKey: (id, apiKey) =>
      serialized(async () => {
        const stored = await findWorkspace(id);
        if (stored.id === DEMO_WORKSPACE_ID) throw badInput('The demo workspace has no key to change.');
        const newKey = checkKey(apiKey);
        // Tried before it is stored: a key the server refuses never replaces one that works.
        await clientFor(stored.baseUrl, newKey).listPhones();
        await deps.secrets.set(id, newKey);
        if (active?.workspace.id === id) {
          activate(active.workspace, newKey);
        } else if (restoreProblem?.workspaceId === id) {
          // The key the restore could not read is back: open the workspace the user was in.
          activate({ ...stored, isDemo: false }, newKey);
          restoreProblem = null;
        }
        return info();
      }),
    testWorkspace,
    removeWorkspace: (id) =>
      serialized(async () => {
        const stored = await findWorkspace(id);
        // Choice: a failed delete keeps the workspace (and throws), so a key is never left in
        // storage with no workspace through which the user could remove it.
        if (stored.id !== DEMO_WORKSPACE_ID) {
          try {
            await deps.secrets.delete(id);
          } catch (err) {
            throw asKeychainError(err, stored.name);
          }
        }
        const s = await loadSettings();
        await saveSettings({
          ...s,
          workspaces: s.workspaces.filter((w) => w.id !== id),
          activeWorkspaceId: s.activeWorkspaceId === id ? null : s.activeWorkspaceId,
        });
        if (active?.workspace.id === id) {
          active = null;
          recordingUrls.clear();
        }
        if (restoreProblem?.workspaceId === id) restoreProblem = null;
        if (id === DEMO_WORKSPACE_ID && demo) {
          const running = demo;
          demo = null;
          await (await running).close();
        }
        return info();
      }),
    useSafeStorage: (confirmWeak) =>
      serialized(async () => {
        if (!isKeyStorage(deps.secrets)) {
          throw badInput('Key storage cannot be changed in this build of Voice Review.');
        }
        await deps.secrets.useSafeStorage(confirmWeak);
        return info();
      }),
    setPreferences: (preferences) =>
      serialized(async () => {
        const seconds = preferences.requestTimeoutSeconds;
        if (
          !Number.isInteger(seconds) ||
          seconds < REQUEST_TIMEOUT_SECONDS.min ||
          seconds > REQUEST_TIMEOUT_SECONDS.max
        ) {
          throw badInput(
            `The timeout must be a whole number of seconds from ${REQUEST_TIMEOUT_SECONDS.min} to ${REQUEST_TIMEOUT_SECONDS.max}.`,
          );
        }
        const s = await loadSettings();
        await saveSettings({ ...s, preferences: { requestTimeoutSeconds: seconds } });
        // The client holds its timeout; a new one picks up the new value.
        if (active) activate(active.workspace, active.apiKey);
        return info();
      }),
    activeWorkspaceName: () => active?.workspace.name ?? null,
    rememberRecording(sid, recordingUrl) {
      recordingUrls.set(sid, recordingUrl);
    },
    async locateRecording(sid) {
      await ensureRestored();
      if (!active) return null;
      const current = active;
      if (!recordingUrls.has(sid)) {
        const interaction = await current.client.getInteraction(sid);
        recordingUrls.set(sid, interaction.recordingUrl);
      }
      return {
        recordingUrl: recordingUrls.get(sid) ?? null,
        baseUrl: current.workspace.baseUrl,
        apiKey: current.apiKey,
      };
    },
    async close() {
      const running = demo;
      demo = null;
      if (running) await (await running.catch(() => null))?.close();
    },
  };
}

/**
 * The verdict of a failed connection test (issue 4 "test connection"): `key_rejected` (401/403),
 * `not_v1` (404, or an answer that is not the v1 phone list: HTML, not JSON, wrong shape; also a
 * 400-class refusal of a plain GET), `unreachable` (DNS, refused, reset), `tls` (certificate or
 * handshake), `timeout`, `server` (5xx, or an error envelope). `elapsedMs` only when an answer
 * came back.
 */
function connectionProblem(err: ApiError, host: string, elapsedMs: number): ConnectionTestResult {
  switch (err.kind) {
    case 'unauthorized':
      return {
        ok: false,
        problem: 'key_rejected',
        message: `${host} rejected the API key (HTTP ${err.status ?? 401}). Enter the key again from the API Keys page of the account settings.`,
        elapsedMs,
      };
    case 'not_found':
    case 'bad_input':
      return {
        ok: false,
        problem: 'not_v1',
        message: `${host} answered, but not as a v1 API (HTTP ${err.status ?? 404} for the phone list). Check that the base URL is the service's /v1 address.`,
        elapsedMs,
      };
    case 'invalid_response':
      // The client's message says what came back; it already points at the base URL for a web
      // page, an empty or status-less answer, but not for another shape or an oversized body.
      return {
        ok: false,
        problem: 'not_v1',
        message: err.message.includes('/v1 address')
          ? err.message
          : `${host} answered, but not with the v1 list of phone numbers. Check that the base URL is the service's /v1 address.`,
        elapsedMs,
      };
    case 'network':
      return err.detail === 'tls'
        ? { ok: false, problem: 'tls', message: err.message }
        : { ok: false, problem: 'unreachable', message: err.message };
    case 'timeout':
      return { ok: false, problem: 'timeout', message: err.message };
    case 'keychain':
      return { ok: false, problem: 'keychain', message: err.message };
    default:
      return { ok: false, problem: 'server', message: err.message, elapsedMs };
  }
}
