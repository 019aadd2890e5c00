/**
 * The recording of the call shown (RecordingSession): opened in main at "Show call", it makes the
 * media element on the URL main gives, takes what main pushes (peaks so far, final peaks, a
 * problem, the download's progress), decodes in the page a format main leaves to it, and closes
 * main's session when the view moves on. The Calls view makes one per call shown, passes it to
 * the call's view, and lets Play start the sound before the call's view is built.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PeaksProgress, RecordingPeaks, RecordingSessionEvent, RecordingSessionPush } from '$shared/contract';
import type { Interaction } from '$shared/domain';
import type { ComputedPeaks } from '$shared/peaks-reducer';
import WaveformPlayer from '../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import { createRecordingElement } from '../../../renderer/src/lib/interaction/waveform/recording-element';
import {
  RecordingSession,
  type RecordingSessionParts,
} from '../../../renderer/src/lib/interaction/recording-session.svelte';
import { deferred, demoSession, fail, interaction, ok } from '../fake-api';
import { failMedia, loadMetadata, mediaElement } from '../fake-media';
import { useFakePlayer } from './review-fixtures';
import { renderWorkspace } from '../render-app';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const OTHER_SID = 'interaction_6fa459ea-ee8a-3ca4-894e-db77e160355e';
const SRC = `vr-recording://local/recording/${SID}`;

const fakeMedia = useFakePlayer();

function peaksOf(durationSeconds: number, length = 4): RecordingPeaks {
  return {
    durationSeconds,
    sampleRate: 8000,
    length,
    channels: [{ min: new Array<number>(length).fill(-0.5), max: new Array<number>(length).fill(0.5) }],
    fromCache: false,
  };
}

function soFar(coveredSeconds: number, length = 4): PeaksProgress {
  return { peaks: peaksOf(coveredSeconds, length), coveredSeconds, complete: false };
}

/** Parts over a hand-driven main: `push` sends an event of the session main opened. */
function fakeParts(overrides: Partial<RecordingSessionParts> = {}) {
  const listeners = new Set<(push: RecordingSessionPush) => void>();
  const opened: string[] = [];
  const closed: string[] = [];
  const open = vi.fn((sid: string) => {
    opened.push(sid);
    return Promise.resolve({ sessionId: `s${opened.length}`, src: `vr-recording://local/recording/${sid}` });
  });
  const storePeaks = vi.fn(() => Promise.resolve());
  const parts: RecordingSessionParts = {
    open,
    close: vi.fn((sessionId: string) => {
      closed.push(sessionId);
      return Promise.resolve();
    }),
    subscribe: (callback) => {
      listeners.add(callback);
      return () => listeners.delete(callback);
    },
    storePeaks,
    decodeInPage: vi.fn(() => new Promise<ComputedPeaks>(() => undefined)),
    ...overrides,
  };
  const push = (event: RecordingSessionEvent, sessionId = `s${opened.length}`) => {
    for (const listener of [...listeners]) listener({ sessionId, event });
  };
  return { parts, push, opened, closed, listeners, open, storePeaks };
}

