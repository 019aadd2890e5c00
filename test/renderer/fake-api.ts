/**
 * A stand-in for `window.api` (a {@link RawApi}) in renderer tests.
 *
 * Each method answers with what the test gave it: a value (`ok(...)`), an error (`fail(...)`),
 * a function of the call's arguments, or a {@link Deferred} that stays pending until the test
 * settles it (to see loading states). Every call is recorded with its arguments. A method the
 * test did not configure answers with a `server` error naming it, so an unexpected call shows
 * up on screen and in `calls` instead of hanging.
 *
 * Main's pushes are stood in too (`window.appEvents`). `openRecordingSession` answers with a
 * session on `vr-recording://local/recording/<sid>` and then plays main's part with the test's
 * `getPeaks` reply (when it has one): the final peaks pushed, a format main does not decode
 * (`detail: 'unsupported_format'`) as `decode-in-page`, any other failure as `peaks-failed` with
 * the problem kind main maps it to. A test pushes anything else with {@link FakeApi.push}.
 */
import {
  API_METHODS,
  type ApiMethod,
  type IpcResult,
  type SessionInfo,
  type VoiceReviewApi,
  type WorkspaceInfo,
} from '$shared/contract';
import type { RawApi } from '$shared/bridge';
import type { Interaction, LogEntry, Phone, Webhook } from '$shared/domain';
import type { RecordingProblemKind, RecordingSessionEvent, RecordingSessionPush } from '$shared/contract';
import type { AppEvents } from '$shared/bridge';
import type { ApiErrorData, ApiErrorKind } from '$shared/errors';
import { DEFAULT_REDACTION_SETTINGS } from '$shared/redaction';
import { DEFAULT_RUBRIC_CRITERIA } from '$shared/reviews';
import { resetApi } from '../../renderer/src/lib/api';

type ValueOf<K extends ApiMethod> = Awaited<ReturnType<VoiceReviewApi[K]>>;
type ArgsOf<K extends ApiMethod> = Parameters<VoiceReviewApi[K]>;

/** A reply that stays pending until `resolve`/`fail` is called. Every call made meanwhile shares it. */
export interface Deferred<T> {
  readonly kind: 'deferred';
  readonly promise: Promise<IpcResult<T>>;
  resolve(value: T): void;
  fail(error: ApiErrorData): void;
}

/** Creates a {@link Deferred} reply. */
export function deferred<T>(): Deferred<T> {
  let settle!: (result: IpcResult<T>) => void;
  const promise = new Promise<IpcResult<T>>((resolve) => (settle = resolve));
  return {
    kind: 'deferred',
    promise,
    resolve: (value) => settle({ ok: true, value }),
    fail: (error) => settle({ ok: false, error }),
  };
}

/** What a configured method answers. */
export type Reply<K extends ApiMethod> =
  | IpcResult<ValueOf<K>>
  | Deferred<ValueOf<K>>
  | ((...args: ArgsOf<K>) => IpcResult<ValueOf<K>> | Promise<IpcResult<ValueOf<K>>>);

export type Replies = { [K in ApiMethod]?: Reply<K> };

/** A successful reply. */
export function ok<T>(value: T): IpcResult<T> {
  return { ok: true, value };
}

/** A failed reply, as main sends it. */
export function fail(error: ApiErrorData): { ok: false; error: ApiErrorData } {
  return { ok: false, error };
}

export interface FakeApi {
  /** The object installed as `window.api`. */
  raw: RawApi;
  /** Arguments of every call, per method, in call order. */
  calls: { [K in ApiMethod]: ArgsOf<K>[] };
  /** Changes what `method` answers from now on. */
  reply<K extends ApiMethod>(method: K, reply: Reply<K>): void;
  /** Pushes `event` on the last recording session opened (as main's `recordingSession` push). */
  push(event: RecordingSessionEvent): void;
  /** How many listeners the page has on recording session pushes. */
  readonly sessionListeners: number;
}

/** The pushes' stand-in the last fake installed. */
let installedAppEvents: AppEvents | null = null;

/** The recording problem kind main maps each ApiError kind to (api/recording-errors.ts `problemOf`). */
const PROBLEM_OF_KIND: Partial<Record<ApiErrorKind, RecordingProblemKind>> = {
  timeout: 'timed_out',
  network: 'unreachable',
  not_found: 'no_recording',
  invalid_response: 'undecodable',
};

