/**
 * The IPC contract: declared once, implemented by the preload (`electron/preload/index.ts`),
 * served by main (`electron/main/handlers.ts`, one handler per entry) and typed on `window.api`
 * in the renderer. See STYLE.md "One contract, three users".
 */
import type {
  Interaction,
  Phone,
  PhoneUpdate,
  SipTrunk,
  SipTrunkCreate,
  Webhook,
} from './domain';
import type { ApiErrorData } from './errors';

/** The workspace the app is connected to. The API key is never part of it. */
export interface WorkspaceInfo {
  id: string;
  name: string;
  /** Base URL ending in `/v1` (spec 9). */
  baseUrl: string;
  isDemo: boolean;
}

/** What the renderer knows about the current session. */
export interface SessionInfo {
  workspace: WorkspaceInfo | null;
  /** Seeded interaction SIDs offered by the demo workspace (the spec has no list endpoint). */
  demoInteractions: DemoInteractionSummary[];
}

/** A seeded demo interaction the user can pick (demo workspace only). */
export interface DemoInteractionSummary {
  sid: string;
  label: string;
}

/** Input of the Connect screen. The key travels renderer -> main once and is never sent back. */
export interface ConnectInput {
  name: string;
  baseUrl: string;
  apiKey: string;
}

/** Result of the result of a deletion (spec 4 endpoint 10). */
export interface DeleteResult {
  /** True when the server said 404: the webhook was already gone. */
  alreadyGone: boolean;
}

/**
 * The bridge exposed as `window.api`. Every method rejects with an `ApiError`
 * (`electron/shared/errors.ts`) carrying a kind and a message a person can act on.
 */
export interface VoiceReviewApi {
  /** Current workspace (null before the first connection) and demo SIDs. */
  getSession(): Promise<SessionInfo>;
  /** Saves a workspace (key into the OS keychain) after checking the key with a cheap read. */
  connect(input: ConnectInput): Promise<SessionInfo>;
  /** Starts the embedded demo service on 127.0.0.1 and connects to it. */
  openDemo(): Promise<SessionInfo>;
  /** Forgets the current workspace choice (keeps the keychain entry). */
  disconnect(): Promise<SessionInfo>;
  /** Spec 4 endpoint 1. `sid` must be an interaction SID. */
  getInteraction(sid: string): Promise<Interaction>;
  /** Spec 4 endpoint 2. */
  listPhones(): Promise<Phone[]>;
  /** Spec 4 endpoint 3. `number` is E.164. */
  getPhone(number: string): Promise<Phone>;
  /** Spec 4 endpoint 4. Only the fields present in `update` are sent. */
  updatePhone(number: string, update: PhoneUpdate): Promise<Phone>;
  /** Spec 4 endpoint 6. */
  listSipTrunks(): Promise<SipTrunk[]>;
  /** Spec 4 endpoint 7. */
  getSipTrunk(sid: string): Promise<SipTrunk>;
  /** Spec 4 endpoint 5. */
  createSipTrunk(input: SipTrunkCreate): Promise<SipTrunk>;
  /** Spec 4 endpoint 8. */
  listWebhooks(): Promise<Webhook[]>;
  /** Spec 4 endpoint 9. */
  getWebhook(sid: string): Promise<Webhook>;
  /** Spec 4 endpoint 10. A 404 resolves with `alreadyGone: true`. */
  deleteWebhook(sid: string): Promise<DeleteResult>;
}

/** Names of the bridge methods; each is also its IPC channel name (prefixed `vr:`). */
export type ApiMethod = keyof VoiceReviewApi;

/** Every method of {@link VoiceReviewApi}, in one list (preload and main iterate it). */
export const API_METHODS = [
  'getSession',
  'connect',
  'openDemo',
  'disconnect',
  'getInteraction',
  'listPhones',
  'getPhone',
  'updatePhone',
  'listSipTrunks',
  'getSipTrunk',
  'createSipTrunk',
  'listWebhooks',
  'getWebhook',
  'deleteWebhook',
] as const satisfies readonly ApiMethod[];

/** IPC channel of a method. */
export function channelOf(method: ApiMethod): string {
  return `vr:${method}`;
}

/** What a handler returns over IPC: errors travel as data, never as thrown exceptions. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ApiErrorData };
