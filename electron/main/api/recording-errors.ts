/**
 * Recording states in words: the one place that turns what happened to a recording download
 * (spec 2 `recording_url`) into a {@link RecordingProblem} kind and a sentence a person can act
 * on. The player (through the recording protocol) and the waveform (through the peaks service)
 * both fail with these, so both say the same thing. Upstream bodies are never part of a message:
 * they may echo the request.
 */
import type { RecordingProblem, RecordingProblemKind } from '$shared/contract';
import { ApiError, type ApiErrorKind } from '$shared/errors';

/** Largest recording fetched, in bytes (1 GiB); a larger one is refused before its body is read. */
export const MAX_RECORDING_BYTES = 1024 * 1024 * 1024;

/** Most redirects followed for one recording request; a sixth is refused. */
export const MAX_REDIRECTS = 5;

/** The ApiError kind each recording problem travels as, for callers that only look at `kind`. */
const API_KIND: Record<RecordingProblemKind, ApiErrorKind> = {
  no_recording: 'not_found',
  gone: 'not_found',
  refused: 'unauthorized',
  redirect_refused: 'server',
  unsafe_destination: 'bad_input',
  timed_out: 'timeout',
  unreachable: 'network',
  not_audio: 'invalid_response',
  too_large: 'invalid_response',
  undecodable: 'invalid_response',
  unplayable_format: 'invalid_response',
  server_error: 'server',
};

/** An {@link ApiError} that also says which {@link RecordingProblemKind} it is. */
export class RecordingError extends ApiError {
  constructor(
    readonly problem: RecordingProblemKind,
    message: string,
    status?: number,
  ) {
    super({ kind: API_KIND[problem], message, ...(status === undefined ? {} : { status }) });
  }
}

/**
 * The error for a recording server's final answer outside 200-299. `keyAttached` says whether the
 * API key was sent on that hop: a 401/403 then means "enter the key again", else "the link expired".
 */
export function recordingStatusError(status: number, keyAttached: boolean): RecordingError {
  if (status === 404 || status === 410) {
    return new RecordingError(
      'gone',
      `The recording link no longer exists or has expired (HTTP ${status}). Reload the interaction; if it stays, the recording was deleted.`,
      status,
    );
  }
  if (status === 401 || status === 403) {
    return new RecordingError(
      'refused',
      keyAttached
        ? `The server refused the API key for the recording (HTTP ${status}). Enter the key again.`
        : `The recording server refused access (HTTP ${status}); its link may have expired. Reload the interaction.`,
      status,
    );
  }
  return new RecordingError(
    'server_error',
    status >= 500
      ? `The recording server failed (HTTP ${status}) while sending the recording. Try again later.`
      : `The recording server answered HTTP ${status} instead of the recording.`,
    status,
  );
}

/** A redirect that was not followed, and why ("it redirected more than 5 times"). */
export function redirectRefused(why: string, status?: number): RecordingError {
  return new RecordingError('redirect_refused', `The recording server's redirect was not followed: ${why}.`, status);
}

/** A destination the rules refuse (api/destination.ts), and which rule. */
export function unsafeDestination(rule: string): RecordingError {
  return new RecordingError('unsafe_destination', `Voice Review did not open the recording: ${rule}.`);
}

/** No answer, or the answer stalled, within `timeoutMs`. */
export function recordingTimedOut(timeoutMs: number): RecordingError {
  const seconds = Math.max(1, Math.round(timeoutMs / 1000));
  return new RecordingError(
    'timed_out',
    `The recording server did not answer, or stopped sending, for ${seconds} s. Try again.`,
  );
}

/** The recording server could not be reached (DNS, refused connection, TLS, cut). */
export function recordingUnreachable(): RecordingError {
  return new RecordingError(
    'unreachable',
    'The recording server could not be reached. Check the connection and try again.',
  );
}

/** The answer's content type is text or data, not audio: typically an error or login page. */
export function notAudio(contentType: string): RecordingError {
  return new RecordingError(
    'not_audio',
    `The recording server sent "${contentType.slice(0, 80)}", which is not an audio format. The link may have expired; reload the interaction.`,
  );
}

/** The recording is over {@link MAX_RECORDING_BYTES}. */
export function tooLarge(bytes: number | null): RecordingError {
  const size = bytes === null ? '' : ` (${(bytes / 1024 ** 3).toFixed(1)} GiB)`;
  return new RecordingError(
    'too_large',
    `The recording is larger than ${MAX_RECORDING_BYTES / 1024 ** 3} GiB${size}; Voice Review does not load it.`,
  );
}

/** The recording problem an ApiError kind stands for; any other kind is a `server_error`. */
const PROBLEM_OF_API_KIND: Partial<Record<ApiErrorKind, RecordingProblemKind>> = {
  timeout: 'timed_out',
  network: 'unreachable',
  not_found: 'no_recording',
  invalid_response: 'undecodable',
};

/** The {@link RecordingProblem} an error stands for: a RecordingError's own, else from its ApiError kind. */
export function problemOf(err: unknown): RecordingProblem {
  if (err instanceof RecordingError) return { kind: err.problem, message: err.message };
  if (err instanceof ApiError) return { kind: PROBLEM_OF_API_KIND[err.kind] ?? 'server_error', message: err.message };
  return { kind: 'server_error', message: 'The recording could not be loaded. Try again.' };
}
