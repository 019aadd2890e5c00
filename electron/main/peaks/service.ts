/**
 * Peaks of recordings, computed in main so the renderer never decodes audio: the recording is
 * downloaded as a stream, decoded chunk by chunk and reduced to min/max peaks as it arrives
 * (decode.ts, reduce.ts), so neither the file nor its PCM is held whole; results are kept in a
 * disk cache (cache.ts).
 *
 * Fetch rules are the recording protocol's, through the same fetcher of the API client
 * (api/recording-fetcher.ts): redirects followed under its rules, the API key only to the
 * workspace's own origin, safe destinations only. A failure is reported as the recording's problem,
 * in the same words the player shows.
 *
 * Requests per first view: HEAD (for the cache key; skipped when there is no disk cache), then
 * one streaming GET. A cached view: the HEAD only. The cache key includes the full recording URL,
 * so a recording whose URL changes on every fetch of the interaction (a signed URL with an
 * expiry) hits the cache only while the session keeps the same URL; keying on less than the URL
 * could serve one recording's waveform for another.
 */
import type { RecordingPeaks } from '../../shared/contract';
import { ApiError } from '../../shared/errors';
import { problemOf, RecordingError } from '../api/recording-errors';
import { recordingUrlProblem, type RecordingLocation } from '../recording-protocol';
import { cacheKey, createPeaksCache, type PeaksCache, type RecordingValidators } from './cache';
import { decodeToPeaks, UNDECODABLE_MESSAGE } from './decode';
import { download, sameVersion, validatorsOf } from './recording-fetch';
import type { PeaksDecoder } from './worker-decoder';

/** Computes (or reads from the disk cache) the peaks of an interaction's recording. */
export interface PeaksService {
  /**
   * Peaks and exact duration of the recording of interaction `sid`: about 8,000 min/max pairs per
   * channel (4 per second beyond about 33 minutes; see reduce.ts `peakCountFor`), amplitudes in
   * [-1, 1] rounded to 4 decimals, `durationSeconds` = decoded samples / `sampleRate`.
   * Two calls for the same recording while one is running share that one computation.
   * @throws ApiError (a RecordingError when the download failed, with the recording problem's
   *   words): kind 'not_found' when the interaction has no playable recording or the link is gone,
   *   'unauthorized' when the recording server refuses (401/403), 'invalid_response' when the
   *   audio cannot be decoded, is too large or is not audio, 'network'/'timeout'/'server'/'bad_input'
   *   when it cannot be downloaded (unreachable, stalled, a refused redirect or destination). Never
   *   anything else; no message contains the API key.
   */
  get(sid: string): Promise<RecordingPeaks>;
}

/** Options of {@link createPeaksService}. */
export interface PeaksServiceOptions {
  /** Where an interaction's recording is (the session's `locateRecording`). */
  locate(sid: string): Promise<RecordingLocation | null>;
  /** Folder of the disk cache, or null for no disk cache. */
  cacheDir: string | null;
  /** Size cap of the disk cache, in bytes (default 64 MiB). */
  cacheMaxBytes?: number;
  /**
   * Decodes the downloaded bytes to peaks. Default: in this thread (decodeToPeaks, yielding
   * between slices); Electron passes {@link createWorkerDecoder} so decoding runs in a worker.
   */
  decode?: PeaksDecoder;
  /**
   * Called before a recording is downloaded for peaks (not for a cache hit); the download starts
   * when it resolves. Electron passes a {@link PlaybackGate}'s `wait`, so playback starts first.
   */
  beforeDownload?: (sid: string) => Promise<void>;
}

/** Creates the peaks service. */
export function createPeaksService(options: PeaksServiceOptions): PeaksService {
  const decode: PeaksDecoder = options.decode ?? ((chunks) => decodeToPeaks(chunks));
  const cache: PeaksCache | null =
    options.cacheDir === null ? null : createPeaksCache(options.cacheDir, options.cacheMaxBytes);
  /** Running computations by workspace base URL + recording URL. */
  const running = new Map<string, Promise<RecordingPeaks>>();
  /** Cache key each recording URL had when last read or written (the most recent 500 URLs). */
  const lastKeyByUrl = new Map<string, string>();
  function rememberKey(recordingUrl: string, key: string): void {
    lastKeyByUrl.delete(recordingUrl);
    lastKeyByUrl.set(recordingUrl, key);
    if (lastKeyByUrl.size > 500) lastKeyByUrl.delete(lastKeyByUrl.keys().next().value as string);
  }

  async function compute(sid: string, location: RecordingLocation & { recordingUrl: string }): Promise<RecordingPeaks> {
    const fetcher = location.fetcher(location.recordingUrl);
    let key: string | null = null;
    let expected: RecordingValidators | null = null;
    if (cache) {
      // The entry this URL had last time is read while the HEAD revalidates it; it is used only if
      // the HEAD's validators give the same key, so a changed recording is never served.
      const lastKey = lastKeyByUrl.get(location.recordingUrl);
      const early = lastKey ? cache.read(lastKey).catch(() => null) : null;
      expected = await validatorsOf(fetcher);
      key = cacheKey(location.recordingUrl, expected);
      const cached =
        key === null ? null : key === lastKey && early ? await early : await cache.read(key).catch(() => null);
      if (cached && key) {
        rememberKey(location.recordingUrl, key);
        return { ...cached, fromCache: true };
      }
    }
    await options.beforeDownload?.(sid);
    const { peaks, validators } = await download(fetcher, decode);
    location.report(null);
    // Stored only if the file downloaded is the one the key describes (not changed in between).
    if (cache && key && expected && sameVersion(expected, validators)) {
      await cache.write(key, peaks).catch(() => undefined);
      rememberKey(location.recordingUrl, key);
    }
    return { ...peaks, fromCache: false };
  }

  return {
    async get(sid) {
      try {
        const location = await options.locate(sid).catch((err: unknown) => {
          if (err instanceof ApiError) throw err;
          throw new ApiError({
            kind: 'server',
            message: 'The interaction could not be loaded, so its waveform cannot be drawn. Try again.',
          });
        });
        const problem = location ? recordingUrlProblem(location.recordingUrl) : 'This interaction has no recording.';
        if (!location || problem || location.recordingUrl === null) {
          const error = new RecordingError('no_recording', problem ?? 'This interaction has no recording.');
          location?.report(problemOf(error));
          throw error;
        }
        const playable = { ...location, recordingUrl: location.recordingUrl };
        const runKey = `${location.workspaceId}\n${location.recordingUrl}`;
        let run = running.get(runKey);
        if (!run) {
          run = compute(sid, playable)
            .catch((err: unknown) => {
              playable.report(problemOf(err));
              throw err;
            })
            .finally(() => running.delete(runKey));
          running.set(runKey, run);
        }
        return await run;
      } catch (err) {
        if (err instanceof ApiError) throw err;
        // Anything else is a defect here or in a decoder; it must not reach the renderer raw.
        throw new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE });
      }
    },
  };
}
