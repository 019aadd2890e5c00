/**
 * The session: the saved workspaces, which one is active, its API client, and the recordings it
 * has seen. Plain Node (no Electron import) so tests and the end-to-end harness use it as Electron
 * does. Composed of the workspace registry (workspace-registry.ts: settings.json), the workspace
 * keys (workspace-keys.ts: the key storage), the active workspace (active-workspace.ts: its client,
 * the demo service, the restore problem, recordings seen) and the connection test
 * (connection-test.ts).
 *
 * Where things live: each workspace's id, name and base URL in settings.json (settings.ts); its API
 * key in the key storage (`deps.secrets`, account `<workspace id>@<origin of its base URL>`); the demo workspace's key nowhere
 * (the embedded demo service makes a new one at each start). A key never appears in a
 * {@link SessionInfo}, an error message or settings.json.
 *
 * Choices the product description leaves open, each repeated at its place:
 * - A workspace key that cannot be read is an ApiError of kind `keychain`, not `unauthorized`
 *   (workspace-keys.ts says why).
 * - `removeWorkspace` refuses (workspace kept) when the key storage throws while deleting the key,
 *   so no key is left behind where the app can no longer reach it.
 * - A connection test makes a single attempt (no retries), so its verdict and `elapsedMs` describe
 *   one request.
 */
import { randomUUID } from 'node:crypto';
import { normalizeBaseUrl } from '$shared/base-url';
import type {
  ConnectInput,
  ConnectionTestResult,
  Preferences,
  SessionInfo,
  VoiceReviewApi,
  WorkspaceInfo,
} from '$shared/contract';
import { ApiError } from '$shared/errors';
import {
  createActiveWorkspace,
  type ActiveWorkspace,
  type ActiveWorkspaceReads,
  type DemoHandle,
} from './active-workspace';
import { createApiClient, type ClientOptions } from '../api/client';
import type { Resolver } from '../api/destination';
import { testConnection } from './connection-test';
import type { SecretStore } from '../keys/keychain';
import type { KeyStorage } from '../keys/secret-storage';
import type { WeakKeyStorageConfirm } from '../keys/weak-storage-dialog';
import { checkKey, createWorkspaceKeys, type WorkspaceKeys } from '../keys/workspace-keys';
import {
  badInput,
  checkName,
  createWorkspaceRegistry,
  DEMO_DEFAULT_NAME,
  DEMO_WORKSPACE_ID,
  savedBaseUrlError,
  type SettingsFile,
  type WorkspaceRegistry,
} from './workspace-registry';

export type { DemoHandle } from './active-workspace';

/** What the session is built from; each part is injected so tests can use real ones on loopback. */
export interface SessionDeps {
  /** settings.json (settings.ts): workspaces, the active one, preferences. */
  settings: SettingsFile;
  /**
   * Where keys are kept (account `<workspace id>@<origin>`, workspace-keys.ts). A {@link KeyStorage} also reports its status and
   * can switch to safeStorage; a plain SecretStore (tests, harness) reports itself as a working
   * keychain and refuses `useSafeStorage`.
   */
  secrets: SecretStore | KeyStorage;
  startDemo: () => Promise<DemoHandle>;
  fetch?: typeof fetch;
  /** Main's network (proxy, sign-in, trust) for every request of the session's clients. */
  network?: ClientOptions['network'];
  /** Resolves names for recording downloads (tests map names to refused addresses); default DNS. */
  recordingResolver?: Resolver | undefined;
  /** Told when the recordings seen are forgotten (the workspace was switched, removed or cleared). */
  onRecordingsForgotten?: (() => void) | undefined;
  /** Main's dialog before keys go to safeStorage's weak backend; without it that backend is refused. */
  confirmWeakKeyStorage?: WeakKeyStorageConfirm | undefined;
}

/**
 * The workspace operations of the bridge (see VoiceReviewApi in shared/contract.ts), each answering
 * with the new {@link SessionInfo}; the functions implementing them below say what each does and
 * throws.
 */
type WorkspaceOperations = Pick<
  VoiceReviewApi,
  | 'connect'
  | 'openDemo'
  | 'disconnect'
  | 'switchWorkspace'
  | 'renameWorkspace'
  | 'changeWorkspaceKey'
  | 'testWorkspace'
  | 'removeWorkspace'
  | 'useSafeStorage'
  | 'setPreferences'
>;

/** See {@link createSession}. Every method rejects with an {@link ApiError} unless said otherwise. */
export interface Session extends WorkspaceOperations {
  /** The active workspace, every saved one, a restore problem if any, key storage status, preferences. */
  info(): Promise<SessionInfo>;
  /**
   * The active workspace as the rest of main reads it: its client (rejecting with `bad_input` when
   * none is active, or the restore problem's `keychain` error), its interactions and recordings.
   * The operations above are what change it.
   */
  readonly activeWorkspace: ActiveWorkspaceReads;
  /** Stops the demo service if running. */
  close(): Promise<void>;
}

