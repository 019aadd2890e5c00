/**
 * Recording sessions: one per call the page shows ("Show call" opens it, the view closes it when
 * it shows another call or goes). A session gives the page its recording's URL and pushes
 * everything about that recording to the frame that opened it, on one channel
 * (`PUSH_CHANNELS.recordingSession`, keyed by session id): the peaks as they are decoded, the
 * final peaks (or that the page decodes this format itself, or why there is no waveform), the
 * recording's problems in the one vocabulary of `RecordingProblem` (mapped once, by
 * api/recording-errors.ts `problemOf`), the progress of "Download recording" of the call, and
 * the URL of its seekable variant once there is one (an MP3's MP4 rewrap). The page never polls.
 *
 * The services it listens to (the peaks service, the active workspace's problem reports, the
 * exports' download progress) are passed in by the composition root; a closed session has no
 * listener left on any of them.
 */
import { randomUUID } from 'node:crypto';
import type {
  DownloadProgress,
  PeaksProgress,
  RecordingProblem,
  RecordingSessionEvent,
  RecordingSessionInfo,
  RecordingSessionPush,
} from '$shared/contract';
import { ApiError } from '$shared/errors';
import { problemOf } from '../api/recording-errors';
import type { DownloadProgressListener } from '../exports/service';
import type { PeaksService } from '../peaks/service';
import type { SeekableVariants } from './seekable-variants';
import type { RecordingProblemListener } from '../workspaces/active-workspace';

/** Shortest time between two pushes of a session's peaks so far, in milliseconds. */
export const PEAKS_PROGRESS_EVERY_MS = 250;

/** Where a session's pushes go: the frame that opened it (throws when the frame is gone). */
export type SessionPushTarget = (push: RecordingSessionPush) => void;

/** What {@link createRecordingSessions} is built on. */
export interface RecordingSessionsDeps {
  /** The peaks service (its computation is shared with any other caller). */
  peaks: Pick<PeaksService, 'get' | 'playbackProblem'>;
  /** The URL the page plays interaction `sid`'s recording from. */
  recordingSrc(sid: string): string;
  /**
   * The recordings' seekable variants (an MP3 rewrapped in MP4, which Chromium seeks exactly):
   * a session pushes `seekable` with the variant's URL once it is ready.
   */
  seekable?: Pick<SeekableVariants, 'onReady' | 'readySrc'>;
  /** The active workspace's id, or null with none (a problem is pushed only for the session's workspace). */
  workspaceId(): string | null;
  /** Subscribes to the recording problems reported (the active workspace's `onRecordingProblem`). */
  onRecordingProblem(listener: RecordingProblemListener): () => void;
  /** Subscribes to recording downloads' progress (the exports' `onDownloadProgress`). */
  onDownloadProgress(listener: DownloadProgressListener): () => void;
  /** The running download of `sid`'s recording, or null (pushed when a session opens during one). */
  downloadProgress(sid: string): DownloadProgress | null;
  /** Makes a session id; default a random UUID. */
  newId?: () => string;
}

/** The open recording sessions; see the module comment. */
export interface RecordingSessions {
  /**
   * Opens interaction `sid`'s session for the frame `frameKey`, closing that frame's previous
   * session (a view shows one call), and starts its peaks; everything after goes to `push`.
   * Returns at once, before anything is looked up.
   */
  open(sid: string, frameKey: string, push: SessionPushTarget): RecordingSessionInfo;
  /** Closes session `sessionId` of frame `frameKey`; another frame's session, or an unknown id, is left alone. */
  close(sessionId: string, frameKey: string): void;
  /** Closes every session (the workspace changed, or main quits). */
  closeAll(): void;
  /** How many sessions are open. */
  readonly size: number;
}

/** One open session. */
interface Session {
  id: string;
  frameKey: string;
  stop: () => void;
}