describe('RecordingSession', () => {
  it('opens in main at once and plays from the URL main gives, in a CORS-mode element that fetches metadata only', async () => {
    const { parts, open } = fakeParts();
    const session = new RecordingSession(SID, parts);
    expect(open).toHaveBeenCalledWith(SID);
    expect(session.media).toBeNull();

    await vi.waitFor(() => expect(session.media).not.toBeNull());
    expect(session.src).toBe(SRC);
    expect(session.media?.getAttribute('src')).toBe(SRC);
    expect(session.media?.crossOrigin).toBe('anonymous');
    expect(session.media?.preload).toBe('metadata');
    expect(session.play()).toBe(true);
    expect(fakeMedia().play.mock.contexts).toContain(session.media);
    session.dispose();
  });

  it('takes the peaks so far, then the final peaks; pushes before main named the session are kept', async () => {
    let answer!: (info: { sessionId: string; src: string }) => void;
    const { parts, push } = fakeParts({ open: () => new Promise((resolve) => (answer = resolve)) });
    const session = new RecordingSession(SID, parts);
    // Main's first push may come before its answer to the open.
    push({ type: 'peaks-progress', progress: soFar(10) }, 's1');
    push({ type: 'peaks-progress', progress: soFar(5) }, 'another-view');
    answer({ sessionId: 's1', src: SRC });
    await vi.waitFor(() => expect(session.peaksProgress?.coveredSeconds).toBe(10));
    expect(session.peaksPending).toBe(true);

    push({ type: 'peaks-progress', progress: soFar(20) }, 's1');
    expect(session.peaksProgress?.coveredSeconds).toBe(20);
    push({ type: 'peaks-progress', progress: soFar(30) }, 'another-view');
    expect(session.peaksProgress?.coveredSeconds).toBe(20);

    push({ type: 'peaks', peaks: peaksOf(42) }, 's1');
    expect(session.peaks?.durationSeconds).toBe(42);
    expect(session.peaksProgress).toBeNull();
    expect(session.peaksPending).toBe(false);
    session.dispose();
  });

  it('says why there is no waveform in the problem vocabulary, with Retry only where it can help', async () => {
    const { parts, push, opened, closed } = fakeParts();
    const session = new RecordingSession(SID, parts);
    await vi.waitFor(() => expect(session.src).toBe(SRC));

    push({ type: 'peaks-failed', problem: { kind: 'too_large', message: 'The recording is larger than 1 GiB.' } });
    expect(session.peaksProblem?.kind).toBe('too_large');
    expect(session.peaksRetry).toBe(false);

    push({ type: 'peaks-failed', problem: { kind: 'unreachable', message: 'Could not be reached.' } });
    expect(session.peaksRetry).toBe(true);
    const media = session.media;
    session.retryPeaks();
    // A new session in main; the media element stays.
    await vi.waitFor(() => expect(opened).toHaveLength(2));
    expect(closed).toEqual(['s1']);
    expect(session.peaksProblem).toBeNull();
    expect(session.media).toBe(media);
    push({ type: 'peaks', peaks: peaksOf(42) }, 's2');
    await vi.waitFor(() => expect(session.peaks?.durationSeconds).toBe(42));
    session.dispose();
  });

  it("takes the recording's problems and the download's progress as main pushes them", async () => {
    const { parts, push } = fakeParts();
    const session = new RecordingSession(SID, parts);
    await vi.waitFor(() => expect(session.src).toBe(SRC));

    push({ type: 'problem', problem: { kind: 'gone', message: 'The recording link no longer exists (HTTP 404).' } });
    expect(session.problem?.kind).toBe('gone');
    push({ type: 'problem', problem: null });
    expect(session.problem).toBeNull();

    push({ type: 'download', progress: { receivedBytes: 10, totalBytes: 100 } });
    expect(session.download).toEqual({ receivedBytes: 10, totalBytes: 100 });
    push({ type: 'download', progress: null });
    expect(session.download).toBeNull();
    session.dispose();
  });

  it("moves a paused player to the recording's seekable variant main pushes, at the same place", async () => {
    const { parts, push } = fakeParts();
    const session = new RecordingSession(SID, parts);
    await vi.waitFor(() => expect(session.media).not.toBeNull());
    const media = session.media!;
    media.currentTime = 0;
    push({ type: 'seekable', src: `${SRC}?variant=mp4` });
    expect(media.getAttribute('src')).toBe(`${SRC}?variant=mp4`);
    session.dispose();
  });

  it('decodes in the page a format main leaves to it, filling in, and hands main the final peaks', async () => {
    let finish!: (peaks: ComputedPeaks) => void;
    const decodeInPage = vi.fn<RecordingSessionParts['decodeInPage']>((_src, request) => {
      request.onProgress({ ...peaksOf(12), fromCache: undefined } as unknown as ComputedPeaks);
      return new Promise<ComputedPeaks>((resolve) => (finish = resolve));
    });
    const { parts, push, storePeaks } = fakeParts({ decodeInPage });
    const session = new RecordingSession(SID, parts);
    await vi.waitFor(() => expect(session.src).toBe(SRC));

    push({ type: 'decode-in-page' });
    expect(decodeInPage.mock.calls[0]?.[0]).toBe(SRC);
    expect(session.peaksProgress?.coveredSeconds).toBe(12);

    const { fromCache: _unused, ...computed } = peaksOf(42);
    finish(computed);
    await vi.waitFor(() => expect(session.peaks?.durationSeconds).toBe(42));
    expect(storePeaks).toHaveBeenCalledWith(SID, computed);
    session.dispose();
  });

  it("closes main's session, stops listening and lets go of an element no player took", async () => {
    const { parts, push, closed, listeners } = fakeParts();
    const session = new RecordingSession(SID, parts);
    await vi.waitFor(() => expect(session.media).not.toBeNull());
    expect(listeners.size).toBe(1);

    session.dispose();
    expect(closed).toEqual(['s1']);
    expect(listeners.size).toBe(0);
    expect(session.media?.hasAttribute('src')).toBe(false);
    push({ type: 'peaks', peaks: peaksOf(42) }, 's1');
    expect(session.peaks).toBeNull();
  });

  it('keeps the element a player took playing when it is disposed of', async () => {
    const { parts } = fakeParts();
    const session = new RecordingSession(SID, parts);
    await vi.waitFor(() => expect(session.media).not.toBeNull());
    expect(session.takeMedia()).toBe(session.media);
    session.dispose();
    expect(session.media?.getAttribute('src')).toBe(SRC);
  });
});

function callWithRecording(sid = SID): Interaction {
  return interaction({
    sid,
    durationSeconds: 42,
    log: [{ index: 0, role: 'agent', message: 'Hello, Sample Clinic.', offsetSeconds: 1 }],
    recording: { available: true, src: `vr-recording://local/recording/${sid}` },
  });
}

/** A function listing every media element given a src from now on, in order (each once). */
function watchMediaSrc(): () => HTMLMediaElement[] {
  const setSrc = vi.spyOn(HTMLMediaElement.prototype, 'src', 'set');
  return () => [...new Set(setSrc.mock.contexts as HTMLMediaElement[])];
}

