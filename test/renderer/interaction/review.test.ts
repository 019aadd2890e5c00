/**
 * The Calls view's help to find a moment, as the app shows it over a fake `window.api`:
 * flagged replies as badges on their transcript rows, the transcript timing check above the
 * transcript, the turn timing summary with its stored threshold, and requests to open a call at
 * a time (a link, a recent call) honoured.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { RecordingPeaks } from '$shared/contract';
import { requestOpenInteraction } from '../../../renderer/src/lib/interaction/open-request.svelte';
import { SLOW_REPLY_STORAGE_KEY } from '../../../renderer/src/lib/interaction/timing-settings';
import { demoSession, fail, interaction, ok, type Replies } from '../fake-api';
import { loadMetadata, mediaElement } from '../fake-media';
import { OTHER_SID, showSideTab, SID, slowReplyCall, useFakePlayer } from './review-fixtures';
import { renderWorkspace } from '../render-app';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

const fakeMedia = useFakePlayer();
const call = slowReplyCall;
const other = interaction({ sid: OTHER_SID, direction: 'outbound', log: [], recording: call.recording });
const NO_WAVEFORM = fail({ kind: 'invalid_response', message: 'The recording could not be decoded.' });

async function openWorkspace(replies: Replies = {}) {
  return renderWorkspace(demoSession('Sample Clinic (demo)'), {
    getInteraction: ok(call),
    getPeaks: NO_WAVEFORM,
    ...replies,
  });
}

async function showCall(user: Awaited<ReturnType<typeof openWorkspace>>['user'], sid = SID) {
  const box = screen.getByRole('textbox', { name: 'Interaction SID' });
  await user.clear(box);
  await user.type(box, sid);
  await user.click(screen.getByRole('button', { name: 'Show call' }));
  // The call's view is built in two parts (its player first): wait for the second.
  await screen.findByRole('region', { name: /Transcript/ });
}

const transcript = () => screen.getByRole('region', { name: /Transcript/ });
/** The side panel's Turn timing, brought forward. */
async function timingPanel() {
  await showSideTab('Timing');
  return screen.findByRole('region', { name: 'Turn timing' });
}

describe('Calls view: flagged replies and the timing summary', () => {
  it('marks the slow reply on its row, in words a screen reader reads', async () => {
    const { user } = await openWorkspace();
    await showCall(user);

    const slow = await within(transcript()).findByRole('button', { name: /How can I help\?/ });
    expect(slow).toHaveAccessibleName('Agent 0:09 Slow reply 3.6 s: How can I help?. Flagged: Slow reply: 3.6 s');
    expect(within(slow).getByText('Slow reply 3.6 s')).toHaveAttribute('title', 'Slow reply: 3.6 s');
    const quick = within(transcript()).getByRole('button', { name: /Done\./ });
    expect(quick).toHaveAccessibleName('Agent 0:14: Done.');
    expect(within(transcript()).queryByRole('note')).not.toBeInTheDocument();
  });

  it('sums up the timing from the log times, says so, and plays from the longest reply', async () => {
    const { user } = await openWorkspace();
    await showCall(user);
    loadMetadata(mediaElement(), 120);

    const panel = await timingPanel();
    expect(within(panel).getByText(/estimated from the transcript times/)).toBeVisible();
    await user.click(within(panel).getByRole('button', { name: 'Longest reply: 3.6 s. Listen from there' }));
    expect(mediaElement().currentTime).toBeCloseTo(5.4, 5);
    expect(fakeMedia().play).toHaveBeenCalledTimes(1);
  });

  it('keeps the threshold the reviewer sets, for this call and the next ones', async () => {
    const { user, fake } = await openWorkspace();
    await showCall(user);
    const field = await within(await timingPanel()).findByRole('spinbutton', { name: 'Flag replies slower than' });
    expect(field).toHaveAccessibleDescription('1 moment flagged. N and P go through them.');

    await user.clear(field);
    await user.type(field, '4');

    expect(field).toHaveAccessibleDescription('0 moments flagged. N and P go through them.');
    expect(within(transcript()).queryByText(/Slow reply/)).not.toBeInTheDocument();
    expect(localStorage.getItem(SLOW_REPLY_STORAGE_KEY)).toBe('4');

    // Another call, then this one again: the threshold is still 4 s.
    fake.reply('getInteraction', ok(other));
    await showCall(user, OTHER_SID);
    expect(await screen.findByRole('heading', { name: 'Outbound call' })).toBeInTheDocument();
    fake.reply('getInteraction', ok(call));
    await showCall(user, SID);
    expect(
      await within(await timingPanel()).findByRole('spinbutton', { name: 'Flag replies slower than' }),
    ).toHaveValue(4);
    expect(within(transcript()).queryByText(/Slow reply/)).not.toBeInTheDocument();
  });

  it('refuses a threshold out of range and keeps flagging with the last good one', async () => {
    localStorage.setItem(SLOW_REPLY_STORAGE_KEY, 'not a number');
    const { user } = await openWorkspace();
    await showCall(user);
    const field = await within(await timingPanel()).findByRole('spinbutton', { name: 'Flag replies slower than' });
    expect(field).toHaveValue(1.5);

    await user.clear(field);
    await user.type(field, '0.2');

    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Enter a number of seconds from 0.5 to 10, in steps of 0.5.');
    expect(within(transcript()).getByText('Slow reply 3.6 s')).toBeInTheDocument();
    expect(localStorage.getItem(SLOW_REPLY_STORAGE_KEY)).toBe('not a number');
  });
});

