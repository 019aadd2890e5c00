/**
 * The recording of the call being shown, as one object: created at "Show call", before the call
 * is looked up, and passed down to the call's view as one prop. It owns
 * - the media element: made as soon as main gives the recording's URL (contract
 *   `openRecordingSession`; the page never builds it), so Chromium's media pipeline starts at once
 *   and Play works while the call is still looked up ({@link play});
 * - the peaks: the peaks so far and the final peaks, pushed by main
 *   (`PUSH_CHANNELS.recordingSession`), or decoded in the page from the same URL when main does
 *   not decode the format (WebM/Opus, MP4/AAC: `decode-in-page`), then handed back to main's disk
 *   cache (contract `storePeaks`);
 * - the problem: what went wrong with the recording, in the one vocabulary of
 *   `RecordingProblem` (shared/recording-problem.ts has its words);
 * - the progress of "Download recording" of the call;
 * - the move of the media element to the recording's seekable variant once main pushes one (an
 *   MP3 rewrapped in MP4, which seeks to the exact frame: waveform/seekable-src.ts).
 * {@link dispose} closes main's session (nothing more is pushed for it), stops a decode in the
 * page and lets go of a media element no player took.
 */
import type {
  DownloadProgress,
  PeaksProgress,
  RecordingPeaks,
  RecordingProblem,
  RecordingSessionEvent,
  RecordingSessionInfo,
  RecordingSessionPush,
} from '$shared/contract';
import type { ComputedPeaks } from '$shared/peaks-reducer';
import { RECORDING_PROBLEM_WORDS } from '$shared/recording-problem';
import { moveToSeekableSrc } from './waveform/seekable-src';
import { createRecordingElement, stopRecordingElement, untilSounding } from './waveform/recording-element';

/** What a session is built on: main's session methods and pushes, the page's decoder, the media element. */
export interface RecordingSessionParts {
  /** Contract `openRecordingSession`. */
  open(sid: string): Promise<RecordingSessionInfo>;
  /** Contract `closeRecordingSession`. */
  close(sessionId: string): Promise<void>;
  /** Listens to `PUSH_CHANNELS.recordingSession` (appEvents `onRecordingSession`); returns the unsubscribe. */
  subscribe(callback: (push: RecordingSessionPush) => void): () => void;
  /** Contract `storePeaks`: the page's final peaks for main's disk cache. */
  storePeaks(sid: string, peaks: ComputedPeaks): Promise<void>;
  /**
   * Decodes the recording at `src` in the page (waveform/decode/recording-decode.ts), reporting the
   * peaks so far (`durationSeconds` = seconds covered) to `onProgress`.
   */
  decodeInPage(
    src: string,
    request: { onProgress: (peaks: ComputedPeaks) => void; signal?: AbortSignal },
  ): Promise<ComputedPeaks>;
  /** Makes the media element for `src` (default: waveform/recording-element.ts). */
  createMedia?: (src: string) => HTMLAudioElement;
}

/** True when two peaks so far cover the same seconds with the same number of peaks. */
function sameCoverage(a: PeaksProgress | null, b: PeaksProgress): boolean {
  return a !== null && a.coveredSeconds === b.coveredSeconds && a.peaks.length === b.peaks.length;
}

/** Why a session could not be opened, when main refused it: said as the recording's problem. */
const OPEN_FAILED: RecordingProblem = {
  kind: 'server_error',
  message: "Voice Review's background process did not open the recording. Press Retry.",
};

/** See the module comment. */
export class RecordingSession {
  /** The interaction whose recording this is. */
  readonly sid: string;
  /** The recording's URL as main gave it, or null until main answered. */
  src = $state<string | null>(null);
  /** The media element playing the recording, or null until {@link src} is known. */
  media = $state.raw<HTMLAudioElement | null>(null);
  /** The final peaks, or null while they are computed or when they failed. */
  peaks = $state.raw<RecordingPeaks | null>(null);
  /** The peaks decoded so far while the final ones are computed, or null. */
  peaksProgress = $state.raw<PeaksProgress | null>(null);
  /** Why there is no waveform, or null. */
  peaksProblem = $state.raw<RecordingProblem | null>(null);
  /** True when trying the waveform again can help ({@link retryPeaks}). */
  peaksRetry = $state(false);
  /** The recording's latest problem (the player's download included), or null. */
  problem = $state.raw<RecordingProblem | null>(null);
  /** The running "Download recording" of this call, or null. */
  download = $state.raw<DownloadProgress | null>(null);
  /** True once Play was pressed (here or in the player). */
  playRequested = $state(false);

  private readonly parts: RecordingSessionParts;
  private sessionId: string | null = null;
  /** Pushes that arrived before main's answer named the session (the page cannot tell them apart yet). */
  private early: RecordingSessionPush[] = [];
  private readonly unsubscribe: () => void;
  private pageDecode: AbortController | null = null;
  private taken = false;
  private disposed = false;
  /** Cancels a move to the seekable variant still waiting for a pause or a seek. */
  private cancelSeekableMove: () => void = () => undefined;

  constructor(sid: string, parts: RecordingSessionParts) {
    this.sid = sid;
    this.parts = parts;
    this.unsubscribe = parts.subscribe((push) => this.receive(push));
    void this.openInMain();
  }

  /** True once {@link dispose} was called: nothing more comes, and a new session is needed. */
  get closed(): boolean {
    return this.disposed;
  }

  /** The pending peaks: true while neither the final peaks nor a reason for none is known. */
  get peaksPending(): boolean {
    return this.peaks === null && this.peaksProblem === null;
  }