async function lookUp(user: ReturnType<typeof userEvent.setup>, sid: string) {
  const field = screen.getByRole('textbox', { name: 'Interaction SID' });
  await user.clear(field);
  await user.click(field);
  await user.paste(sid);
  await user.click(screen.getByRole('button', { name: 'Show call' }));
}

describe('Calls view: the recording session of the call shown', () => {
  it('starts the recording before the call arrives, and Play there plays it; the view then takes that element', async () => {
    const created = watchMediaSrc();
    const pending = deferred<Interaction>();
    const { user } = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
      getInteraction: pending,
      getPeaks: deferred(),
    });

    await lookUp(user, SID);
    expect(await screen.findByRole('status')).toHaveTextContent(`Loading ${SID}…`);
    const play = await screen.findByRole('button', { name: 'Play' });
    await vi.waitFor(() => expect(play).toBeEnabled());
    // Not in the page yet: the session holds it until the player takes it.
    const [early] = created();
    expect(early?.getAttribute('src')).toBe(SRC);
    expect(created()).toHaveLength(1);

    await user.click(play);
    expect(fakeMedia().play.mock.contexts).toContain(early);
    // Sound asked for: the call's view waits for it (not yet playing) or for half a second.
    early!.dispatchEvent(new Event('playing'));
    pending.resolve(callWithRecording());
    const recording = await screen.findByRole('region', { name: 'Recording' });
    expect(mediaElement()).toBe(early);
    expect(within(recording).getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('closes the session when the call cannot be shown, and when another call is looked up', async () => {
    const { fake, user } = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
      getInteraction: fail({ kind: 'not_found', status: 404, message: `No interaction ${SID} in this workspace.` }),
    });

    await lookUp(user, SID);
    expect(await screen.findByRole('alert')).toHaveTextContent('The call could not be shown');
    await vi.waitFor(() => expect(fake.calls.closeRecordingSession).toEqual([['session-1']]));
    expect(fake.sessionListeners).toBe(0);

    // Retry looks the call up again with a session of its own.
    const alert = screen.getByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(fake.calls.openRecordingSession).toEqual([[SID], [SID]]));
    await vi.waitFor(() => expect(fake.calls.closeRecordingSession).toEqual([['session-1'], ['session-2']]));

    fake.reply('getInteraction', ok(callWithRecording(OTHER_SID)));
    await lookUp(user, OTHER_SID);
    await screen.findByRole('region', { name: 'Recording' });
    expect(fake.calls.openRecordingSession).toEqual([[SID], [SID], [OTHER_SID]]);
    expect(fake.sessionListeners).toBe(1);
    expect(mediaElement().getAttribute('src')).toBe(`vr-recording://local/recording/${OTHER_SID}`);
  });

  it('shows a recording too large or not audio in its own words, not as a format without a waveform', async () => {
    const { fake, user } = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
      getInteraction: ok(callWithRecording()),
      getPeaks: deferred(),
    });
    await lookUp(user, SID);
    const recording = await screen.findByRole('region', { name: 'Recording' });

    fake.push({
      type: 'peaks-failed',
      problem: { kind: 'not_audio', message: 'The recording server sent "text/html", which is not an audio format.' },
    });
    expect(
      await within(recording).findByText(/^Not audio\. The recording server sent "text\/html"/),
    ).toBeInTheDocument();
    expect(within(recording).queryByText(/No waveform for this recording's format/)).not.toBeInTheDocument();
  });

  it("shows the recording's problem main pushed when the player fails", async () => {
    const { fake, user } = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
      getInteraction: ok(callWithRecording()),
      getPeaks: deferred(),
    });
    await lookUp(user, SID);
    const recording = await screen.findByRole('region', { name: 'Recording' });
    fake.push({ type: 'problem', problem: { kind: 'refused', message: 'The server refused the API key (HTTP 401).' } });
    failMedia(mediaElement());

    expect(
      await within(recording).findByText('Recording refused: The server refused the API key (HTTP 401).'),
    ).toBeInTheDocument();
  });
});

describe('WaveformPlayer: an element handed over', () => {
  it('takes in metadata that arrived before the player existed', () => {
    const started = createRecordingElement(SRC);
    loadMetadata(started, 95);
    render(WaveformPlayer, { props: { src: SRC, takeMedia: () => started } });

    expect(mediaElement()).toBe(started);
    expect(screen.getByLabelText('Current time and total')).toHaveTextContent('0:00 / 1:35');
    expect(screen.queryByText('Loading the recording…')).not.toBeInTheDocument();
  });

  it('shows the recording problem when the element failed before the player existed', async () => {
    const started = createRecordingElement(SRC);
    failMedia(started);
    Object.defineProperty(started, 'error', { configurable: true, get: () => ({ code: 4, message: 'gone' }) });
    const problem = { kind: 'gone' as const, message: 'The link no longer exists or has expired.' };
    render(WaveformPlayer, { props: { src: SRC, takeMedia: () => started, problem } });

    expect(await screen.findByText(/The link no longer exists or has expired\./)).toBeInTheDocument();
  });
});
