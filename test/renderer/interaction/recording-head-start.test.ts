/**
 * The recording started at "Show call": the Calls view starts the call's recording in a
 * media element on the URL main serves it from (SessionInfo.recordingSrcPrefix) while the
 * interaction is looked up, and the player takes that element, so its first bytes and Chromium's
 * media pipeline are not held behind the lookup and the view's build. A lookup that fails, a call
 * without a recording or another SID stops it.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Interaction } from '$shared/domain';
import { recordingSrcOf } from '$shared/recording-src';
import WaveformPlayer from '../../../renderer/src/lib/interaction/waveform/WaveformPlayer.svelte';
import {
  createRecordingElement,
  RecordingHeadStart,
} from '../../../renderer/src/lib/interaction/waveform/recording-element';
import { deferred, demoSession, fail, interaction, ok } from '../fake-api';
import { failMedia, loadMetadata, mediaElement } from '../fake-media';
import { useFakePlayer } from './review-fixtures';
import { renderWorkspace } from '../render-app';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

const PREFIX = 'vr-recording://local/recording/';
const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const OTHER_SID = 'interaction_6fa459ea-ee8a-3ca4-894e-db77e160355e';
const SRC = recordingSrcOf(PREFIX, SID);

const fakeMedia = useFakePlayer();

/** A function listing every media element given a src from now on, in order (each once). */
function watchMediaSrc(): () => HTMLMediaElement[] {
  const setSrc = vi.spyOn(HTMLMediaElement.prototype, 'src', 'set');
  return () => [...new Set(setSrc.mock.contexts as HTMLMediaElement[])];
}

function callWithRecording(sid = SID): Interaction {
  return interaction({
    sid,
    durationSeconds: 42,
    log: [{ index: 0, role: 'agent', message: 'Hello, Sample Clinic.', offsetSeconds: 1 }],
    recording: { available: true, src: recordingSrcOf(PREFIX, sid) },
  });
}

async function openWorkspace(replies: Parameters<typeof renderWorkspace>[1]) {
  return renderWorkspace({ ...demoSession('Sample Clinic (demo)'), recordingSrcPrefix: PREFIX }, replies);
}

async function lookUp(user: ReturnType<typeof userEvent.setup>, sid: string) {
  const field = screen.getByRole('textbox', { name: 'Interaction SID' });
  await user.clear(field);
  await user.click(field);
  await user.paste(sid);
  await user.click(screen.getByRole('button', { name: 'Show call' }));
}

describe('RecordingHeadStart', () => {
  it('starts the recording in a CORS-mode element that fetches only metadata until played', () => {
    const element = createRecordingElement(SRC);
    expect(element.getAttribute('src')).toBe(SRC);
    expect(element.crossOrigin).toBe('anonymous');
    expect(element.isConnected).toBe(false);
  });

  it('hands the element over once, for its own URL only', () => {
    const headStart = new RecordingHeadStart();
    headStart.start(SRC);
    const other = recordingSrcOf(PREFIX, OTHER_SID);
    const taken = headStart.take(SRC);
    expect(taken?.getAttribute('src')).toBe(SRC);
    expect(headStart.take(SRC)).toBeNull();

    headStart.start(SRC);
    const stopped = headStart.take(other);
    expect(stopped).toBeNull();
    expect(fakeMedia().load).toHaveBeenCalledTimes(1);
  });

  it('stops the element it holds when another URL is started or it is released', () => {
    const created = watchMediaSrc();
    const headStart = new RecordingHeadStart();
    headStart.start(SRC);
    headStart.start(SRC);
    expect(created()).toHaveLength(1);
    headStart.start(recordingSrcOf(PREFIX, OTHER_SID));
    expect(created()[0]?.hasAttribute('src')).toBe(false);
    headStart.release();
    expect(created()[1]?.hasAttribute('src')).toBe(false);
    expect(fakeMedia().load).toHaveBeenCalledTimes(2);
  });
});

describe('Calls view: the recording started at "Show call"', () => {
  it('requests the recording before the call arrives, and plays that same element', async () => {
    const created = watchMediaSrc();
    const pending = deferred<Interaction>();
    const { user } = await openWorkspace({ getInteraction: pending, getPeaks: deferred() });

    await lookUp(user, SID);
    expect(await screen.findByRole('status')).toHaveTextContent(`Loading ${SID}…`);
    expect(created().map((element) => element.getAttribute('src'))).toEqual([SRC]);

    pending.resolve(callWithRecording());
    const recording = await screen.findByRole('region', { name: 'Recording' });
    expect(mediaElement()).toBe(created()[0]);
    expect(created()).toHaveLength(1);
    loadMetadata(mediaElement(), 42);
    await user.click(within(recording).getByRole('button', { name: 'Play' }));
    expect(fakeMedia().play.mock.contexts).toContain(created()[0]);
  });

  it('stops the recording when the call cannot be shown', async () => {
    const created = watchMediaSrc();
    const { user } = await openWorkspace({
      getInteraction: fail({ kind: 'not_found', status: 404, message: `No interaction ${SID} in this workspace.` }),
    });

    await lookUp(user, SID);
    expect(await screen.findByRole('alert')).toHaveTextContent('The call could not be shown');
    expect(created()).toHaveLength(1);
    expect(created()[0]?.hasAttribute('src')).toBe(false);
    expect(fakeMedia().load).toHaveBeenCalled();
  });

  it('stops the recording when the call has none, and when another call is looked up', async () => {
    const created = watchMediaSrc();
    const { fake, user } = await openWorkspace({
      getInteraction: ok(interaction({ sid: SID, recording: { available: false, reason: 'No recording.' } })),
    });

    await lookUp(user, SID);
    expect(await screen.findByText(/No recording\. The transcript is still shown\./)).toBeInTheDocument();
    expect(created()[0]?.hasAttribute('src')).toBe(false);

    const second = deferred<Interaction>();
    fake.reply('getInteraction', second);
    fake.reply('getPeaks', deferred());
    await lookUp(user, OTHER_SID);
    expect(created()[1]?.getAttribute('src')).toBe(recordingSrcOf(PREFIX, OTHER_SID));
    await lookUp(user, SID);
    expect(created()[1]?.hasAttribute('src')).toBe(false);
  });

  it('waits for the call when main does not say where recordings are', async () => {
    const created = watchMediaSrc();
    const pending = deferred<Interaction>();
    const { user } = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
      getInteraction: pending,
      getPeaks: deferred(),
    });

    await lookUp(user, SID);
    expect(await screen.findByRole('status')).toHaveTextContent(`Loading ${SID}…`);
    expect(created()).toHaveLength(0);

    pending.resolve(callWithRecording());
    await screen.findByRole('region', { name: 'Recording' });
    expect(mediaElement().getAttribute('src')).toBe(SRC);
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
    const loadProblem = vi.fn(() =>
      Promise.resolve({ kind: 'gone' as const, message: 'The link no longer exists or has expired.' }),
    );
    render(WaveformPlayer, { props: { src: SRC, takeMedia: () => started, loadProblem } });

    expect(await screen.findByText(/The link no longer exists or has expired\./)).toBeInTheDocument();
    expect(loadProblem).toHaveBeenCalledTimes(1);
  });
});
