/**
 * The Calls view, as the app shows it in a connected demo workspace (Root -> App ->
 * CallsView), over a fake `window.api`.
 *
 * wavesurfer.js needs canvas, which jsdom does not have, so it is replaced by a small fake that
 * records what it was given and reports 'ready'. jsdom's <audio> cannot load or play: the tests
 * stand in for Chromium by firing its events (test/renderer/fake-media.ts). Every other part is
 * real. Tests that do not exercise the player use interactions without a recording.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DemoInteractionSummary, RecordingPeaks } from '$shared/contract';
import type { Interaction } from '$shared/domain';
import { requestFileCommand } from '../../../renderer/src/lib/interaction/file-command.svelte';
import { deferred, demoSession, fail, interaction, ok, type Replies } from '../fake-api';
import { renderWorkspace } from '../render-app';
import { showSideTab } from './review-fixtures';
import { fakeWaveSurfers } from '../fake-wavesurfer';
import { advanceTo, failMedia, installFakeLayout, installFakeMedia, loadMetadata, mediaElement } from '../fake-media';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

let media: ReturnType<typeof installFakeMedia>;
beforeEach(() => {
  media = installFakeMedia();
  installFakeLayout();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const OTHER_SID = 'interaction_6fa459ea-ee8a-3ca4-894e-db77e160355e';

/** Renders the app connected to a demo workspace and waits for the Calls view. */
async function openWorkspace(replies: Replies = {}, demoInteractions: DemoInteractionSummary[] = []) {
  return renderWorkspace(demoSession('Sample Clinic (demo)', demoInteractions), replies);
}

const sidInput = () => screen.getByRole('textbox', { name: 'Interaction SID' });

async function lookUp(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(sidInput());
  await user.paste(text);
  await user.click(screen.getByRole('button', { name: 'Show call' }));
}

/** The value shown next to a label in the call details. */
function detail(label: string): HTMLElement {
  const details = screen.getByRole('region', { name: 'Call details' });
  const term = within(details).getByText(label, { selector: 'dt' });
  const value = term.nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`No value next to "${label}"`);
  return value;
}

describe('Calls view: finding the SID', () => {
  it('explains the SID shape when the text holds none, and loads nothing', async () => {
    const { fake, user } = await openWorkspace({ getInteraction: ok(interaction({ sid: SID })) });

    await lookUp(user, 'ticket 4411: caller says the agent hung up');

    expect(sidInput()).toHaveAccessibleDescription(
      /No interaction SID found in that text\..*interaction_ followed by a UUID/,
    );
    expect(sidInput()).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls.getInteraction).toHaveLength(0);
  });

  it('asks for a SID when the field is empty', async () => {
    const { fake, user } = await openWorkspace({ getInteraction: ok(interaction({ sid: SID })) });

    await user.click(screen.getByRole('button', { name: 'Show call' }));

    expect(sidInput()).toHaveAccessibleDescription(/Paste an interaction SID\..*interaction_ followed by a UUID/);
    expect(fake.calls.getInteraction).toHaveLength(0);
  });

  it('answers File > Export… with no call shown by asking for a call first', async () => {
    await openWorkspace();

    flushSync(() => requestFileCommand('export'));

    expect(sidInput()).toHaveAccessibleDescription(/^Show a call first, then choose File > Export… again\./);
    expect(sidInput()).toHaveFocus();
  });

  it('finds an upper-case SID inside a pasted link and looks it up in lower case', async () => {
    const { fake, user } = await openWorkspace({ getInteraction: ok(interaction({ sid: SID, direction: 'inbound' })) });

    await lookUp(user, 'https://console.example.com/calls/interaction_1B4E28BA-2FA1-11D2-883F-0016D3CCA427?tab=log');

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    expect(fake.calls.getInteraction).toEqual([[SID]]);
    expect(sidInput()).toHaveValue(SID);
    expect(sidInput()).toHaveAccessibleDescription('Looks up the call in Sample Clinic (demo).');
  });
});