/** Creates the sessions over `deps`. */
export function createRecordingSessions(deps: RecordingSessionsDeps): RecordingSessions {
  const open = new Map<string, Session>();
  const newId = deps.newId ?? randomUUID;

  function start(sid: string, frameKey: string, push: SessionPushTarget): Session {
    const id = newId();
    const workspaceId = deps.workspaceId();
    const stopPeaks = new AbortController();
    let closed = false;
    const session: Session = { id, frameKey, stop: () => undefined };
    const send = (event: RecordingSessionEvent) => {
      if (closed) return;
      try {
        push({ sessionId: id, event });
      } catch {
        // The frame is gone (navigated away, closed): nobody listens any more.
        close(session);
      }
    };
    const unlistenProblems = deps.onRecordingProblem((problemWorkspace, problemSid, problem) => {
      if (problemSid === sid && problemWorkspace === workspaceId) send({ type: 'problem', problem });
    });
    const unlistenSeekable =
      deps.seekable?.onReady((ready) => {
        if (ready.sid === sid) send({ type: 'seekable', src: ready.src });
      }) ?? (() => undefined);
    const unlistenDownloads = deps.onDownloadProgress((downloadSid, progress) => {
      if (downloadSid === sid) send({ type: 'download', progress });
    });
    session.stop = () => {
      closed = true;
      dropProgress();
      stopPeaks.abort();
      unlistenProblems();
      unlistenDownloads();
      unlistenSeekable();
    };
    // The peaks so far, at most one push per PEAKS_PROGRESS_EVERY_MS (each carries every peak so
    // far; the page draws each): the latest waits for the end of the interval.
    let progressAt = 0;
    let heldProgress: ReturnType<typeof setTimeout> | null = null;
    let latestProgress: PeaksProgress | null = null;
    const sendProgress = () => {
      heldProgress = null;
      progressAt = Date.now();
      if (latestProgress) send({ type: 'peaks-progress', progress: latestProgress });
    };
    const onProgress = (progress: PeaksProgress) => {
      latestProgress = progress;
      const wait = PEAKS_PROGRESS_EVERY_MS - (Date.now() - progressAt);
      if (wait <= 0) sendProgress();
      else heldProgress ??= setTimeout(sendProgress, wait);
    };
    const dropProgress = () => {
      if (heldProgress) clearTimeout(heldProgress);
      heldProgress = null;
    };
    const running = deps.downloadProgress(sid);
    // After this task: the page has the session's id (the answer to its open) before any push.
    setImmediate(() => {
      if (running) send({ type: 'download', progress: running });
      const seekableSrc = deps.seekable?.readySrc(sid);
      if (seekableSrc) send({ type: 'seekable', src: seekableSrc });
      deps.peaks.get(sid, { onProgress, signal: stopPeaks.signal }).then(
        (peaks) => {
          dropProgress();
          send({ type: 'peaks', peaks });
          // Drawn, but perhaps not playable (AIFF): said before the media element fails.
          void deps.peaks.playbackProblem(sid).then((problem) => {
            if (problem) send({ type: 'problem', problem });
          });
        },
        (err: unknown) => {
          dropProgress();
          send(peaksFailure(err));
        },
      );
    });
    return session;
  }

  function close(session: Session): void {
    if (open.get(session.id) !== session) return;
    open.delete(session.id);
    session.stop();
  }

  return {
    open(sid, frameKey, push) {
      for (const session of [...open.values()]) if (session.frameKey === frameKey) close(session);
      const session = start(sid, frameKey, push);
      open.set(session.id, session);
      return { sessionId: session.id, src: deps.recordingSrc(sid) };
    },
    close(sessionId, frameKey) {
      const session = open.get(sessionId);
      if (session && session.frameKey === frameKey) close(session);
    },
    closeAll() {
      for (const session of [...open.values()]) close(session);
    },
    get size() {
      return open.size;
    },
  };
}

/** The event of a peaks computation that failed: the page decodes a format main does not, else why. */
function peaksFailure(err: unknown): RecordingSessionEvent {
  if (err instanceof ApiError && err.detail === 'unsupported_format') return { type: 'decode-in-page' };
  const problem: RecordingProblem = problemOf(err);
  return { type: 'peaks-failed', problem };
}
