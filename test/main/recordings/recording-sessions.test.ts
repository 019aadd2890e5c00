/**
 * Recording sessions (electron/main/recordings/recording-sessions.ts): one per call the page
 * shows, pushing everything about its recording to the frame that opened it: the peaks as they
 * are decoded, the final peaks (or that the page decodes the format, or why there is none), the
 * recording's problems and the download's progress; closed when the view moves on, with no
 * listener left behind.
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { PeaksWatch } from '../../../electron/main/peaks/service';
import type { DownloadProgressListener } from '../../../electron/main/exports/service';
import type { RecordingProblemListener } from '../../../electron/main/workspaces/active-workspace';
import { createRecordingSessions } from '../../../electron/main/recordings/recording-sessions';
import { notAudio } from '../../../electron/main/api/recording-errors';
import type { SeekableVariantReady } from '../../../electron/main/recordings/seekable-variants';
import type {
  PeaksProgress,
  RecordingPeaks,
  RecordingProblem,
  RecordingSessionPush,
} from '../../../electron/shared/contract';
import { ApiError } from '../../../electron/shared/errors';

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const OTHER_SID = 'interaction_6fa459ea-ee8a-3ca4-894e-db77e160355e';

function peaksOf(durationSeconds: number): RecordingPeaks {
  return { durationSeconds, sampleRate: 8000, length: 2, channels: [{ min: [-1, 0], max: [1, 0] }], fromCache: false };
}

const soFar = (coveredSeconds: number): PeaksProgress => ({
  peaks: peaksOf(coveredSeconds),
  coveredSeconds,
  complete: false,
});

/** Sessions over hand-driven services; the test settles the peaks and reports problems and downloads. */
function rig() {
  const problemListeners = new Set<RecordingProblemListener>();
  const downloadListeners = new Set<DownloadProgressListener>();
  const computations: Array<{
    sid: string;
    watch: PeaksWatch | undefined;
    resolve: (peaks: RecordingPeaks) => void;
    reject: (err: unknown) => void;
  }> = [];
  let ids = 0;
  const playbackProblems = new Map<string, RecordingProblem>();
  const seekableListeners = new Set<(ready: SeekableVariantReady) => void>();
  const seekableReady = new Map<string, string>();
  const sessions = createRecordingSessions({
    peaks: {
      get: (sid, watch) => new Promise((resolve, reject) => computations.push({ sid, watch, resolve, reject })),
      playbackProblem: (sid) => Promise.resolve(playbackProblems.get(sid) ?? null),
    },
    recordingSrc: (sid) => `vr-recording://local/recording/${sid}`,
    seekable: {
      onReady: (listener) => {
        seekableListeners.add(listener);
        return () => seekableListeners.delete(listener);
      },
      readySrc: (sid) => seekableReady.get(sid) ?? null,
    },
    workspaceId: () => 'ws-1',
    onRecordingProblem: (listener) => {
      problemListeners.add(listener);
      return () => problemListeners.delete(listener);
    },
    onDownloadProgress: (listener) => {
      downloadListeners.add(listener);
      return () => downloadListeners.delete(listener);
    },
    downloadProgress: () => null,
    newId: () => `session-${++ids}`,
  });
  const pushed: RecordingSessionPush[] = [];
  const frame = (push: RecordingSessionPush) => pushed.push(push);
  /** Resolves once the session's peaks were asked for (after the open's task). */
  const started = async (count = 1) => {
    for (let i = 0; i < 100 && computations.length < count; i++) await new Promise((r) => setImmediate(r));
    return computations[count - 1]!;
  };
  const settled = () => new Promise((r) => setImmediate(r));
  return {
    sessions,
    pushed,
    frame,
    started,
    settled,
    problemListeners,
    downloadListeners,
    computations,
    playbackProblems,
    seekableListeners,
    seekableReady,
  };
}