describe('Calls view: loading and errors', () => {
  it('shows a loading status until the call arrives', async () => {
    const pending = deferred<Interaction>();
    const { user } = await openWorkspace({ getInteraction: pending });

    await lookUp(user, SID);

    expect(await screen.findByRole('status')).toHaveTextContent(`Loading ${SID}…`);
    expect(screen.queryByRole('region', { name: 'Call details' })).not.toBeInTheDocument();

    pending.resolve(interaction({ sid: SID, direction: 'outbound' }));
    expect(await screen.findByRole('heading', { name: 'Outbound call' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows a not-found error with a Retry that asks again', async () => {
    const { fake, user } = await openWorkspace({
      getInteraction: fail({ kind: 'not_found', status: 404, message: `No interaction ${SID} in this workspace.` }),
    });

    await lookUp(user, SID);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The call could not be shown');
    expect(alert).toHaveTextContent(`No interaction ${SID} in this workspace.`);
    expect(fake.calls.getInteraction).toHaveLength(1);

    fake.reply('getInteraction', ok(interaction({ sid: SID, direction: 'inbound' })));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    expect(fake.calls.getInteraction).toEqual([[SID], [SID]]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Calls view: a call without a recording', () => {
  const call = interaction({
    sid: SID,
    fromNumber: '+14155550123',
    toNumber: '+442079460958',
    direction: 'inbound',
    type: 'phone_call',
    status: 'in_progress',
    agentSid: 'agent_3f2b9c1e-8d4a-4e6b-9a0f-1c2d3e4f5a6b',
    startedAtMs: Date.UTC(2024, 4, 2, 9, 30, 0),
    endedAtMs: null,
    durationSeconds: 134,
    variables: { patient_id: 'P-1234', callback_requested: 'true', empty_one: '' },
    log: [
      { index: 0, role: 'agent', message: 'Thanks for calling Sample Clinic.', offsetSeconds: 0.4 },
      { index: 1, role: 'user', message: 'I need to move my appointment.', offsetSeconds: 5.2 },
      { index: 2, role: 'tool_call', message: 'lookup_patient(P-1234)', offsetSeconds: null },
      { index: 3, role: 'agent', message: 'Of course, which day suits you?', offsetSeconds: 71 },
    ],
    recording: { available: false, reason: 'This interaction has no recording.' },
  });

  it('shows the call details in words', async () => {
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    await lookUp(user, SID);

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Call details' });
    expect(within(details).getByText('In progress')).toBeInTheDocument();
    expect(within(details).getByText(SID)).toBeInTheDocument();
    expect(detail('From')).toHaveTextContent('+1 415 555 0123');
    expect(detail('To')).toHaveTextContent('+44 2079 460 958');
    expect(detail('Direction')).toHaveTextContent('Inbound');
    expect(detail('Type')).toHaveTextContent('Phone call');
    expect(detail('Ended')).toHaveTextContent('Still in progress');
    expect(detail('Duration')).toHaveTextContent('2 min 14 s');
    expect(detail('Agent')).toHaveTextContent('agent_3f2b9c1e-8d4a-4e6b-9a0f-1c2d3e4f5a6b');
  });

  it('says why there is no recording', async () => {
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    await lookUp(user, SID);

    const recording = await screen.findByRole('region', { name: 'Recording' });
    expect(within(recording).getByRole('note')).toHaveTextContent(
      'This interaction has no recording. The transcript is still shown.',
    );
    expect(within(recording).queryByRole('button', { name: 'Play' })).not.toBeInTheDocument();
  });

  it('lists the variables by name', async () => {
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    await lookUp(user, SID);
    await showSideTab('Variables');

    const variables = await screen.findByRole('region', { name: 'Variables' });
    const rows = within(within(variables).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent.trim()))).toEqual([
      ['Name', 'Value'],
      ['callback_requested', 'true'],
      ['empty_one', '—'],
      ['patient_id', 'P-1234'],
    ]);
  });

  it('lists the transcript with roles and m:ss offsets, not clickable without a recording', async () => {
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    await lookUp(user, SID);

    const transcript = await screen.findByRole('region', { name: /Transcript/ });
    expect(within(transcript).getByRole('heading')).toHaveTextContent('Transcript 4 entries');
    const rows = within(transcript).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent.replace(/\s+/g, ' ').trim())).toEqual([
      'Agent 0:00 Thanks for calling Sample Clinic.',
      'Caller 0:05 I need to move my appointment.',
      'Tool call — lookup_patient(P-1234)',
      'Agent 1:11 Of course, which day suits you?',
    ]);
    for (const button of within(transcript).getAllByRole('button')) expect(button).toBeDisabled();
  });
});

describe('Calls view: demo calls', () => {
  const demos: DemoInteractionSummary[] = [
    { sid: SID, label: 'Appointment change (inbound)' },
    { sid: OTHER_SID, label: 'Prescription refill (no recording)' },
  ];

  it('offers the demo SIDs in the call list and loads the picked one', async () => {
    const { fake, user } = await openWorkspace(
      { getInteraction: (sid) => ok(interaction({ sid, direction: sid === OTHER_SID ? 'outbound' : 'inbound' })) },
      demos,
    );

    const list = screen.getByRole('region', { name: 'Demo calls' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent.trim()),
    ).toEqual(['Appointment change (inbound)', 'Prescription refill (no recording)']);

    await user.click(within(list).getByRole('button', { name: 'Prescription refill (no recording)' }));

    expect(await screen.findByRole('heading', { name: 'Outbound call' })).toBeInTheDocument();
    expect(fake.calls.getInteraction).toEqual([[OTHER_SID]]);
    expect(sidInput()).toHaveValue(OTHER_SID);
  });

  it('offers the demo calls as buttons before any call is shown', async () => {
    const { fake, user } = await openWorkspace(
      { getInteraction: (sid) => ok(interaction({ sid, direction: 'inbound' })) },
      demos,
    );

    await user.click(screen.getByRole('button', { name: 'Appointment change (inbound)' }));

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    expect(fake.calls.getInteraction).toEqual([[SID]]);
  });
});

describe('Calls view: with a recording', () => {
  const RECORDING_URL = `vr-recording://local/recording/${SID}`;
  const call = interaction({
    sid: SID,
    direction: 'inbound',
    durationSeconds: 42,
    log: [
      { index: 0, role: 'agent', message: 'Hello, Sample Clinic.', offsetSeconds: 1 },
      { index: 1, role: 'user', message: 'Hi, I would like to cancel.', offsetSeconds: 12.5 },
      { index: 2, role: 'agent', message: 'Of course. Which appointment?', offsetSeconds: 20 },
    ],
    recording: { available: true, src: RECORDING_URL },
  });

  /** Mono peaks as main computes them: `length` min/max pairs over `durationSeconds`. */
  function monoPeaks(durationSeconds = 42.25, length = 8): RecordingPeaks {
    const max = Array.from({ length }, (_, i) => (i % 4) / 4);
    return {
      durationSeconds,
      sampleRate: 8000,
      length,
      channels: [{ min: max.map((v) => -v / 2), max }],
      fromCache: false,
    };
  }

  async function openCall(replies: Replies) {
    const opened = await openWorkspace({ getInteraction: ok(call), ...replies });
    const before = fakeWaveSurfers.length;
    await lookUp(opened.user, SID);
    const recording = await screen.findByRole('region', { name: 'Recording' });
    return { ...opened, recording, newWaveSurfers: () => fakeWaveSurfers.slice(before) };
  }

  it('plays before the waveform is drawn, then draws it from the peaks without fetching the recording', async () => {
    const peaks = deferred<RecordingPeaks>();
    const { fake, user, recording, newWaveSurfers } = await openCall({ getPeaks: peaks });

    // The recording streams from its URL through the media element; peaks are asked for at once
    // (main computes them), and nothing waits for them.
    const audio = mediaElement();
    expect(audio).toHaveAttribute('src', RECORDING_URL);
    expect(within(recording).getByText('Drawing waveform…')).toBeInTheDocument();
    await vi.waitFor(() => expect(fake.calls.getPeaks).toEqual([[SID]]));

    // Play can be pressed before the first bytes are in: playback starts when the element can play.
    const play = within(recording).getByRole('button', { name: 'Play' });
    expect(play).toBeEnabled();
    expect(within(recording).getByText('Loading the recording…')).toBeInTheDocument();
    await user.click(play);
    expect(media.play).toHaveBeenCalledTimes(1);
    loadMetadata(audio, 42.3);
    await vi.waitFor(() => expect(within(recording).queryByText('Loading the recording…')).not.toBeInTheDocument());
    expect(await within(recording).findByRole('button', { name: 'Pause' })).toBeEnabled();
    advanceTo(audio, 3);
    await vi.waitFor(() =>
      expect(within(recording).getByRole('slider')).toHaveAttribute('aria-valuetext', '0:03 of 0:42'),
    );
    expect(within(recording).getByText('Drawing waveform…')).toBeInTheDocument();
    expect(newWaveSurfers()).toHaveLength(0);

    peaks.resolve(monoPeaks());

    await vi.waitFor(() => expect(within(recording).queryByText('Drawing waveform…')).not.toBeInTheDocument());
    const [ws] = newWaveSurfers();
    expect(ws?.options.media).toBe(audio);
    expect(ws?.options.url).toBeUndefined();
    expect(ws?.options.duration).toBe(42.25);
    expect(ws?.options.peaks?.map((p) => Array.from(p))).toEqual([
      [0, 0.25, 0.5, 0.75, 0, 0.25, 0.5, 0.75],
      [0, 0.125, 0.25, 0.375, 0, 0.125, 0.25, 0.375],
    ]);
    expect(ws?.options.splitChannels).toBeUndefined();
    // Playing went on throughout; the exact decoded duration is shown.
    expect(media.pause).not.toHaveBeenCalled();
    expect(within(recording).getByRole('button', { name: 'Pause' })).toBeEnabled();
    expect(within(recording).getByRole('slider')).toHaveAttribute('aria-valuetext', '0:03 of 0:42');
  });

  it('draws the peaks decoded so far that main pushes while the peaks are computed', async () => {
    const peaks = deferred<RecordingPeaks>();
    const soFar = { peaks: monoPeaks(21, 4), coveredSeconds: 21, complete: false };
    const { fake, recording, newWaveSurfers } = await openCall({ getPeaks: peaks });
    loadMetadata(mediaElement(), 42);
    fake.push({ type: 'peaks-progress', progress: soFar });

    await vi.waitFor(() => expect(newWaveSurfers()).toHaveLength(1));
    const [ws] = newWaveSurfers();
    // Half the call decoded: its peaks on the first half of a 42-second waveform, silence after.
    expect(ws?.options.duration).toBe(42);
    expect(ws?.options.peaks?.map((p) => Array.from(p))).toEqual([
      [0, 0.25, 0.5, 0.75, 0, 0, 0, 0],
      [0, 0.125, 0.25, 0.375, 0, 0, 0, 0],
    ]);
    expect(within(recording).queryByText('Drawing waveform…')).not.toBeInTheDocument();
    // Main polls nothing and is polled for nothing: the page only listens.
    expect(fake.calls.openRecordingSession).toEqual([[SID]]);

    // Once the peaks failed, no partial waveform stays.
    peaks.fail({ kind: 'invalid_response', message: 'The recording could not be decoded.' });
    await vi.waitFor(() => expect(ws?.destroyed).toBe(true));
  });

  it('says when the format has no waveform, and still plays', async () => {
    const { user, recording, newWaveSurfers } = await openCall({
      getPeaks: fail({ kind: 'invalid_response', message: 'The recording could not be decoded.' }),
    });
    loadMetadata(mediaElement(), 42);

    expect(
      await within(recording).findByText("No waveform for this recording's format; playback works."),
    ).toBeInTheDocument();
    expect(within(recording).queryByText('Drawing waveform…')).not.toBeInTheDocument();
    expect(within(recording).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
    expect(within(recording).queryByRole('alert')).not.toBeInTheDocument();

    await user.click(within(recording).getByRole('button', { name: 'Play' }));
    expect(media.play).toHaveBeenCalledTimes(1);
    expect(await within(recording).findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(newWaveSurfers()).toHaveLength(0);
  });

  it('offers to retry the waveform alone when the peaks failed for another reason', async () => {
    const { fake, user, recording, newWaveSurfers } = await openCall({
      getPeaks: fail({ kind: 'network', message: 'The recording server could not be reached.' }),
    });
    const audio = mediaElement();
    loadMetadata(audio, 42);

    const retry = await within(recording).findByRole('button', { name: 'Retry waveform' });
    expect(
      within(recording).getByText(/The waveform could not be drawn\. The recording server could not be reached\./),
    ).toBeInTheDocument();
    expect(within(recording).getByRole('button', { name: 'Play' })).toBeEnabled();

    fake.reply('getPeaks', ok(monoPeaks()));
    await user.click(retry);

    await vi.waitFor(() => expect(newWaveSurfers()).toHaveLength(1));
    await vi.waitFor(() =>
      expect(within(recording).queryByRole('button', { name: 'Retry waveform' })).not.toBeInTheDocument(),
    );
    expect(fake.calls.getPeaks).toEqual([[SID], [SID]]);
    // The media element was not reloaded: playback state is untouched by a waveform retry.
    expect(media.load).not.toHaveBeenCalled();
    expect(mediaElement()).toBe(audio);
  });

  it('shows an error with a Retry that reloads the recording when it cannot be played', async () => {
    const { user, recording } = await openCall({ getPeaks: ok(monoPeaks()) });
    failMedia(mediaElement());

    const alert = await within(recording).findByRole('alert');
    expect(alert).toHaveTextContent('The recording could not be loaded or played.');
    expect(within(recording).getByRole('button', { name: 'Play' })).toBeDisabled();
    expect(within(recording).queryByText('Drawing waveform…')).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(media.load).toHaveBeenCalledTimes(1);
    expect(within(recording).queryByRole('alert')).not.toBeInTheDocument();
    loadMetadata(mediaElement(), 42);
    await vi.waitFor(() => expect(within(recording).getByRole('button', { name: 'Play' })).toBeEnabled());
  });

  it("shows main's words for a dead link in place of the player, with a Retry of both, while the transcript works", async () => {
    const gone = {
      kind: 'gone' as const,
      message: 'The recording link no longer exists or has expired (HTTP 404). Reload the interaction.',
    };
    const { fake, user, recording } = await openCall({
      getPeaks: fail({ kind: 'not_found', message: gone.message, status: 404 }),
    });
    fake.push({ type: 'problem', problem: gone });
    failMedia(mediaElement());

    const alert = await within(recording).findByRole('alert');
    await vi.waitFor(() => expect(alert).toHaveTextContent(gone.message));
    expect(alert).not.toHaveTextContent('could not be loaded or played');
    // The waveform box is replaced: no slider, no "Drawing waveform…", no second retry.
    expect(within(recording).queryByRole('slider')).not.toBeInTheDocument();
    expect(within(recording).queryByRole('button', { name: 'Retry waveform' })).not.toBeInTheDocument();

    // The transcript stays fully usable: its entries are there and can be read and clicked.
    const transcript = await screen.findByRole('region', { name: /Transcript/ });
    const entry = within(transcript).getByRole('button', { name: /Hi, I would like to cancel\./ });
    await user.click(entry);
    expect(within(transcript).getAllByRole('button').length).toBeGreaterThan(1);

    // Retry reloads the recording and asks for the peaks again.
    fake.reply('getPeaks', ok(monoPeaks()));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(media.load).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(fake.calls.getPeaks).toHaveLength(2));
    expect(within(recording).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('plays from a clicked transcript entry and the highlight follows the audio', async () => {
    const { user, recording } = await openCall({ getPeaks: deferred<RecordingPeaks>() });
    const audio = mediaElement();
    loadMetadata(audio, 42);
    await vi.waitFor(() => expect(within(recording).getByRole('button', { name: 'Play' })).toBeEnabled());

    // The call's view is built in two parts (its player first): the transcript may come a task later.
    const transcript = await screen.findByRole('region', { name: /Transcript/ });
    await user.click(within(transcript).getByRole('button', { name: /Hi, I would like to cancel\./ }));
    expect(audio.currentTime).toBe(12.5);
    expect(media.play).toHaveBeenCalledTimes(1);
    const current = () =>
      within(transcript)
        .getAllByRole('listitem')
        .filter((row) => row.getAttribute('aria-current') === 'true');
    await vi.waitFor(() => expect(current().map((row) => row.getAttribute('aria-posinset'))).toEqual(['2']));

    advanceTo(audio, 21);
    await vi.waitFor(() => expect(current().map((row) => row.getAttribute('aria-posinset'))).toEqual(['3']));
    expect(current()[0]).toHaveTextContent('Of course. Which appointment?');
  });

  it('moves playback with the arrow keys on the position slider', async () => {
    const { user, recording } = await openCall({ getPeaks: ok(monoPeaks()) });
    const audio = mediaElement();
    loadMetadata(audio, 42);
    const slider = within(recording).getByRole('slider', { name: /Playback position/ });
    await vi.waitFor(() => expect(within(recording).getByRole('button', { name: 'Play' })).toBeEnabled());

    slider.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(audio.currentTime).toBe(10);
    expect(slider).toHaveAttribute('aria-valuenow', '10');
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(audio.currentTime).toBe(0);
    await user.keyboard(' ');
    expect(media.play).toHaveBeenCalledTimes(1);
  });
});