function isDeferred(value: unknown): value is Deferred<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'deferred';
}

/**
 * Builds a fake API, installs it as `window.api` and forgets the renderer's cached wrapper
 * (`resetApi`) so the next `api()` call uses it.
 */
export function installFakeApi(replies: Replies = {}): FakeApi {
  // A fresh install has no recent calls (the Calls view lists them before any lookup), and
  // a fresh account no phones or webhooks (a shown call cross-checks its number against them).
  const current: Record<string, unknown> = {
    listRecentCalls: ok([]),
    getQueue: ok([]),
    listPhones: ok([]),
    listWebhooks: ok([]),
    // A desk without a proxy or imported CAs, and no updater (as in development).
    getNetworkSettings: ok({ certificates: [], trust: { bundled: 140, system: null, imported: 0 }, proxy: null }),
    getUpdateState: ok(null),
    setPlaybackState: ok(undefined),
    // ... and no reviews: the default rubric, every masking rule on.
    getReviewStoreState: ok({ kind: 'ok' }),
    getReview: ok(null),
    listReviews: ok({ rows: [], total: 0 }),
    reviewSummaries: ok({}),
    getRubric: ok({ version: 1, criteria: [...DEFAULT_RUBRIC_CRITERIA], createdAtMs: 0 }),
    getRedactionSettings: ok({ ...DEFAULT_REDACTION_SETTINGS }),
    ...replies,
  };
  const calls = Object.fromEntries(API_METHODS.map((m) => [m, [] as unknown[][]])) as FakeApi['calls'];
  const raw: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of API_METHODS) {
    raw[method] = async (...args: unknown[]) => {
      (calls[method] as unknown[][]).push(args);
      const reply = current[method];
      if (reply === undefined) {
        return fail({ kind: 'server', message: `The fake API has no reply for ${method} in this test.` });
      }
      if (isDeferred(reply)) return reply.promise;
      if (typeof reply === 'function') return (reply as (...a: unknown[]) => unknown)(...args);
      return reply;
    };
  }
  const listeners = new Set<(push: RecordingSessionPush) => void>();
  let sessions = 0;
  const pushTo = (sessionId: string, event: RecordingSessionEvent) => {
    for (const listener of [...listeners]) listener({ sessionId, event });
  };
  /** Main's part after an open: the test's getPeaks reply, pushed. */
  const playMain = async (sessionId: string, sid: string) => {
    if (current.getPeaks === undefined) return;
    const result = (await raw.getPeaks!(sid)) as IpcResult<unknown>;
    if (result.ok) pushTo(sessionId, { type: 'peaks', peaks: result.value as never });
    else if (result.error.detail === 'unsupported_format') pushTo(sessionId, { type: 'decode-in-page' });
    else
      pushTo(sessionId, {
        type: 'peaks-failed',
        problem: { kind: PROBLEM_OF_KIND[result.error.kind] ?? 'server_error', message: result.error.message },
      });
  };
  current.openRecordingSession ??= (sid: string) => {
    sessions += 1;
    const sessionId = `session-${sessions}`;
    setTimeout(() => void playMain(sessionId, sid), 0);
    return ok({ sessionId, src: `vr-recording://local/recording/${sid}` });
  };
  current.closeRecordingSession ??= ok(undefined);
  const fake: FakeApi = {
    raw: raw as unknown as RawApi,
    calls,
    reply(method, reply) {
      current[method] = reply;
    },
    push(event) {
      pushTo(`session-${sessions}`, event);
    },
    get sessionListeners() {
      return listeners.size;
    },
  };
  const none = () => () => undefined;
  const appEvents: AppEvents = {
    onOpenLink: none,
    onMenuCommand: none,
    onProxySignIn: none,
    onUpdateState: none,
    onRecordingSession(callback) {
      listeners.add(callback);
      return () => {
        listeners.delete(callback);
      };
    },
  };
  // A test's own stand-in of main's pushes (links.test.ts) is kept.
  if (window.appEvents === undefined || window.appEvents === installedAppEvents) {
    window.appEvents = appEvents;
    installedAppEvents = appEvents;
  }
  window.api = fake.raw;
  resetApi();
  installDialogPolyfill();
  return fake;
}

/**
 * jsdom has `<dialog>` but not `showModal`/`close`. This stand-in does what the app relies on:
 * `showModal` opens it (the `open` attribute, so it becomes visible to role queries), `close`
 * closes it and fires `close`, and Escape inside an open dialog fires a cancelable `cancel` and
 * closes unless the handler prevented it, as Chromium does.
 */
