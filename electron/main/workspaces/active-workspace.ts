/**
 * The active workspace: which one it is, its API client, the embedded demo service when the demo
 * is open, the problem met while restoring the saved active workspace, and the recordings seen
 * (for the recording protocol and the peaks service).
 *
 * The saved active workspace is restored once per session; after a restore problem, switching to
 * it again or entering its key reads storage again.
 */
import type { DemoInteractionSummary, RecordingProblem, WorkspaceInfo } from '$shared/contract';
import { ApiError, type ApiErrorData } from '$shared/errors';
import { createApiClient, type ApiClient } from '../api/client';
import type { Resolver } from '../api/destination';
import type { ParsedInteraction } from '../api/schemas';
import type { ClientOptions } from '../api/client';
import { recordingLocation, type RecordingLocation } from '../recordings/recording-location';
import type { StoredWorkspace } from './settings';
import type { WorkspaceKeys } from '../keys/workspace-keys';
import { badInput, DEMO_WORKSPACE_ID, type WorkspaceRegistry } from './workspace-registry';

/** A running demo service, as the session needs it (see demo/server.ts). */
export interface DemoHandle {
  baseUrl: string;
  apiKey: string;
  interactions: DemoInteractionSummary[];
  close(): Promise<void>;
}

/** The saved active workspace whose key could not be read at start, and why. */
export interface RestoreProblem {
  workspaceId: string;
  error: ApiErrorData;
}

/** What {@link createActiveWorkspace} is built from. */
interface ActiveWorkspaceDeps {
  registry: WorkspaceRegistry;
  keys: WorkspaceKeys;
  startDemo: () => Promise<DemoHandle>;
  fetch?: typeof fetch | undefined;
  /** Main's network (proxy, sign-in, trust) for the client's requests and recordings. */
  network?: ClientOptions['network'];
  /** Resolves names for recording downloads (tests map names to refused addresses); default DNS. */
  recordingResolver?: Resolver | undefined;
  /** Told when the recordings seen are forgotten (the run's recording cache deletes its files). */
  onRecordingsForgotten?: (() => void) | undefined;
}

/** See {@link createActiveWorkspace}. */
export interface ActiveWorkspace {
  /** Restores the saved active workspace once (a failure to load settings is retried next call). */
  ensureRestored(): Promise<void>;
  /** The active workspace, or null. */
  workspace(): WorkspaceInfo | null;
  /** The restore problem, or null. */
  restoreProblem(): RestoreProblem | null;
  /**
   * The active workspace's client.
   * @throws ApiError `bad_input` when none is active, or the restore problem's error (kind `keychain`).
   */
  client(): Promise<ApiClient>;
  /** Makes `workspace` active with `apiKey` and clears the restore problem. Recordings seen are forgotten unless it is the same workspace. */
  activate(workspace: WorkspaceInfo, apiKey: string): void;
  /**
   * The workspace as it is when active and the key to use: the demo service's address and key for
   * the demo workspace (started if needed), the stored key otherwise.
   * @throws ApiError `keychain` when the stored key cannot be read.
   */
  resolve(stored: StoredWorkspace): Promise<{ workspace: WorkspaceInfo; apiKey: string }>;
  /** Called after a key change: rebuilds the active client, or opens the workspace whose restore failed. */
  keyChanged(stored: StoredWorkspace, apiKey: string): void;
  /** Called after a rename: the active workspace shows the new name. */
  renamed(id: string, name: string): void;
  /** Called after a removal: no workspace is active if it was this one; the demo service stops when it is the demo. */
  removed(id: string): Promise<void>;
  /** No workspace active, no restore problem, no recordings remembered. */
  clear(): void;
  /** Rebuilds the client so a new request timeout applies to the next call. */
  rebuildClient(): void;
  /** The demo service, started once. */
  demo(): Promise<DemoHandle>;
  /** The demo's interactions when the demo is active, else none. */
  demoInteractions(): Promise<DemoInteractionSummary[]>;
  /**
   * Fetches interaction `sid` from the active workspace and remembers its `recording_url` under
   * (workspace, requested SID). Concurrent asks for the same SID in the same workspace share one
   * request (the view's interaction query and its peaks query arrive together).
   */
  lookUpInteraction(sid: string): Promise<ParsedInteraction>;
  /**
   * Where interaction `sid`'s recording is in the active workspace (looked up if unseen), with the
   * fetcher to reach it and where to report its problems; null with no active workspace.
   */
  locateRecording(sid: string): Promise<RecordingLocation | null>;
  /** The last problem met with interaction `sid`'s recording in the active workspace, or null. */
  recordingProblem(sid: string): RecordingProblem | null;
  /**
   * Calls `listener` with each problem reported for a recording (null when a later attempt
   * worked), with the workspace and the SID it was located under; returns what stops it.
   */
  onRecordingProblem(listener: RecordingProblemListener): () => void;
  /** Stops the demo service if running. */
  close(): Promise<void>;
}