  /** Starts playback (Play pressed before the call's view is built); false when there is no media element yet. */
  play(): boolean {
    const media = this.media;
    if (!media) return false;
    this.playRequested = true;
    void media.play().catch(() => undefined);
    return true;
  }

  /**
   * Resolves once playback is sounding, or at once when nobody asked for sound; at most `maxMs`
   * milliseconds later in any case. Never rejects.
   */
  untilSounding(maxMs: number): Promise<void> {
    return this.media && this.playRequested ? untilSounding(this.media, maxMs) : Promise.resolve();
  }

  /**
   * Hands the media element to the call's player (it then keeps it in the page); null when there
   * is none yet (the player makes its own on `src`).
   */
  takeMedia(): HTMLAudioElement | null {
    // Taken either way: with none yet, the player makes its own and none is made here later.
    this.taken = true;
    return this.media;
  }

  /**
   * Tries the waveform again: the page's decode again when it was the page's, else main's peaks
   * (a new session in main; the media element stays).
   */
  retryPeaks(): void {
    if (this.disposed) return;
    this.peaksProblem = null;
    this.peaksRetry = false;
    this.peaksProgress = null;
    if (this.pageDecode !== null && this.src !== null) {
      void this.decodeInPage(this.src);
      return;
    }
    const previous = this.sessionId;
    this.sessionId = null;
    if (previous !== null) void this.parts.close(previous).catch(() => undefined);
    void this.openInMain();
  }

  /** The player failed and retries: the last problem is forgotten until main says it again. */
  clearProblem(): void {
    this.problem = null;
  }

  /** Closes main's session, stops a decode in the page and lets go of a media element no player took. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribe();
    this.pageDecode?.abort();
    this.cancelSeekableMove();
    if (this.sessionId !== null) void this.parts.close(this.sessionId).catch(() => undefined);
    this.sessionId = null;
    if (this.media && !this.taken) stopRecordingElement(this.media);
  }

  private async openInMain(): Promise<void> {
    let info: RecordingSessionInfo;
    try {
      info = await this.parts.open(this.sid);
    } catch (err) {
      if (this.disposed) return;
      this.peaksProblem = { ...OPEN_FAILED, message: err instanceof Error ? err.message : OPEN_FAILED.message };
      this.peaksRetry = true;
      return;
    }
    if (this.disposed) {
      void this.parts.close(info.sessionId).catch(() => undefined);
      return;
    }
    this.sessionId = info.sessionId;
    if (this.src === null) {
      this.src = info.src;
      if (!this.taken) this.media = (this.parts.createMedia ?? createRecordingElement)(info.src);
    }
    const early = this.early.filter((push) => push.sessionId === info.sessionId);
    this.early = [];
    for (const push of early) this.apply(push.event);
  }

  private receive(push: RecordingSessionPush): void {
    if (this.disposed) return;
    if (this.sessionId === null) {
      // Main's answer naming the session may come after its first pushes; kept a short while.
      if (this.early.length < 1000) this.early.push(push);
      return;
    }
    if (push.sessionId === this.sessionId) this.apply(push.event);
  }

  private apply(event: RecordingSessionEvent): void {
    switch (event.type) {
      case 'peaks-progress':
        // Peaks covering no more than those drawn are not taken: nothing to draw again.
        if (this.peaks === null && this.pageDecode === null && !sameCoverage(this.peaksProgress, event.progress))
          this.peaksProgress = event.progress;
        break;
      case 'peaks':
        this.peaks = event.peaks;
        this.peaksProgress = null;
        break;
      case 'decode-in-page':
        if (this.src !== null) void this.decodeInPage(this.src);
        break;
      case 'peaks-failed':
        this.peaksProblem = event.problem;
        this.peaksRetry = RECORDING_PROBLEM_WORDS[event.problem.kind].retry;
        this.peaksProgress = null;
        break;
      case 'problem':
        this.problem = event.problem;
        break;
      case 'download':
        this.download = event.progress;
        break;
      case 'seekable':
        // The same sound, seekable to the exact frame (moveToSeekableSrc says when it moves).
        this.cancelSeekableMove();
        if (this.media) this.cancelSeekableMove = moveToSeekableSrc(this.media, event.src);
        break;
    }
  }

  /** Decodes the recording in the page (a format main does not decode), then hands main the peaks. */
  private async decodeInPage(src: string): Promise<void> {
    this.pageDecode?.abort();
    const decode = new AbortController();
    this.pageDecode = decode;
    try {
      const peaks = await this.parts.decodeInPage(src, {
        onProgress: (partial) => {
          if (this.pageDecode !== decode) return;
          this.peaksProgress = {
            peaks: { ...partial, fromCache: false },
            coveredSeconds: partial.durationSeconds,
            complete: false,
          };
        },
        signal: decode.signal,
      });
      if (this.pageDecode !== decode || decode.signal.aborted) return;
      this.peaks = { ...peaks, fromCache: false };
      this.peaksProgress = null;
      // Not waited for: the waveform is drawn at once, and a cache that cannot keep it only misses.
      void this.parts.storePeaks(this.sid, peaks).catch(() => undefined);
    } catch (err) {
      if (this.pageDecode !== decode || decode.signal.aborted) return;
      const message = err instanceof Error && err.message ? err.message : 'The recording could not be decoded.';
      this.peaksProgress = null;
      this.peaksProblem = { kind: 'undecodable', message };
      // The page's own decode failing (a broken download, a decoder hiccup) is worth another try.
      this.peaksRetry = true;
    }
  }
}
