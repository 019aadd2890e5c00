/**
 * Peaks of recordings, computed in main so the renderer never decodes audio: the recording is
 * downloaded as a stream, decoded chunk by chunk and reduced to min/max peaks as it arrives
 * (decode.ts, reduce.ts), so neither the file nor its PCM is held whole; results are kept in a
 * disk cache (cache.ts).
 *
 * The recording is read from the run's recording cache (recording-cache.ts): the same single
 * download the player streams, read as it arrives, so a first view fetches the file once, with the
 * fetch rules of the API client's recording fetcher (redirects, safe destinations, the API key only
 * to the workspace's own origin). A failure is reported as the recording's problem, in the same
 * words the player shows.
 *
 * The disk cache key is the recording URL with the download's validators (ETag, Last-Modified,
 * Content-Length), so a recording whose URL changes on every fetch of the interaction (a signed URL
 * with an expiry) hits the cache only while the session keeps the same URL; keying on less than
 * the URL could serve one recording's waveform for another.
 *
 * A recording in a format main does not decode (WebM, MP4/AAC: `detail: 'unsupported_format'`) is
 * decoded by the page with Chromium's decoders; the page hands its final peaks back
 * ({@link PeaksService.store}) and they go into the same disk cache, under the key of the download
 * main had opened, so the next view of that call comes from the cache whatever its format.
 */
import type { PeaksProgress, RecordingPeaks, RecordingProblem } from '$shared/contract';
import { ApiError } from '$shared/errors';
import type { ComputedPeaks } from '$shared/peaks-reducer';
import { problemOf, RecordingError } from '../api/recording-errors';
import { recordingKey, type RecordingCache } from '../recordings/recording-cache';
import { playableLocation, type PlayableLocation, type RecordingLocation } from '../recordings/recording-location';
import { cacheKey, createPeaksCache, type PeaksCache } from './cache';
import { decodeToPeaks, UNDECODABLE_MESSAGE } from './decode';
import { concat } from './pcm';
import { chunksOf, validatorsFrom } from './recording-fetch';
import { UNPLAYABLE_HEAD_BYTES, unplayableFormatProblem } from './unplayable-format';
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
  get(sid: string, watch?: PeaksWatch): Promise<RecordingPeaks>;
  /**
   * The peaks decoded so far by the computation {@link get} last started or joined for `sid`
   * (updated a few times a second while the download runs; `complete` with the final peaks once
   * it resolved), or null before any audio is decoded, after it failed, or when none is known.
   * The last few finished computations are remembered; peaks the page handed over with
   * {@link store} count as `sid`'s finished computation.
   */
  progress(sid: string): PeaksProgress | null;
  /**
   * The exact length of interaction `sid`'s decoded recording in seconds (decoded samples /
   * sample rate), from its final peaks when {@link progress} has them (main's, the disk cache's or
   * the page's), else null. The exports end the recording there: a WebM written by a browser's
   * recorder states no duration of its own, and the call's duration is not the recording's.
   */
  decodedDurationSeconds(sid: string): number | null;
  /**
   * Why the page's player cannot play interaction `sid`'s recording although main draws it (an
   * AIFF recording: unplayable-format.ts), from its first bytes in the run's recording cache; null
   * when its format plays, or the recording cannot be located or read. Never throws.
   */
  playbackProblem(sid: string): Promise<RecordingProblem | null>;
  /**
   * Keeps `peaks`, decoded by the page, as the peaks of interaction `sid`'s recording in the disk
   * cache (when there is one and the download gave validators), for the next {@link get}. Only
   * for a recording whose {@link get} last failed with `detail: 'unsupported_format'` in this run
   * (one of the last few such), and once: main asked the page for those peaks, and for no others.
   * Nothing is downloaded again: the key is the one of the download that failed to decode.
   * `peaks` are checked by the caller (the IPC handler's schema).
   * @throws ApiError kind 'bad_input' when main did not leave `sid`'s recording to the page; the
   *   errors of {@link get} when the interaction cannot be located
   */
  store(sid: string, peaks: ComputedPeaks): Promise<void>;
  /**
   * Resolves once the disk cache writes of the peaks computed so far are done (a computation
   * answers before its peaks are on disk); main waits for it at quit.
   */
  flush(): Promise<void>;
}