/**
 * What the rest of main reads from the active workspace (the handlers, the exports, the recording
 * protocol, the peaks service); changes go through the session's workspace operations only.
 */
export type ActiveWorkspaceReads = Pick<
  ActiveWorkspace,
  'workspace' | 'client' | 'lookUpInteraction' | 'locateRecording' | 'recordingProblem' | 'onRecordingProblem'
>;

/** Told of a recording's problem: the workspace and SID it was located under, and the problem (null: it worked). */
export type RecordingProblemListener = (workspaceId: string, sid: string, problem: RecordingProblem | null) => void;

/** Creates the active-workspace state; none is active until restored or activated. */
export function createActiveWorkspace(deps: ActiveWorkspaceDeps): ActiveWorkspace {
  return new ActiveWorkspaceState(deps);
}

class ActiveWorkspaceState implements ActiveWorkspace {
  private active: { workspace: WorkspaceInfo; client: ApiClient; apiKey: string } | null = null;
  private problem: RestoreProblem | null = null;
  private restored: Promise<void> | null = null;
  private running: Promise<DemoHandle> | null = null;
  /** `recording_url` by (workspace id, requested SID), see {@link keyOf}. */
  private readonly recordingUrls = new BoundedMap<string | null>();
  /** Last recording problem by (workspace id, requested SID). */
  private readonly problems = new BoundedMap<RecordingProblem>();
  private readonly problemListeners = new Set<RecordingProblemListener>();
  /** Interaction lookups under way by (workspace id, requested SID). */
  private readonly lookups = new Map<string, Promise<ParsedInteraction>>();

  constructor(private readonly deps: ActiveWorkspaceDeps) {}

  ensureRestored(): Promise<void> {
    this.restored ??= this.restore().catch((err: unknown) => {
      this.restored = null;
      throw err;
    });
    return this.restored;
  }

  workspace(): WorkspaceInfo | null {
    return this.active?.workspace ?? null;
  }

  restoreProblem(): RestoreProblem | null {
    return this.problem;
  }

  async client(): Promise<ApiClient> {
    await this.ensureRestored();
    if (this.active) return this.active.client;
    if (this.problem) throw new ApiError(this.problem.error);
    throw badInput('Connect to a workspace first (or open the demo workspace).');
  }

  activate(workspace: WorkspaceInfo, apiKey: string): void {
    if (this.active?.workspace.id !== workspace.id) this.forgetRecordings();
    const client = createApiClient({
      baseUrl: workspace.baseUrl,
      apiKey,
      timeoutMs: this.deps.registry.timeoutMs(),
      fetch: this.deps.fetch,
      network: this.deps.network,
      ...(this.deps.recordingResolver ? { recordingResolver: this.deps.recordingResolver } : {}),
    });
    this.active = { workspace, apiKey, client };
    this.problem = null;
  }

  async resolve(stored: StoredWorkspace): Promise<{ workspace: WorkspaceInfo; apiKey: string }> {
    if (stored.id === DEMO_WORKSPACE_ID) {
      const d = await this.demo();
      return { workspace: { id: stored.id, name: stored.name, baseUrl: d.baseUrl, isDemo: true }, apiKey: d.apiKey };
    }
    return { workspace: { ...stored, isDemo: false }, apiKey: await this.deps.keys.read(stored) };
  }

  keyChanged(stored: StoredWorkspace, apiKey: string): void {
    if (this.active?.workspace.id === stored.id) this.activate(this.active.workspace, apiKey);
    // The key the restore could not read is back: open the workspace the user was in.
    else if (this.problem?.workspaceId === stored.id) this.activate({ ...stored, isDemo: false }, apiKey);
  }

