/**
 * Files the user takes out of the app: the transcript exported as TXT, JSON, SubRip or WebVTT
 * (electron/shared/transcript-export.ts) and the recording saved as it was served. Both go through
 * main's save dialog (save-dialog.ts) and are written atomically (atomic-write.ts).
 *
 * The recording is read from the run's recording cache, the download the player and the waveform
 * share (recording-cache.ts): fetched with the recording fetcher's rules (redirects, safe
 * destinations, the key only to the workspace's origin) and not fetched again when it is there.
 * One download per SID runs at a time; its progress is asked for by polling and it can be cancelled.
 */
import { basename } from 'node:path';
import type { DownloadProgress, SaveResult } from '$shared/contract';
import { ApiError } from '$shared/errors';
import {
  defaultFileName,
  exportTranscript,
  type ExportedInteraction,
  type TranscriptFormat,
} from '$shared/transcript-export';
import { RecordingError } from '../api/recording-errors';
import type { RecordingCache } from '../recordings/recording-cache';
import { playableLocation, type RecordingLocation } from '../recordings/recording-location';
import { writeAtomically } from './atomic-write';
import { chooseSavePath, saveFailed, type SavePathChooser } from './save-dialog';

/** What the exports need from the rest of main. */
export interface ExportsDeps {
  /** Interaction `sid` from the active workspace (a 404 already names the workspace). */
  lookUpInteraction(sid: string): Promise<ExportedInteraction>;
  /** Name of the active workspace (null with none). */
  workspaceName(): string | null;
  /** Where interaction `sid`'s recording is (the session's `locateRecording`). */
  locateRecording(sid: string): Promise<RecordingLocation | null>;
  /** The exact duration of `sid`'s decoded recording in seconds, when the peaks are known. */
  decodedDurationSeconds(sid: string): number | null;
  /** The run's recording cache. */
  recordings: RecordingCache;
  /** The save dialog; without it every save is refused with words. */
  choosePath?: SavePathChooser;
}

/** See {@link createExportsService}; every method rejects with an ApiError saying what to do. */
export interface ExportsService {
  exportTranscript(sid: string, format: TranscriptFormat): Promise<SaveResult>;
  downloadRecording(sid: string): Promise<SaveResult>;
  /** The running download of `sid`'s recording, or null. */
  downloadProgress(sid: string): DownloadProgress | null;
  /**
   * Calls `listener` as a recording download moves on: when it starts writing, at most every
   * {@link DOWNLOAD_PROGRESS_EVERY_MS} ms while it writes, and with null when it ended (saved,
   * cancelled or failed). Returns what stops it.
   */
  onDownloadProgress(listener: DownloadProgressListener): () => void;
  /** Cancels the running download of `sid`'s recording, if any. */
  cancelDownload(sid: string): void;
}

/** The save dialog's filter of each transcript format. */
const TRANSCRIPT_FILTERS: Record<TranscriptFormat, string> = {
  txt: 'Text',
  json: 'JSON',
  srt: 'SubRip subtitles',
  vtt: 'WebVTT subtitles',
};

/** File extensions by audio content type (without parameters); anything else is saved as `.bin`. */
const AUDIO_EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/webm': 'webm',
};

/** The file extension (no dot) for a recording served as `contentType`, e.g. `audio/mpeg` -> `mp3`. */
export function recordingExtension(contentType: string): string {
  const bare = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return AUDIO_EXTENSIONS[bare] ?? 'bin';
}

/** Told of interaction `sid`'s recording download: its progress, or null once it ended. */
export type DownloadProgressListener = (sid: string, progress: DownloadProgress | null) => void;

/** Shortest time between two progress reports of one download, in milliseconds. */
export const DOWNLOAD_PROGRESS_EVERY_MS = 100;

/** A running recording download: its cancel switch and its progress. */
interface RunningDownload {
  abort: AbortController;
  progress: DownloadProgress;
}