/** How a caller of {@link PeaksService.get} follows the computation it starts or joins. */
export interface PeaksWatch {
  /**
   * Called with the peaks decoded so far each time they grow (a few times a second), at once with
   * those already decoded when joining a running computation; never after `signal` aborted or the
   * computation ended.
   */
  onProgress?: (progress: PeaksProgress) => void;
  /** Stops `onProgress` (the computation runs on for whoever else waits for it). */
  signal?: AbortSignal;
}

/** Finished computations whose final peaks {@link PeaksService.progress} still answers with. */
const FINISHED_KEPT = 4;

/** Recordings left to the page's decoder whose peaks {@link PeaksService.store} still takes. */
const LEFT_TO_PAGE_KEPT = 8;

/** The latest peaks a computation reported (null before any, and after it failed), and who follows them. */
interface Progress {
  latest: PeaksProgress | null;
  listeners: Set<(progress: PeaksProgress) => void>;
}

/** One computation: its result and its progress. */
interface Run {
  result: Promise<RecordingPeaks>;
  progress: Progress;
}

/** The progress of `peaks` covering their whole `durationSeconds`. */
function progressOf(peaks: RecordingPeaks, complete: boolean): PeaksProgress {
  return { peaks, coveredSeconds: peaks.durationSeconds, complete };
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
  /** The run's recording cache, shared with the recording protocol and the exports. */
  recordings: RecordingCache;
}