export function installDialogPolyfill(): void {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & { __voiceReviewPolyfill?: boolean };
  if (proto.__voiceReviewPolyfill) return;
  proto.__voiceReviewPolyfill = true;
  const open = function open(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.showModal = open;
  proto.show = open;
  proto.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const dialog = event.target instanceof Element ? event.target.closest<HTMLDialogElement>('dialog[open]') : null;
    if (!dialog) return;
    const cancel = new Event('cancel', { cancelable: true });
    if (dialog.dispatchEvent(cancel)) dialog.close();
  });
}

/** Session fields every session carries; each builder starts from these. */
export function sessionDefaults(): SessionInfo {
  return {
    workspace: null,
    workspaces: [],
    restoreProblem: null,
    demoInteractions: [],
    secretStorage: {
      backend: 'keychain',
      description: 'System keychain (Secret Service)',
      keychainProblem: null,
      safeStorage: null,
    },
    preferences: { requestTimeoutSeconds: 15 },
  };
}

/** A session with no workspace yet: the app opens on the Connect screen. */
export function noWorkspace(): SessionInfo {
  return sessionDefaults();
}

/** A session connected to a demo workspace offering `demoInteractions`. */
export function demoSession(
  name = 'Demo workspace',
  demoInteractions: SessionInfo['demoInteractions'] = [],
): SessionInfo {
  const workspace = { id: 'ws-demo', name, baseUrl: 'http://127.0.0.1:4010/v1', isDemo: true };
  return { ...sessionDefaults(), workspace, workspaces: [workspace], demoInteractions };
}

/** A saved workspace (not the demo one unless `isDemo`). */
export function workspace(
  id: string,
  name: string,
  baseUrl = `https://${id}.example.com/v1`,
  isDemo = false,
): WorkspaceInfo {
  return { id, name, baseUrl, isDemo };
}

/** "Production" (https://api.example.com/v1) and "Staging" (https://staging.example.com/v1). */
export const PRODUCTION = workspace('ws-prod', 'Production', 'https://api.example.com/v1');
export const STAGING = workspace('ws-staging', 'Staging', 'https://staging.example.com/v1');

/**
 * A session with two saved workspaces, Production and Staging; `activeId` picks the active one
 * (Production by default, null for none).
 */
export function twoWorkspacesSession(
  activeId: string | null = PRODUCTION.id,
  overrides: Partial<SessionInfo> = {},
): SessionInfo {
  const workspaces = [PRODUCTION, STAGING];
  return {
    ...sessionDefaults(),
    workspaces,
    workspace: workspaces.find((w) => w.id === activeId) ?? null,
    ...overrides,
  };
}

/** A phone with the given name and E.164 number; other fields empty. */
export function phone(name: string, number: string): Phone {
  return {
    sid: null,
    name,
    number,
    sipTrunk: null,
    createdAt: null,
    updatedAt: null,
    inboundAgentId: null,
    outboundAgentId: null,
  };
}

/**
 * A webhook at https://hooks.example.com/calls for both call events, tied to the phone
 * +14155550199 ("Front desk"), overridable field by field.
 */
export function webhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    sid: 'wh_1',
    url: 'https://hooks.example.com/calls',
    callStartedEvent: true,
    callEndedEvent: true,
    createdAt: null,
    updatedAt: null,
    apiKey: null,
    phoneNumber: { sid: 'phone_1', number: '+14155550199', name: 'Front desk' },
    ...overrides,
  };
}

/**
 * An interaction with no recording (so the waveform player is not mounted), overridable field
 * by field. Each test passes the fields it asserts on.
 */
export function interaction(overrides: Partial<Interaction> & { sid: string }): Interaction {
  return {
    fromNumber: null,
    toNumber: null,
    direction: null,
    type: null,
    status: null,
    agentSid: null,
    startedAtMs: null,
    endedAtMs: null,
    durationSeconds: null,
    variables: {},
    log: [],
    recording: { available: false, reason: 'This interaction has no recording.' },
    ...overrides,
  };
}

/** A transcript entry: position `index` in the log, `offsetSeconds` from the start (null: no time). */
export function logEntry(index: number, role: string, message: string, offsetSeconds: number | null): LogEntry {
  return { index, role, message, offsetSeconds };
}
