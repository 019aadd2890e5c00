/**
 * Typed errors that cross the IPC bridge as data (see STYLE.md "Errors cross IPC as data").
 *
 * Spec 7 does not show an error body shape, error codes or HTTP statuses, so every failure is
 * classified by what we can observe: the HTTP status, whether a body parsed, and transport errors.
 */

/** What went wrong, in terms a view can react to. */
export type ApiErrorKind =
  /** 401/403: the API key was rejected. */
  | 'unauthorized'
  /** 404: the SID, number or path does not exist in this workspace. */
  | 'not_found'
  /** The server could not be reached (DNS, refused connection, TLS, reset). */
  | 'network'
  /** No response within the request timeout. */
  | 'timeout'
  /** The server answered, but not with a body the spec describes. */
  | 'invalid_response'
  /** 5xx or an error envelope with another status. */
  | 'server'
  /** The input was refused, by us before sending or by the server (400/409/422). */
  | 'bad_input'
  /** The OS keychain could not store or read the key. */
  | 'keychain'
  /** A local file of the app (the reviews database, a settings file) could not be read or written. */
  | 'storage';

/** Plain-data form of an {@link ApiError}: what main sends to the renderer. */
export interface ApiErrorData {
  kind: ApiErrorKind;
  /** A sentence a support person can act on. Never contains the API key. */
  message: string;
  /** HTTP status of the response, when there was one. */
  status?: number;
  /** The server's own message from its error body, when it had one. */
  serverMessage?: string;
  /** Finer cause, where a caller acts on it ({@link ApiErrorDetail}); absent otherwise. */
  detail?: ApiErrorDetail;
}

/**
 * Finer cause of an error:
 * - `tls` (kind `network`): the TLS layer failed (untrusted, expired or mismatched certificate,
 *   handshake error), so a connection test can say "TLS error" instead of "unreachable";
 * - `unsupported_format` (kind `invalid_response`, from main's peaks decoder): the recording is in
 *   a container or codec main's decoder does not read (WebM, MP4/M4A, ADTS AAC, ...), not a broken
 *   file, so the page draws its waveform with Chromium's own decoders instead.
 */
export type ApiErrorDetail = 'tls' | 'unsupported_format';

/** An error with a {@link ApiErrorKind}; thrown by the client in main and rethrown by the preload. */
export class ApiError extends Error implements ApiErrorData {
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly detail?: ApiErrorDetail;

  constructor(data: ApiErrorData) {
    super(data.message);
    this.name = 'ApiError';
    this.kind = data.kind;
    if (data.status !== undefined) this.status = data.status;
    if (data.serverMessage !== undefined) this.serverMessage = data.serverMessage;
    if (data.detail !== undefined) this.detail = data.detail;
  }

  /** The plain-data form sent over IPC. */
  toData(): ApiErrorData {
    const data: ApiErrorData = { kind: this.kind, message: this.message };
    if (this.status !== undefined) data.status = this.status;
    if (this.serverMessage !== undefined) data.serverMessage = this.serverMessage;
    if (this.detail !== undefined) data.detail = this.detail;
    return data;
  }
}

/** True for any value shaped like an {@link ApiError} (also after a structured clone). */
export function isApiErrorData(value: unknown): value is ApiErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.kind === 'string' && typeof v.message === 'string';
}