/** Creates the exports over main's session, peaks and recording cache. */
export function createExportsService(deps: ExportsDeps): ExportsService {
  const running = new Map<string, RunningDownload>();
  const listeners = new Set<DownloadProgressListener>();
  const tell = (sid: string, progress: DownloadProgress | null) => {
    for (const listener of [...listeners]) listener(sid, progress && { ...progress });
  };

  async function saveTranscript(sid: string, format: TranscriptFormat): Promise<SaveResult> {
    const workspaceName = deps.workspaceName() ?? '';
    const interaction = await deps.lookUpInteraction(sid);
    const recordingEndSeconds = deps.decodedDurationSeconds(sid) ?? interaction.durationSeconds;
    const text = exportTranscript(format, { interaction, workspaceName, recordingEndSeconds });
    const target = await chooseSavePath(deps.choosePath, {
      title: 'Export transcript',
      defaultName: defaultFileName(sid, interaction.startedAtMs, format),
      filters: [{ name: TRANSCRIPT_FILTERS[format], extensions: [format] }],
    });
    if (target === null) return { saved: null };
    await writeAtomically(target, text).catch((err: unknown) => {
      throw saveFailed(basename(target), err);
    });
    return { saved: basename(target) };
  }

  async function saveRecording(sid: string, download: RunningDownload): Promise<SaveResult> {
    const { signal } = download.abort;
    // A function, not `signal.aborted` itself: the answer changes across the awaits below.
    const cancelled = () => signal.aborted;
    const interaction = await deps.lookUpInteraction(sid);
    const location = await deps.locateRecording(sid);
    if (!location) throw new ApiError({ kind: 'bad_input', message: 'Connect to a workspace first.' });
    const playable = playableLocation(location);
    if (playable instanceof RecordingError) throw playable;
    const cached = deps.recordings.open(playable);
    const head = await cached.head;
    if (cancelled()) return { saved: null };
    const extension = recordingExtension(head.contentType);
    const target = await chooseSavePath(deps.choosePath, {
      title: 'Download recording',
      defaultName: defaultFileName(sid, interaction.startedAtMs, extension),
      filters: [{ name: 'Recording', extensions: [extension] }],
    });
    if (target === null || cancelled()) return { saved: null };
    download.progress.totalBytes = cached.size();
    tell(sid, download.progress);
    // At most one report per DOWNLOAD_PROGRESS_EVERY_MS, the last bytes included: a report held
    // back is sent when the interval is over, even if no more bytes came (a stalled server).
    let toldAt = Date.now();
    const held: { timer: NodeJS.Timeout | null } = { timer: null };
    const report = () => {
      held.timer = null;
      toldAt = Date.now();
      if (running.get(sid) === download) tell(sid, download.progress);
    };
    try {
      await writeAtomically(target, cached.stream(0), {
        signal,
        onBytes: (written) => {
          download.progress.receivedBytes = written;
          download.progress.totalBytes = cached.size();
          const wait = DOWNLOAD_PROGRESS_EVERY_MS - (Date.now() - toldAt);
          if (wait <= 0) report();
          else held.timer ??= setTimeout(report, wait);
        },
      });
    } catch (err) {
      if (cancelled()) return { saved: null };
      if (err instanceof ApiError) throw err;
      throw saveFailed(basename(target), err);
    } finally {
      if (held.timer) clearTimeout(held.timer);
    }
    return { saved: basename(target) };
  }

  return {
    exportTranscript: saveTranscript,
    async downloadRecording(sid) {
      if (running.has(sid)) {
        throw new ApiError({
          kind: 'bad_input',
          message: 'This recording is already being downloaded. Wait for it to finish or cancel it.',
        });
      }
      const download: RunningDownload = {
        abort: new AbortController(),
        progress: { receivedBytes: 0, totalBytes: null },
      };
      running.set(sid, download);
      try {
        return await saveRecording(sid, download);
      } finally {
        running.delete(sid);
        tell(sid, null);
      }
    },
    downloadProgress: (sid) => {
      const progress = running.get(sid)?.progress;
      return progress ? { ...progress } : null;
    },
    cancelDownload: (sid) => running.get(sid)?.abort.abort(),
    onDownloadProgress(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