describe('recording sessions', () => {
  it("gives the recording's URL at once, then pushes the peaks as they are decoded and the final peaks", async () => {
    const r = rig();
    const info = r.sessions.open(SID, 'frame-1', r.frame);
    expect(info).toEqual({ sessionId: 'session-1', src: `vr-recording://local/recording/${SID}` });

    const computation = await r.started();
    expect(computation.sid).toBe(SID);
    computation.watch?.onProgress?.(soFar(10));
    computation.watch?.onProgress?.(soFar(20));
    computation.resolve(peaksOf(42));
    await r.settled();

    // At most one push of the peaks so far per 250 ms: the 20 s were still held when the final
    // peaks came, which replace them.
    expect(r.pushed).toEqual([
      { sessionId: 'session-1', event: { type: 'peaks-progress', progress: soFar(10) } },
      { sessionId: 'session-1', event: { type: 'peaks', peaks: peaksOf(42) } },
    ]);
  });

  it('pushes the latest peaks so far once the interval is over', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const r = rig();
    r.sessions.open(SID, 'frame-1', r.frame);
    const computation = await r.started();
    computation.watch?.onProgress?.(soFar(10));
    computation.watch?.onProgress?.(soFar(15));
    computation.watch?.onProgress?.(soFar(20));
    expect(r.pushed).toHaveLength(1);
    vi.advanceTimersByTime(250);
    expect(r.pushed.map((p) => p.event)).toEqual([
      { type: 'peaks-progress', progress: soFar(10) },
      { type: 'peaks-progress', progress: soFar(20) },
    ]);
    r.sessions.closeAll();
  });

  it('leaves a format main does not decode to the page, and says why there is no waveform otherwise', async () => {
    const r = rig();
    r.sessions.open(SID, 'frame-1', r.frame);
    (await r.started()).reject(
      new ApiError({ kind: 'invalid_response', message: 'WebM is not decoded here.', detail: 'unsupported_format' }),
    );
    await r.settled();
    expect(r.pushed.at(-1)?.event).toEqual({ type: 'decode-in-page' });

    r.sessions.open(SID, 'frame-1', r.frame);
    (await r.started(2)).reject(notAudio('text/html'));
    await r.settled();
    expect(r.pushed.at(-1)?.event).toMatchObject({ type: 'peaks-failed', problem: { kind: 'not_audio' } });
  });

  it("pushes the problems and download progress of the session's own call in its own workspace", async () => {
    const r = rig();
    r.sessions.open(SID, 'frame-1', r.frame);
    await r.started();
    const problem = { kind: 'gone' as const, message: 'The recording link no longer exists (HTTP 404).' };
    for (const listener of r.problemListeners) {
      listener('ws-1', OTHER_SID, problem);
      listener('ws-2', SID, problem);
      listener('ws-1', SID, problem);
      listener('ws-1', SID, null);
    }
    for (const listener of r.downloadListeners) {
      listener(OTHER_SID, { receivedBytes: 1, totalBytes: 2 });
      listener(SID, { receivedBytes: 5, totalBytes: 10 });
      listener(SID, null);
    }
    expect(r.pushed.map((p) => p.event)).toEqual([
      { type: 'problem', problem },
      { type: 'problem', problem: null },
      { type: 'download', progress: { receivedBytes: 5, totalBytes: 10 } },
      { type: 'download', progress: null },
    ]);
  });

  it('closes a session when its view moves on: nothing more is pushed and no listener is left', async () => {
    const r = rig();
    const first = r.sessions.open(SID, 'frame-1', r.frame);
    const computation = await r.started();
    expect(r.problemListeners.size).toBe(1);
    expect(r.downloadListeners.size).toBe(1);

    // Another frame cannot close it.
    r.sessions.close(first.sessionId, 'frame-2');
    expect(r.sessions.size).toBe(1);

    r.sessions.close(first.sessionId, 'frame-1');
    expect(r.sessions.size).toBe(0);
    expect(r.problemListeners.size).toBe(0);
    expect(r.downloadListeners.size).toBe(0);
    expect(computation.watch?.signal?.aborted).toBe(true);
    computation.resolve(peaksOf(42));
    await r.settled();
    expect(r.pushed).toEqual([]);
  });

  it("keeps one session per frame: showing another call closes the frame's previous one", async () => {
    const r = rig();
    r.sessions.open(SID, 'frame-1', r.frame);
    const first = await r.started();
    r.sessions.open(OTHER_SID, 'frame-1', r.frame);
    r.sessions.open(SID, 'frame-2', () => undefined);
    expect(r.sessions.size).toBe(2);
    expect(first.watch?.signal?.aborted).toBe(true);
    expect(r.problemListeners.size).toBe(2);

    r.sessions.closeAll();
    expect(r.sessions.size).toBe(0);
    expect(r.problemListeners.size).toBe(0);
    expect(r.downloadListeners.size).toBe(0);
  });

  it('closes a session whose frame is gone (its push throws)', async () => {
    const r = rig();
    r.sessions.open(SID, 'frame-1', () => {
      throw new Error('Render frame was disposed before WebFrameMain could be accessed');
    });
    (await r.started()).watch?.onProgress?.(soFar(5));
    expect(r.sessions.size).toBe(0);
    expect(r.problemListeners.size).toBe(0);
  });

  it('says a drawn recording cannot be played (AIFF) once its peaks are there', async () => {
    const r = rig();
    const problem: RecordingProblem = { kind: 'unplayable_format', message: 'This recording is in AIFF.' };
    r.playbackProblems.set(SID, problem);
    r.sessions.open(SID, 'frame-1', r.frame);
    (await r.started()).resolve(peaksOf(42));
    await r.settled();
    await r.settled();
    expect(r.pushed.map((p) => p.event)).toEqual([
      { type: 'peaks', peaks: peaksOf(42) },
      { type: 'problem', problem },
    ]);
  });

  it("pushes the seekable variant's URL of its own call, also when it was ready before the session", async () => {
    const r = rig();
    const variant = `vr-recording://local/recording/${SID}?variant=mp4`;
    r.sessions.open(SID, 'frame-1', r.frame);
    await r.started();
    for (const listener of r.seekableListeners) {
      listener({ sid: OTHER_SID, src: 'elsewhere', durationSeconds: 1 });
      listener({ sid: SID, src: variant, durationSeconds: 2451 });
    }
    expect(r.pushed.map((p) => p.event)).toEqual([{ type: 'seekable', src: variant }]);

    r.seekableReady.set(SID, variant);
    r.sessions.open(SID, 'frame-2', r.frame);
    await r.started(2);
    expect(r.pushed.at(-1)).toEqual({ sessionId: 'session-2', event: { type: 'seekable', src: variant } });

    r.sessions.closeAll();
    expect(r.seekableListeners.size).toBe(0);
  });
});