  renamed(id: string, name: string): void {
    if (this.active?.workspace.id === id) {
      this.active = { ...this.active, workspace: { ...this.active.workspace, name } };
    }
  }

  async removed(id: string): Promise<void> {
    if (this.active?.workspace.id === id) {
      this.active = null;
      this.forgetRecordings();
    }
    if (this.problem?.workspaceId === id) this.problem = null;
    if (id === DEMO_WORKSPACE_ID && this.running) {
      const running = this.running;
      this.running = null;
      await (await running).close();
    }
  }

  clear(): void {
    this.active = null;
    this.problem = null;
    this.forgetRecordings();
  }

  /** Forgets recording URLs and problems (a lookup under way still finishes, under its own workspace's key). */
  private forgetRecordings(): void {
    this.recordingUrls.clear();
    this.problems.clear();
    this.deps.onRecordingsForgotten?.();
  }

  rebuildClient(): void {
    if (this.active) this.activate(this.active.workspace, this.active.apiKey);
  }

  demo(): Promise<DemoHandle> {
    this.running ??= this.deps.startDemo().catch((err: unknown) => {
      this.running = null;
      throw err;
    });
    return this.running;
  }

  async demoInteractions(): Promise<DemoInteractionSummary[]> {
    return this.active?.workspace.isDemo && this.running ? (await this.running).interactions : [];
  }

  async lookUpInteraction(sid: string): Promise<ParsedInteraction> {
    const client = await this.client();
    const workspaceId = this.active?.workspace.id ?? '';
    const key = keyOf(workspaceId, sid);
    let lookup = this.lookups.get(key);
    if (!lookup) {
      lookup = client
        .getInteraction(sid)
        .then((interaction) => {
          this.recordingUrls.set(key, interaction.recordingUrl);
          return interaction;
        })
        .finally(() => this.lookups.delete(key));
      this.lookups.set(key, lookup);
    }
    return lookup;
  }

  async locateRecording(sid: string): Promise<RecordingLocation | null> {
    await this.ensureRestored();
    if (!this.active) return null;
    const { client, workspace } = this.active;
    const key = keyOf(workspace.id, sid);
    const recordingUrl = this.recordingUrls.has(key)
      ? (this.recordingUrls.get(key) ?? null)
      : (await this.lookUpInteraction(sid)).recordingUrl;
    return recordingLocation(client, recordingUrl, workspace.id, (problem) => {
      if (problem) this.problems.set(key, problem);
      else this.problems.delete(key);
      for (const listener of [...this.problemListeners]) listener(workspace.id, sid, problem);
    });
  }

  recordingProblem(sid: string): RecordingProblem | null {
    return this.active ? (this.problems.get(keyOf(this.active.workspace.id, sid)) ?? null) : null;
  }

  onRecordingProblem(listener: RecordingProblemListener): () => void {
    this.problemListeners.add(listener);
    return () => {
      this.problemListeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    if (running) await (await running.catch(() => null))?.close();
  }

  /** Restores the workspace saved as active (the demo restarts on a new port). */
  private async restore(): Promise<void> {
    const s = await this.deps.registry.settings();
    const stored = s.workspaces.find((w) => w.id === s.activeWorkspaceId);
    if (!stored) return;
    try {
      const { workspace, apiKey } = await this.resolve(stored);
      this.activate(workspace, apiKey);
    } catch (err) {
      if (!(err instanceof ApiError) || stored.id === DEMO_WORKSPACE_ID) throw err;
      // The workspace stays saved as active, so the next start tries again; the renderer offers to enter the key.
      this.problem = { workspaceId: stored.id, error: err.toData() };
    }
  }
}

/** The key of an interaction's recording facts: the workspace it was asked in, then the SID asked for. */
function keyOf(workspaceId: string, sid: string): string {
  return `${workspaceId}\n${sid}`;
}

/** A Map that keeps its 500 most recently set entries. */
class BoundedMap<V> extends Map<string, V> {
  override set(key: string, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > 500) super.delete(this.keys().next().value as string);
    return this;
  }
}