/** The parts a session operation works on. */
interface Parts {
  registry: WorkspaceRegistry;
  keys: WorkspaceKeys;
  active: ActiveWorkspace;
  fetch: typeof fetch | undefined;
  network: ClientOptions['network'];
}

/** Creates the session. Nothing is read until the first call. */
export function createSession(deps: SessionDeps): Session {
  const registry = createWorkspaceRegistry(deps.settings);
  const keys = createWorkspaceKeys(deps.secrets, { confirmWeakKeyStorage: deps.confirmWeakKeyStorage });
  const active = createActiveWorkspace({
    registry,
    keys,
    startDemo: deps.startDemo,
    fetch: deps.fetch,
    network: deps.network,
    recordingResolver: deps.recordingResolver,
    onRecordingsForgotten: deps.onRecordingsForgotten,
  });
  const parts: Parts = {
    registry,
    keys,
    active,
    fetch: deps.fetch,
    network: deps.network,
  };
  let queue: Promise<unknown> = Promise.resolve();

  const info = async (): Promise<SessionInfo> => {
    await active.ensureRestored();
    return sessionInfo(parts);
  };

  /**
   * Runs a state change after the restore and after every earlier change, so two calls (say a
   * rename and a switch) cannot interleave and write settings.json out of order; answers with the
   * session info after it.
   */
  function change(fn: () => Promise<unknown>): Promise<SessionInfo> {
    const previous = queue;
    const run = active
      .ensureRestored()
      .then(() => previous)
      .then(fn)
      .then(() => sessionInfo(parts));
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    info,
    connect: (input) => change(() => connect(parts, input)),
    openDemo: () => change(() => openDemo(parts)),
    disconnect: () => change(() => disconnect(parts)),
    switchWorkspace: (id) => change(() => switchWorkspace(parts, id)),
    renameWorkspace: (id, name) => change(() => renameWorkspace(parts, id, name)),
    changeWorkspaceKey: (id, apiKey) => change(() => changeWorkspaceKey(parts, id, apiKey)),
    testWorkspace: (id) => testWorkspace(parts, id),
    removeWorkspace: (id) => change(() => removeWorkspace(parts, id)),
    useSafeStorage: (confirmWeak) => change(() => useSafeStorage(parts, confirmWeak)),
    setPreferences: (preferences) => change(() => setPreferences(parts, preferences)),
    activeWorkspace: active,
    close: () => active.close(),
  };
}

async function sessionInfo({ registry, keys, active }: Parts): Promise<SessionInfo> {
  const s = await registry.settings();
  const current = active.workspace();
  const workspaces: WorkspaceInfo[] = s.workspaces.map((w) =>
    current?.id === w.id ? current : { id: w.id, name: w.name, baseUrl: w.baseUrl, isDemo: w.id === DEMO_WORKSPACE_ID },
  );
  return {
    workspace: current,
    workspaces,
    restoreProblem: active.restoreProblem(),
    demoInteractions: await active.demoInteractions(),
    secretStorage: await keys.status(),
    preferences: { ...s.preferences },
  };
}

/**
 * Adds a workspace after a cheap authenticated read (GET /phones) with the given key, stores the
 * key, and makes it active. A base URL equal to an existing (non-demo) workspace's updates that
 * workspace (its key, and its name when one is given) instead of adding another. On any failure
 * nothing is stored.
 */
async function connect({ registry, keys, active, fetch, network }: Parts, input: ConnectInput): Promise<void> {
  const base = normalizeBaseUrl(input.baseUrl);
  if (!base.ok) throw badInput(base.message);
  const apiKey = checkKey(input.apiKey);
  const givenName = checkName(input.name, true);
  // A cheap authenticated read proves the URL and the key before anything is saved.
  await createApiClient({ baseUrl: base.url, apiKey, timeoutMs: registry.timeoutMs(), fetch, network }).listPhones();
  const s = await registry.settings();
  const existing = s.workspaces.find((w) => w.baseUrl === base.url && w.id !== DEMO_WORKSPACE_ID);
  const name = givenName || existing?.name || new URL(base.url).host;
  const id = existing?.id ?? randomUUID();
  await keys.store({ id, baseUrl: base.url }, apiKey);
  try {
    await registry.saveActive({ id, name, baseUrl: base.url });
  } catch (err) {
    // A new workspace that could not be saved must not leave its key behind.
    if (!existing) await keys.forget({ id, baseUrl: base.url });
    throw err;
  }
  active.activate({ id, name, baseUrl: base.url, isDemo: false }, apiKey);
}

/** Starts the embedded demo service (once) and makes the demo workspace active. */
async function openDemo({ registry, active }: Parts): Promise<void> {
  const d = await active.demo();
  const s = await registry.settings();
  const name = s.workspaces.find((w) => w.id === DEMO_WORKSPACE_ID)?.name ?? DEMO_DEFAULT_NAME;
  await registry.saveActive({ id: DEMO_WORKSPACE_ID, name, baseUrl: 'embedded' });
  active.activate({ id: DEMO_WORKSPACE_ID, name, baseUrl: d.baseUrl, isDemo: true }, d.apiKey);
}

