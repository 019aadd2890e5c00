/**
 * The two halves of the bridge.
 *
 * `window.api` (built by the preload, or by the end-to-end stand-in) is a {@link RawApi}: one
 * function per contract method that resolves with the handler's {@link IpcResult}, errors
 * included, as plain data. The renderer wraps it once with {@link createTypedApi}, which
 * rethrows failures as {@link ApiError}. The rethrow happens on the renderer's side because
 * Electron's contextBridge copies only the `message` of an Error thrown across it (electron
 * PR #28346); an `ApiError` built in the preload would arrive without its `kind`.
 */
import {
  API_METHODS,
  MENU_COMMANDS,
  PUSH_CHANNELS,
  type ApiMethod,
  type IpcResult,
  type MenuCommand,
  type OpenLinkPush,
  type ProxySignInPush,
  type RecordingSessionEvent,
  type RecordingSessionPush,
  type UpdateStatePush,
  type VoiceReviewApi,
} from './contract';
import { MAX_LINK_SECONDS } from './deep-link';
import { ApiError, isApiErrorData } from './errors';
import { isRecordingProblem } from './recording-problem';
import { isSid } from './sid';

/** What `window.api` is: each method resolves with the result as data and never rejects by design. */
export type RawApi = {
  [K in ApiMethod]: (
    ...args: Parameters<VoiceReviewApi[K]>
  ) => Promise<IpcResult<Awaited<ReturnType<VoiceReviewApi[K]>>>>;
};

/** Sends one call: channel name and positional arguments; resolves with the handler's result. */
export type RawInvoke = (channel: string, args: unknown[]) => Promise<unknown>;

/** Builds a {@link RawApi} over an invoke function (the preload passes `ipcRenderer.invoke`). */
export function createRawApi(invoke: RawInvoke, channelOf: (method: ApiMethod) => string): RawApi {
  const raw: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of API_METHODS) raw[method] = (...args: unknown[]) => invoke(channelOf(method), args);
  return raw as unknown as RawApi;
}

/**
 * The typed API the renderer's queries call. Each method resolves with the handler's value or
 * rejects with an {@link ApiError}: the handler's own, or `invalid_response` for a malformed
 * result, or `network` if the bridge itself failed.
 */