/** Creates the peaks service. */
export function createPeaksService(options: PeaksServiceOptions): PeaksService {
  const decode: PeaksDecoder =
    options.decode ?? ((chunks, onProgress) => decodeToPeaks(chunks, onProgress ? { onProgress } : {}));
  const cache: PeaksCache | null =
    options.cacheDir === null ? null : createPeaksCache(options.cacheDir, options.cacheMaxBytes);
  const { recordings } = options;
  /** Running computations by workspace id + recording URL. */
  const running = new Map<string, Run>();
  /** The computation each SID last asked for, running or among the last few finished. */
  const bySid = new Map<string, Run>();
  /**
   * Recordings main could not decode for their format, by run key, oldest first: the disk cache
   * key of their download (null: not cached), until the page's peaks for them arrive.
   */
  const leftToPage = new Map<string, string | null>();

  async function compute(location: PlayableLocation, progress: Progress): Promise<RecordingPeaks> {
    const download = recordings.open(location);
    const head = await download.head;
    const key = cache ? cacheKey(location.recordingUrl, validatorsFrom(head.headers)) : null;
    const cached = cache && key ? await cache.read(key).catch(() => null) : null;
    if (cached) return { ...cached, fromCache: true };
    const peaks = await decode(chunksOf(download.stream(0)), (partial) => {
      const latest = progressOf({ ...partial, fromCache: false }, false);
      progress.latest = latest;
      for (const listener of [...progress.listeners]) listener(latest);
    }).catch((err: unknown) => {
      if (err instanceof ApiError && err.detail === 'unsupported_format') leaveToPage(recordingKey(location), key);
      throw err;
    });
    location.report(null);
    // Written in the background: the waveform is not held back by the disk (a cache read waits
    // for writes still queued, see cache.ts, so a second view finds the file).
    if (cache && key) void cache.write(key, peaks).catch(() => undefined);
    return { ...peaks, fromCache: false };
  }

  /** Notes that the page decodes the recording of `runKey`, whose peaks go under `key`. */
  function leaveToPage(runKey: string, key: string | null): void {
    leftToPage.delete(runKey);
    leftToPage.set(runKey, key);
    for (const oldest of [...leftToPage.keys()].slice(0, Math.max(0, leftToPage.size - LEFT_TO_PAGE_KEPT)))
      leftToPage.delete(oldest);
  }

  /** Where interaction `sid`'s recording is, ready to download. @throws ApiError as {@link PeaksService.get} */
  async function playableOf(sid: string): Promise<PlayableLocation> {
    const location = await options.locate(sid).catch((err: unknown) => {
      if (err instanceof ApiError) throw err;
      throw new ApiError({
        kind: 'server',
        message: 'The interaction could not be loaded, so its waveform cannot be drawn. Try again.',
      });
    });
    if (!location) throw new RecordingError('no_recording', 'This interaction has no recording.');
    const playable = playableLocation(location);
    if (playable instanceof RecordingError) throw playable;
    return playable;
  }

  return {
    async get(sid, watch) {
      bySid.delete(sid);
      let unwatch: () => void = () => undefined;
      try {
        const playable = await playableOf(sid);
        const runKey = recordingKey(playable);
        const run = running.get(runKey) ?? start(playable, runKey);
        remember(sid, run);
        unwatch = follow(run, watch);
        return await run.result;
      } catch (err) {
        if (err instanceof ApiError) throw err;
        // Anything else is a defect here or in a decoder; it must not reach the renderer raw.
        throw new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE });
      } finally {
        unwatch();
      }
    },
    progress: (sid) => bySid.get(sid)?.progress.latest ?? null,
    decodedDurationSeconds(sid) {
      const latest = bySid.get(sid)?.progress.latest;
      return latest?.complete ? latest.peaks.durationSeconds : null;
    },
    async store(sid, peaks) {
      const runKey = recordingKey(await playableOf(sid));
      if (!leftToPage.has(runKey)) {
        throw new ApiError({
          kind: 'bad_input',
          message: "This recording's waveform is drawn by Voice Review's background process, not by the page.",
        });
      }
      const key = leftToPage.get(runKey) ?? null;
      leftToPage.delete(runKey);
      // The page's peaks are this run's answer for the call, as main's own would be: the exports
      // read the decoded length from them, with or without a disk cache.
      const kept = { ...peaks, fromCache: false };
      remember(sid, {
        result: Promise.resolve(kept),
        progress: { latest: progressOf(kept, true), listeners: new Set() },
      });
      if (cache && key) await cache.write(key, peaks);
    },
    async playbackProblem(sid) {
      try {
        const download = recordings.open(await playableOf(sid));
        await download.head;
        let head: Uint8Array = new Uint8Array(0);
        for await (const chunk of chunksOf(download.stream(0, UNPLAYABLE_HEAD_BYTES - 1))) {
          head = concat(head, chunk);
        }
        return unplayableFormatProblem(head);
      } catch {
        // The recording's own problem (not found, unreachable) is main's other answer.
        return null;
      }
    },
    flush: () => cache?.settled() ?? Promise.resolve(),
  };

  /** Starts the computation of `location`'s peaks, listed in `running` under `runKey` until it ends. */
  function start(location: PlayableLocation, runKey: string): Run {
    const progress: Progress = { latest: null, listeners: new Set() };
    const result = compute(location, progress)
      .then(
        (peaks) => {
          progress.latest = progressOf(peaks, true);
          return peaks;
        },
        (err: unknown) => {
          progress.latest = null;
          location.report(problemOf(err));
          throw err;
        },
      )
      .finally(() => running.delete(runKey));
    const run: Run = { result, progress };
    running.set(runKey, run);
    return run;
  }

  /** Adds `watch`'s listener to `run` until its signal aborts; returns what removes it. */
  function follow(run: Run, watch: PeaksWatch | undefined): () => void {
    const onProgress = watch?.onProgress;
    const signal = watch?.signal;
    if (!onProgress || signal?.aborted) return () => undefined;
    const { listeners } = run.progress;
    listeners.add(onProgress);
    const stop = () => {
      listeners.delete(onProgress);
      signal?.removeEventListener('abort', stop);
    };
    signal?.addEventListener('abort', stop);
    const latest = run.progress.latest;
    if (latest && !latest.complete) onProgress(latest);
    return stop;
  }

  /** Notes that `sid` asked for `run`, forgetting the oldest finished computations past the few kept. */
  function remember(sid: string, run: Run): void {
    bySid.delete(sid);
    bySid.set(sid, run);
    const finished = [...bySid].filter(([, other]) => !isRunning(other));
    for (const [oldSid] of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) bySid.delete(oldSid);
  }

  function isRunning(run: Run): boolean {
    return [...running.values()].includes(run);
  }
}