describe('Calls view: the transcript timing check', () => {
  it("says in one line above the transcript when its times run past the recording's end", async () => {
    const peaks: RecordingPeaks = {
      durationSeconds: 10,
      sampleRate: 8000,
      length: 4,
      channels: [{ min: [-0.5, -0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5, 0.5] }],
      fromCache: false,
    };
    const { user } = await openWorkspace({ getPeaks: ok(peaks), getInteraction: ok({ ...call, durationSeconds: 10 }) });
    await showCall(user);

    const note = await within(transcript()).findByRole('note');
    expect(note).toHaveTextContent(
      "3 transcript entries are timed after the recording ends (0:10), so the transcript's times may not match the audio.",
    );
  });
});

describe('Calls view: requests to open a call', () => {
  it('shows the requested call with its note at the requested time, without playing', async () => {
    const { fake } = await openWorkspace();

    requestOpenInteraction(SID, 7, 'The link named the workspace "Production", which is not set up here.');

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Interaction SID' })).toHaveValue(SID);
    expect(screen.getByText('The link named the workspace "Production", which is not set up here.')).toHaveAttribute(
      'role',
      'note',
    );
    expect(fake.calls.getInteraction).toEqual([[SID]]);
    await vi.waitFor(() => expect(mediaElement().currentTime).toBe(7));
    // A link never starts the sound: the reviewer presses Play.
    expect(fakeMedia().play).not.toHaveBeenCalled();

    // The same call again at another time: the playhead moves there, without loading the call again.
    requestOpenInteraction(SID, 3, null);
    await vi.waitFor(() => expect(mediaElement().currentTime).toBe(3));
    expect(fakeMedia().play).not.toHaveBeenCalled();
    expect(screen.queryByText(/The link named the workspace/)).not.toBeInTheDocument();
  });

  it('builds the transcript of a call opened at a time without waiting for sound that was not asked for', async () => {
    await openWorkspace();
    requestOpenInteraction(SID, 7, null);

    // Nothing plays, so nothing holds the rest of the view back.
    expect(await screen.findByRole('region', { name: /Transcript/ })).toBeInTheDocument();
    expect(await timingPanel()).toBeInTheDocument();
    expect(mediaElement().currentTime).toBe(7);
    expect(fakeMedia().play).not.toHaveBeenCalled();
  });

  it('shows a call asked for before the view was there, without playing when no time was asked', async () => {
    requestOpenInteraction(OTHER_SID);
    await openWorkspace({ getInteraction: ok(other) });

    expect(await screen.findByRole('heading', { name: 'Outbound call' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Interaction SID' })).toHaveValue(OTHER_SID);
    expect(fakeMedia().play).not.toHaveBeenCalled();
  });

  it('drops the note once the reviewer looks up another call', async () => {
    const { user, fake } = await openWorkspace();
    requestOpenInteraction(SID, null, 'Opened from a link.');
    expect(await screen.findByText('Opened from a link.')).toBeInTheDocument();

    fake.reply('getInteraction', ok(other));
    await showCall(user, OTHER_SID);

    expect(await screen.findByRole('heading', { name: 'Outbound call' })).toBeInTheDocument();
    expect(screen.queryByText('Opened from a link.')).not.toBeInTheDocument();
    expect(fakeMedia().play).not.toHaveBeenCalled();
  });
});