export function createTypedApi(raw: RawApi): VoiceReviewApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of API_METHODS) {
    api[method] = async (...args: unknown[]) => {
      let result: unknown;
      try {
        result = await (raw[method] as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch {
        throw new ApiError({
          kind: 'network',
          message: "Voice Review's background process did not answer. Restart the app; if it happens again, report it.",
        });
      }
      return unwrap(method, result);
    };
  }
  return api as unknown as VoiceReviewApi;
}

function unwrap(method: ApiMethod, result: unknown): unknown {
  // Untrusted until checked: only an object with ok true/false and the matching field is a result.
  const r = result as { ok?: unknown; value?: unknown; error?: unknown } | null;
  if (r && typeof r === 'object' && r.ok === true) return r.value;
  if (r && typeof r === 'object' && r.ok === false && isApiErrorData(r.error)) throw new ApiError(r.error);
  throw new ApiError({
    kind: 'invalid_response',
    message: `Voice Review's background process gave an unexpected answer to ${method}. Restart the app; if it happens again, report it.`,
  });
}

/**
 * What main pushes to the page, exposed by the preload as `window.appEvents`: subscriptions only,
 * each returning its unsubscribe function. Callbacks get the payload alone (never Electron's
 * event, whose `sender` would reach back into IPC), and only a payload of the right shape.
 */
export interface AppEvents {
  /** A `voice-review://` link main received from the OS, read (or refused) by main. */
  onOpenLink(callback: (push: OpenLinkPush) => void): () => void;
  /** A native menu item for the page (e.g. "Open link…", "Keyboard shortcuts"). */
  onMenuCommand(callback: (command: MenuCommand) => void): () => void;
  /** A proxy asks for a sign-in: the sheet opens, answered with `answerProxySignIn`. */
  onProxySignIn(callback: (push: ProxySignInPush) => void): () => void;
  /** The update's new state. */
  onUpdateState(callback: (push: UpdateStatePush) => void): () => void;
  /** An event of a recording session this page opened (`openRecordingSession`). */
  onRecordingSession(callback: (push: RecordingSessionPush) => void): () => void;
}

/** Listens on a push channel; returns the function that stops listening (the preload passes `ipcRenderer.on`). */
export type PushSubscribe = (channel: string, listener: (payload: unknown) => void) => () => void;

/** Builds {@link AppEvents} over a subscribe function; payloads of the wrong shape are dropped. */
export function createAppEvents(subscribe: PushSubscribe): AppEvents {
  return {
    onOpenLink: (callback) =>
      subscribe(PUSH_CHANNELS.openLink, (payload) => {
        if (isOpenLinkPush(payload)) callback(payload);
      }),
    onMenuCommand: (callback) =>
      subscribe(PUSH_CHANNELS.menuCommand, (payload) => {
        if (MENU_COMMANDS.includes(payload as MenuCommand)) callback(payload as MenuCommand);
      }),
    onProxySignIn: (callback) =>
      subscribe(PUSH_CHANNELS.proxySignIn, (payload) => {
        if (isProxySignInPush(payload)) callback(payload);
      }),
    onUpdateState: (callback) =>
      subscribe(PUSH_CHANNELS.updateState, (payload) => {
        const status = (payload as { status?: unknown } | null)?.status;
        if (typeof status === 'string') callback(payload as UpdateStatePush);
      }),
    onRecordingSession: (callback) =>
      subscribe(PUSH_CHANNELS.recordingSession, (payload) => {
        if (isRecordingSessionPush(payload)) callback(payload);
      }),
  };
}

/**
 * True when `value` is a {@link RecordingSessionPush} as main sends it: a session id and an event
 * of a known type whose own fields have their shape (peaks are checked for being objects only:
 * the waveform reads their numbers, nothing executes them).
 */
export function isRecordingSessionPush(value: unknown): value is RecordingSessionPush {
  const v = value as { sessionId?: unknown; event?: unknown } | null;
  if (v === null || typeof v !== 'object' || typeof v.sessionId !== 'string') return false;
  const event = v.event as Partial<Record<string, unknown>> | null;
  if (event === null || typeof event !== 'object') return false;
  const isObject = (x: unknown) => x !== null && typeof x === 'object';
  switch (event.type as RecordingSessionEvent['type']) {
    case 'peaks-progress':
      return isObject(event.progress) && isObject((event.progress as { peaks?: unknown }).peaks);
    case 'peaks':
      return isObject(event.peaks) && Array.isArray((event.peaks as { channels?: unknown }).channels);
    case 'decode-in-page':
      return true;
    case 'peaks-failed':
      return isRecordingProblem(event.problem);
    case 'problem':
      return event.problem === null || isRecordingProblem(event.problem);
    case 'download':
      return (
        event.progress === null ||
        (isObject(event.progress) && typeof (event.progress as { receivedBytes?: unknown }).receivedBytes === 'number')
      );
    case 'seekable':
      return typeof event.src === 'string' && event.src.length <= 2000;
    default:
      return false;
  }
}

/** True when `value` is a {@link ProxySignInPush} as main sends it. */
export function isProxySignInPush(value: unknown): value is ProxySignInPush {
  const v = value as Record<string, unknown> | null;
  if (v === null || typeof v !== 'object') return false;
  const optionalString = (x: unknown) => x === null || (typeof x === 'string' && x.length <= 500);
  return (
    typeof v.id === 'string' &&
    typeof v.proxyHost === 'string' &&
    v.proxyHost.length <= 300 &&
    optionalString(v.realm) &&
    typeof v.rejected === 'boolean' &&
    optionalString(v.username)
  );
}

/** True when `value` is an {@link OpenLinkPush} as main sends it (a valid SID, a time within bounds). */
export function isOpenLinkPush(value: unknown): value is OpenLinkPush {
  const v = value as { ok?: unknown; message?: unknown; link?: unknown } | null;
  if (v === null || typeof v !== 'object') return false;
  if (v.ok === false) return typeof v.message === 'string';
  if (v.ok !== true || v.link === null || typeof v.link !== 'object') return false;
  const { sid, atSeconds, workspaceName } = v.link as Record<string, unknown>;
  return (
    typeof sid === 'string' &&
    isSid('interaction', sid) &&
    (atSeconds === null || (typeof atSeconds === 'number' && atSeconds >= 0 && atSeconds <= MAX_LINK_SECONDS)) &&
    (workspaceName === null || typeof workspaceName === 'string')
  );
}
