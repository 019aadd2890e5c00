/**
 * Security rules of the Electron shell in one place (STYLE.md "Security in one room"), as plain
 * functions so they are tested under Node. `index.ts` wires them into Electron.
 */
import type { ApiMethod, IpcResult } from '$shared/contract';
import type { HandlerTable, IpcCaller } from './handlers';

/**
 * Scheme of the app's own pages in production builds (a custom protocol rather than file://, so
 * a page reaches only what the app protocol serves). Registered as privileged (standard, secure, fetch) by main.
 */
export const APP_SCHEME = 'app';
/** Host of every app URL: `app://voice-review/...`. */
export const APP_HOST = 'voice-review';
/** Origin of the app's pages in production, as Chromium reports it for a standard scheme. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page a production window loads. */
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** Content-Security-Policy of the app's pages: only the app itself and the recording protocol. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // wavesurfer.js renders into a shadow root with a <style> element, and Svelte sets style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  // Recordings stream through an <audio> element on the recording protocol; the page's peaks
  // decoder reads one it draws itself (a format main does not decode) from the same URL.
  "media-src 'self' vr-recording:",
  "connect-src 'self' vr-recording:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * True when `url` belongs to the app: a page of the `app://voice-review` origin or, in
 * development, of the dev server's origin. Compared by parsed scheme, host and port, never by
 * string prefix, so `app://voice-review.evil/`, `app://evil/voice-review/` and
 * `http://localhost:5173.evil.example/` are refused. `file:` URLs are never the app.
 * @param url the URL of the frame that sent an IPC message or wants to navigate
 * @param devServerUrl electron-vite's dev server URL, when running `npm run dev` (unpackaged only)
 */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  const parsed = parseUrl(url);
  if (!parsed) return false;
  // Node's URL gives custom schemes an opaque ("null") origin, so compare the parts instead.
  if (
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === ''
  ) {
    return true;
  }
  const dev = devServerUrl ? parseUrl(devServerUrl) : null;
  if (!dev || (dev.protocol !== 'http:' && dev.protocol !== 'https:')) return false;
  return parsed.origin === dev.origin;
}

/** Options of {@link secureWebPreferences}. */
export interface WindowSecurityOptions {
  /**
   * Whether DevTools can be opened: `!app.isPackaged` (on for `npm run dev` and unpackaged runs,
   * off in the installed app, where DevTools would let anyone at the keyboard script the page).
   */
  devTools: boolean;
}

/**
 * `webPreferences` of every app window: isolated, sandboxed, no Node in the renderer, web
 * security on, no insecure content, no experimental features, DevTools only when `devTools`.
 * @param preloadPath absolute path of the built preload script
 */
export function secureWebPreferences(preloadPath: string, { devTools }: WindowSecurityOptions) {
  return {
    preload: preloadPath,
    devTools,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
  } as const;
}

/**
 * Permissions an app page may have (denied by default): only
 * `clipboard-sanitized-write`, which the Copy buttons need (`navigator.clipboard.writeText`), and
 * only for the app's own pages. Everything else (camera, microphone, notifications, geolocation,
 * clipboard read, ...) is denied, for every origin. Used for both Electron's permission request
 * and permission check handlers.
 * @param permission Electron's permission name
 * @param requestingUrl the requesting page's URL or origin
 */
export function isPermissionAllowed(permission: string, requestingUrl: string, devServerUrl?: string): boolean {
  return permission === 'clipboard-sanitized-write' && isAppUrl(requestingUrl, devServerUrl);
}

/**
 * The answer to every `window.open` and `target=_blank` link of a page (Electron's window open
 * handler): always deny, and hand nothing to the system browser. The app has no external links
 * of its own, so a page asking to open one is following text a server sent (a log message, a
 * variable) or script that should not be there. Logs the refusal with the URL's origin only.
 * @param url the URL the page asked to open
 * @param log the (redacting) main log
 */
export function refuseWindowOpen(url: string, log: { warn(...data: unknown[]): void }): { action: 'deny' } {
  log.warn(`Refused to open a new window for ${describeSender(url)}.`);
  return { action: 'deny' };
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The answer to an IPC call from a frame outside the app (the handler is not run). */
export const REFUSED_SENDER_RESULT = {
  ok: false,
  error: { kind: 'bad_input', message: 'Refused: the request did not come from Voice Review.' },
} as const satisfies IpcResult<never>;

/** Options of {@link createIpcGuard}. */
export interface IpcGuardOptions {
  handlers: HandlerTable;
  /** electron-vite's dev server URL in development, else undefined. */
  devServerUrl?: string;
  /** The (redacting) main log. */
  log: { info(...data: unknown[]): void; warn(...data: unknown[]): void };
  /** Runs before an accepted call's handler, with its raw arguments (main registers secrets here). */
  beforeCall?(method: ApiMethod, args: readonly unknown[]): void;
}

/**
 * The one entry point of every IPC call, checking `event.senderFrame` on each: refuses a call whose sender frame is not an app page ({@link isAppUrl}; a missing or
 * destroyed frame is refused too) with {@link REFUSED_SENDER_RESULT} and a log line naming the
 * method and the sender's origin, otherwise runs the method's handler. Failed calls are logged
 * (kind, status, message: for support), input refusals at info level, the rest as warnings;
 * the log redacts secrets. Never throws.
 * @returns `(method, senderUrl, args, caller) => result`, `senderUrl` being `event.senderFrame?.url`
 *   and `caller` that frame (for the methods that push to it), when known
 */
export function createIpcGuard(options: IpcGuardOptions) {
  return async (
    method: ApiMethod,
    senderUrl: string | null | undefined,
    args: unknown[],
    caller?: IpcCaller,
  ): Promise<IpcResult<unknown>> => {
    if (typeof senderUrl !== 'string' || !isAppUrl(senderUrl, options.devServerUrl)) {
      options.log.warn(`Refused IPC call ${method} from ${describeSender(senderUrl)}.`);
      return { ok: false, error: { ...REFUSED_SENDER_RESULT.error } };
    }
    options.beforeCall?.(method, args);
    const result = await options.handlers[method](args, caller);
    if (!result.ok) {
      const { kind, status, message } = result.error;
      const line = `${method} failed: ${kind}${status === undefined ? '' : ` (HTTP ${status})`}: ${message}`;
      if (kind === 'bad_input') options.log.info(line);
      else options.log.warn(line);
    }
    return result;
  };
}

/** The sender as a log line may name it: its origin (or scheme) only, never its path or query. */
function describeSender(senderUrl: string | null | undefined): string {
  if (typeof senderUrl !== 'string' || senderUrl === '') return 'a frame that is gone or has no URL';
  const parsed = parseUrl(senderUrl);
  if (!parsed) return 'a frame with an unparsable URL';
  return parsed.host ? `${parsed.protocol}//${parsed.host}` : parsed.protocol;
}