/**
 * Renames a workspace (the demo one too). The name is trimmed and must be 1 to 200 characters.
 * @throws ApiError `bad_input` for an unknown id or a bad name.
 */
async function renameWorkspace({ registry, active }: Parts, id: string, name: string): Promise<void> {
  await registry.find(id);
  const newName = checkName(name);
  await registry.rename(id, newName);
  active.renamed(id, newName);
}

/**
 * Replaces a workspace's key. The new key is first tried with a cheap read (GET /phones) against
 * that workspace's base URL; only if that works is it stored. If the workspace is active its
 * client is rebuilt with the new key; if it is the workspace whose restore failed, it becomes
 * active. Nothing else is cleared and the old key is never returned.
 * @throws ApiError `bad_input` (unknown id, demo workspace, empty key), the read's error
 *   (`unauthorized`, `network`, ...) or `keychain`; in each case nothing changed.
 */
async function changeWorkspaceKey(
  { registry, keys, active, fetch, network }: Parts,
  id: string,
  apiKey: string,
): Promise<void> {
  const stored = await registry.find(id);
  if (stored.id === DEMO_WORKSPACE_ID) throw badInput('The demo workspace has no key to change.');
  // A saved base URL that breaks the rule is never sent anything, not even a new key to try.
  if (stored.baseUrlProblem !== undefined) throw savedBaseUrlError(stored);
  const newKey = checkKey(apiKey);
  // Tried before it is stored: a key the server refuses never replaces one that works.
  const client = createApiClient({
    baseUrl: stored.baseUrl,
    apiKey: newKey,
    timeoutMs: registry.timeoutMs(),
    fetch,
    network,
  });
  await client.listPhones();
  await keys.store(stored, newKey);
  active.keyChanged(stored, newKey);
}

/**
 * Removes a workspace and deletes its key from storage (the demo has none). Removing the active
 * workspace leaves none active.
 * @throws ApiError `bad_input` for an unknown id; the key storage's error (kind `keychain`) when
 *   deleting the key fails, in which case the workspace is kept.
 */
async function removeWorkspace({ registry, keys, active }: Parts, id: string): Promise<void> {
  const stored = await registry.find(id);
  // Choice: a failed delete keeps the workspace (and throws), so a key is never left in
  // storage with no workspace through which the user could remove it.
  if (stored.id !== DEMO_WORKSPACE_ID) await keys.remove(stored);
  await registry.remove(id);
  await active.removed(id);
}

/**
 * Tests a saved workspace's base URL and key with one GET /phones (timeout from the preferences).
 * Resolves with the verdict, also when the test fails; rejects only for an unknown id.
 */
async function testWorkspace({ registry, active, fetch, network }: Parts, id: string): Promise<ConnectionTestResult> {
  await active.ensureRestored();
  const stored = await registry.find(id);
  let target: { workspace: WorkspaceInfo; apiKey: string };
  try {
    target = await active.resolve(stored);
  } catch (err) {
    if (!(err instanceof ApiError) || stored.id === DEMO_WORKSPACE_ID) throw err;
    return { ok: false, problem: stored.baseUrlProblem === undefined ? 'keychain' : 'bad_url', message: err.message };
  }
  const { workspace, apiKey } = target;
  return testConnection({ baseUrl: workspace.baseUrl, apiKey, timeoutMs: registry.timeoutMs(), fetch, network });
}

/** No workspace active any more; workspaces and keys are kept. */
async function disconnect({ registry, active }: Parts): Promise<void> {
  await registry.setActiveId(null);
  active.clear();
}

/**
 * Makes a saved workspace active (remembered across restarts); its key is read from storage.
 * @throws ApiError `bad_input` for an unknown id; `keychain` when the key is missing or the key
 *   storage fails (then the previously active workspace stays active).
 */
async function switchWorkspace({ registry, active }: Parts, id: string): Promise<void> {
  // Kind 'keychain' when the key cannot be read; the previous workspace stays active.
  const { workspace, apiKey } = await active.resolve(await registry.find(id));
  await registry.setActiveId(id);
  active.activate(workspace, apiKey);
}

/**
 * Switches key storage to Electron safeStorage (see KeyStorage.useSafeStorage).
 * @throws ApiError `bad_input` when the key storage cannot switch (plain SecretStore), when
 *   safeStorage cannot encrypt here, or when it is weak and `confirmWeak` is false or main's
 *   dialog was refused.
 */
async function useSafeStorage({ keys }: Parts, confirmWeak: boolean): Promise<void> {
  await keys.useSafeStorage(confirmWeak);
}

/**
 * Saves the preferences in settings.json; the active client is rebuilt so the new request timeout
 * (seconds, 3 to 120) applies to the next call.
 * @throws ApiError `bad_input` for a timeout that is not a whole number of seconds in range.
 */
async function setPreferences({ registry, active }: Parts, preferences: Preferences): Promise<void> {
  await registry.setPreferences(preferences);
  // The client holds its timeout; a new one picks up the new value.
  active.rebuildClient();
}
