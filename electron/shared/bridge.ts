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
import { API_METHODS, type ApiMethod, type IpcResult, type VoiceReviewApi } from './contract';
import { ApiError, isApiErrorData } from './errors';

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
