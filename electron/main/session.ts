/**
 * The session: which workspace is active, its API client, and the recordings it has seen.
 * Plain Node (no Electron import) so tests and the end-to-end harness use it as Electron does.
 */
import { randomUUID } from 'node:crypto';
import { normalizeBaseUrl } from '../shared/base-url';
import type {
  ConnectInput,
  ConnectionTestResult,
  DemoInteractionSummary,
  Preferences,
  SessionInfo,
  WorkspaceInfo,
} from '../shared/contract';
import { ApiError } from '../shared/errors';
import { createApiClient, type ApiClient } from './api/client';
import type { SecretStore } from './keychain';
import type { KeyStorage } from './secret-storage';
import type { RecordingLocation } from './recording-protocol';
import type { Settings, StoredWorkspace } from './settings';

/** Id of the embedded demo workspace in the settings file. */
export const DEMO_WORKSPACE_ID = 'demo';

/** A running demo service, as the session needs it (see demo/server.ts). */
export interface DemoHandle {
  baseUrl: string;
  apiKey: string;
  interactions: DemoInteractionSummary[];
  close(): Promise<void>;
}

/** What the session is built from; each part is injected so tests can use real ones on loopback. */
export interface SessionDeps {
  settings: { load(): Promise<Settings>; save(settings: Settings): Promise<void> };
  /** Where keys are kept; a plain SecretStore (tests) reports itself as a working keychain. */
  secrets: SecretStore | KeyStorage;
  startDemo: () => Promise<DemoHandle>;
  /** Request timeout in milliseconds for API calls. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** See {@link createSession}. */
export interface Session {
  info(): Promise<SessionInfo>;
  /** The active workspace's client; `bad_input` error when no workspace is active. */
  client(): Promise<ApiClient>;
  connect(input: ConnectInput): Promise<SessionInfo>;
  openDemo(): Promise<SessionInfo>;
  disconnect(): Promise<SessionInfo>;
  switchWorkspace(id: string): Promise<SessionInfo>;
  renameWorkspace(id: string, name: string): Promise<SessionInfo>;
  changeWorkspaceKey(id: string, apiKey: string): Promise<SessionInfo>;
  testWorkspace(id: string): Promise<ConnectionTestResult>;
  removeWorkspace(id: string): Promise<SessionInfo>;
  useSafeStorage(confirmWeak: boolean): Promise<SessionInfo>;
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

/** Creates the session. Nothing is read until the first call. */
export function createSession(deps: SessionDeps): Session {
  let settings: Settings | null = null;
  let demo: DemoHandle | null = null;
  let active: { workspace: WorkspaceInfo; client: ApiClient; apiKey: string } | null = null;
  const recordingUrls = new Map<string, string | null>();

  async function loadSettings(): Promise<Settings> {
    settings ??= await deps.settings.load();
    return settings;
  }

  async function ensureDemo(): Promise<DemoHandle> {
    demo ??= await deps.startDemo();
    return demo;
  }

  function activate(workspace: WorkspaceInfo, apiKey: string): void {
    recordingUrls.clear();
    active = {
      workspace,
      apiKey,
      client: createApiClient({ baseUrl: workspace.baseUrl, apiKey, timeoutMs: deps.timeoutMs, fetch: deps.fetch }),
    };
  }

  /** Restores the workspace saved as active (demo restarts on a new port). */
  async function restore(): Promise<void> {
    if (active) return;
    const s = await loadSettings();
    const stored = s.workspaces.find((w) => w.id === s.activeWorkspaceId);
    if (!stored) return;
    if (stored.id === DEMO_WORKSPACE_ID) {
      const d = await ensureDemo();
      activate({ id: stored.id, name: stored.name, baseUrl: d.baseUrl, isDemo: true }, d.apiKey);
      return;
    }
    const key = await deps.secrets.get(stored.id);
    // No key (deleted, or the keyring is locked: keytar then returns null): show Connect again.
    if (key === null) return;
    activate({ ...stored, isDemo: false }, key);
  }

  async function info(): Promise<SessionInfo> {
    await restore();
    const s = await loadSettings();
    return {
      workspace: active?.workspace ?? null,
      workspaces: s.workspaces.map((w) => ({ ...w, isDemo: w.id === DEMO_WORKSPACE_ID })),
      restoreProblem: null,
      demoInteractions: active?.workspace.isDemo && demo ? demo.interactions : [],
      secretStorage: { backend: 'keychain', description: 'System keychain', keychainProblem: null, safeStorage: null },
      preferences: { requestTimeoutSeconds: 15 },
    };
  }

  async function saveActive(workspace: StoredWorkspace): Promise<void> {
    const s = await loadSettings();
    const workspaces = [...s.workspaces.filter((w) => w.id !== workspace.id), workspace];
    settings = { ...s, workspaces, activeWorkspaceId: workspace.id };
    await deps.settings.save(settings);
  }

  return {
    info,
    async client() {
      await restore();
      if (!active) {
        throw new ApiError({ kind: 'bad_input', message: 'Connect to a workspace first (or open the demo workspace).' });
      }
      return active.client;
    },
    async connect(input) {
      const base = normalizeBaseUrl(input.baseUrl);
      if (!base.ok) throw new ApiError({ kind: 'bad_input', message: base.message });
      const apiKey = input.apiKey.trim();
      if (apiKey === '') throw new ApiError({ kind: 'bad_input', message: 'Enter the API key from the API Keys page of your account settings.' });
      const name = input.name.trim() || new URL(base.url).host;
      // A cheap authenticated read proves the URL and the key before anything is saved.
      await createApiClient({ baseUrl: base.url, apiKey, timeoutMs: deps.timeoutMs, fetch: deps.fetch }).listPhones();
      const s = await loadSettings();
      const existing = s.workspaces.find((w) => w.baseUrl === base.url && w.id !== DEMO_WORKSPACE_ID);
      const id = existing?.id ?? randomUUID();
      await deps.secrets.set(id, apiKey);
      await saveActive({ id, name, baseUrl: base.url });
      activate({ id, name, baseUrl: base.url, isDemo: false }, apiKey);
      return info();
    },
    async openDemo() {
      const d = await ensureDemo();
      await saveActive({ id: DEMO_WORKSPACE_ID, name: 'Demo workspace', baseUrl: 'embedded' });
      activate({ id: DEMO_WORKSPACE_ID, name: 'Demo workspace', baseUrl: d.baseUrl, isDemo: true }, d.apiKey);
      return info();
    },
    async disconnect() {
      const s = await loadSettings();
      settings = { ...s, activeWorkspaceId: null };
      await deps.settings.save(settings);
      active = null;
      recordingUrls.clear();
      return info();
    },
    // STUB: workspace management is being written (issue 4).
    switchWorkspace: notYet,
    renameWorkspace: notYet,
    changeWorkspaceKey: notYet,
    testWorkspace: notYet,
    removeWorkspace: notYet,
    useSafeStorage: notYet,
    setPreferences: notYet,
    activeWorkspaceName: () => active?.workspace.name ?? null,
    rememberRecording(sid, recordingUrl) {
      recordingUrls.set(sid, recordingUrl);
    },
    async locateRecording(sid) {
      await restore();
      if (!active) return null;
      const current = active;
      if (!recordingUrls.has(sid)) {
        const interaction = await current.client.getInteraction(sid);
        recordingUrls.set(sid, interaction.recordingUrl);
      }
      return { recordingUrl: recordingUrls.get(sid) ?? null, baseUrl: current.workspace.baseUrl, apiKey: current.apiKey };
    },
    async close() {
      await demo?.close();
      demo = null;
    },
  };
}

async function notYet(): Promise<never> {
  throw new ApiError({ kind: 'server', message: 'Not available yet.' });
}
