/**
 * Where a call's waveform peaks come from. Main decodes most recordings in its worker and keeps
 * their peaks in its disk cache. A recording in a format main's decoder does not read (WebM/Opus,
 * MP4/M4A with AAC, ADTS AAC: main's `invalid_response` error with `detail:
 * 'unsupported_format'`) is decoded here instead, with Chromium's own decoders in the page's
 * peaks worker, from the URL the player plays: main's recording protocol serves it from the one
 * download it already made, so nothing is fetched from the service twice. The waveform fills in
 * from the page's peaks so far exactly as from main's, and the final peaks go back to main's disk
 * cache (contract `storePeaks`), so the next view of the call comes from there.
 *
 * Main's own refusals (a broken file, one past the caps) are passed on as they are: the view says
 * the recording has no waveform. A failure of the page's decode is a {@link PageDecodeError}: the
 * view offers to retry it.
 */
import type { PeaksProgress, RecordingPeaks } from '$shared/contract';
import { ApiError } from '$shared/errors';
import type { ComputedPeaks } from '$shared/peaks-reducer';

/** What a peaks source reads from: main's peaks (the contract's methods) and the page's decoder. */
export interface PeaksSourceParts {
  /** Main's peaks of interaction `sid`'s recording (contract `getPeaks`). */
  getPeaks(sid: string): Promise<RecordingPeaks>;
  /** Main's peaks so far (contract `getPeaksProgress`). */
  getPeaksProgress(sid: string): Promise<PeaksProgress | null>;
  /** Hands the page's final peaks to main's disk cache (contract `storePeaks`). */
  storePeaks(sid: string, peaks: ComputedPeaks): Promise<void>;
  /**
   * Decodes the recording at `src` in the page (decode/recording-decode.ts), reporting the peaks
   * decoded so far (`durationSeconds` = seconds covered) to `onProgress`.
   */
  decodeInPage(
    src: string,
    request: { onProgress: (peaks: ComputedPeaks) => void; signal?: AbortSignal },
  ): Promise<ComputedPeaks>;
}

/** How {@link PeaksSource.peaks} reaches the recording when it decodes it in the page. */
export interface PeaksRequest {
  /** The recording's URL as the player plays it, or null when not known (then main's refusal stands). */
  recordingSrc: () => string | null;
  /**
   * Stops the page's decode (asked for only once the page decodes, so a caller that cancels on it,
   * as svelte-query does, never cancels a wait for main).
   */
  signal?: () => AbortSignal;
}

/** The call's waveform source; see the module comment. */
export interface PeaksSource {
  /**
   * Peaks and exact duration of interaction `sid`'s recording (shape: contract `RecordingPeaks`,
   * seconds): main's, or the page's decode of `request.recordingSrc()` when main does not decode
   * the format (then `fromCache` is false, and main is handed the peaks to keep; its refusal to
   * keep them changes nothing here).
   * @throws main's ApiError as contract `getPeaks` (kind 'invalid_response' without the
   *   `unsupported_format` detail for a recording nothing draws); {@link PageDecodeError} when the
   *   page's decode failed; the signal's `AbortError` when `request.signal` stopped it
   */
  peaks(sid: string, request: PeaksRequest): Promise<RecordingPeaks>;
  /**
   * The peaks decoded so far (shape: contract `PeaksProgress`): the page's while it decodes `sid`'s
   * recording, else main's (contract `getPeaksProgress`); null before any audio is decoded.
   */
  progress(sid: string): Promise<PeaksProgress | null>;
}

/**
 * The page's decode of a recording failed: the recording protocol did not answer with it, the
 * download broke off, or Chromium could not decode it. `message` says why, in the words of the
 * part that failed; `cause` is that part's error. Not an ApiError, so the view offers "Retry
 * waveform" instead of saying the format has no waveform.
 */
export class PageDecodeError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'PageDecodeError';
  }
}

/** True for main's refusal of a recording whose format it does not decode (errors.ts `ApiErrorDetail`). */
function isUnsupportedFormat(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'invalid_response' && error.detail === 'unsupported_format';
}

/** True for the error of an aborted fetch or decode. */
function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The {@link PeaksSource} over `parts`. */
export function createPeaksSource(parts: PeaksSourceParts): PeaksSource {
  /** The page's decodes under way, by SID, with the peaks decoded so far. */
  const decoding = new Map<string, { latest: PeaksProgress | null }>();

  async function decodeInPage(sid: string, src: string, signal: AbortSignal | undefined): Promise<RecordingPeaks> {
    const run: { latest: PeaksProgress | null } = { latest: null };
    decoding.set(sid, run);
    try {
      const peaks = await parts.decodeInPage(src, {
        onProgress: (partial) => {
          run.latest = {
            peaks: { ...partial, fromCache: false },
            coveredSeconds: partial.durationSeconds,
            complete: false,
          };
        },
        ...(signal ? { signal } : {}),
      });
      // Not waited for: the waveform is drawn at once, and a cache that cannot keep it only misses.
      void parts.storePeaks(sid, peaks).catch(() => undefined);
      return { ...peaks, fromCache: false };
    } catch (err) {
      if (isAbort(err) || signal?.aborted) throw err;
      const message = err instanceof Error && err.message ? err.message : 'The recording could not be decoded.';
      throw new PageDecodeError(message, { cause: err });
    } finally {
      // A newer decode of the same call (a retry) keeps its own progress.
      if (decoding.get(sid) === run) decoding.delete(sid);
    }
  }

  return {
    async peaks(sid, request) {
      try {
        return await parts.getPeaks(sid);
      } catch (err) {
        const src = isUnsupportedFormat(err) ? request.recordingSrc() : null;
        if (src === null) throw err;
        return decodeInPage(sid, src, request.signal?.());
      }
    },
    progress(sid) {
      const run = decoding.get(sid);
      return run ? Promise.resolve(run.latest) : parts.getPeaksProgress(sid);
    },
  };
}
