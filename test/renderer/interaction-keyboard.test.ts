/**
 * The Interaction view's keyboard, as the app shows it (Root -> App -> InteractionView) over a
 * fake `window.api`: shortcuts pressed anywhere in the view move the real player (its media
 * element stands in for Chromium's, test/renderer/fake-media.ts), none acts while typing in the
 * SID field or the transcript search, the focused slider's own keys act once, and `?` opens the
 * shortcut sheet.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SHORTCUTS } from '../../renderer/src/lib/interaction/shortcuts';
import { demoSession, fail, interaction, ok } from './fake-api';
import { installFakeLayout, installFakeMedia, loadMetadata, mediaElement } from './fake-media';
import { renderWorkspace } from './render-app';

vi.mock('wavesurfer.js', async () => (await import('./fake-wavesurfer')).wavesurferModule);

let media: ReturnType<typeof installFakeMedia>;
beforeEach(() => {
  media = installFakeMedia();
  installFakeLayout();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

/**
 * A call whose second agent reply comes 3.6 s after the caller's one-word line ends (the log's
 * times: the caller is taken to speak 2.5 words a second), so it is flagged as slow; the other
 * reply is quick.
 */
const call = interaction({
  sid: SID,
  direction: 'inbound',
  durationSeconds: 120,
  log: [
    { index: 0, role: 'agent', message: 'Hello, Sample Clinic.', offsetSeconds: 1 },
    { index: 1, role: 'user', message: 'Hi.', offsetSeconds: 5 },
    { index: 2, role: 'agent', message: 'How can I help?', offsetSeconds: 9 },
    { index: 3, role: 'user', message: 'Cancel my appointment please.', offsetSeconds: 12 },
    { index: 4, role: 'agent', message: 'Done.', offsetSeconds: 14 },
    { index: 5, role: 'agent', message: 'Anything else?', offsetSeconds: 60 },
  ],
  recording: { available: true, src: `vr-recording://ws-demo/${SID}` },
});

/** Shows the call (no waveform: its peaks fail, so timing comes from the log) with 120 s of media loaded. */
async function openCall() {
  const opened = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
    getInteraction: ok(call),
    getPeaks: fail({ kind: 'invalid_response', message: 'The recording could not be decoded.' }),
  });
  await opened.user.type(screen.getByRole('textbox', { name: 'Interaction SID' }), SID);
  await opened.user.click(screen.getByRole('button', { name: 'Show call' }));
  const recording = await screen.findByRole('region', { name: 'Recording' });
  const audio = mediaElement();
  loadMetadata(audio, 120);
  await vi.waitFor(() => expect(within(recording).getByRole('button', { name: 'Play' })).toBeEnabled());
  // Keys pressed on the page itself, as after clicking an empty spot.
  (document.activeElement as HTMLElement | null)?.blur();
  return { ...opened, recording, audio };
}

describe('Interaction view keyboard: shortcuts anywhere in the view', () => {
  it('plays, pauses, skips and changes speed from the page', async () => {
    const { user, audio } = await openCall();

    await user.keyboard(' ');
    expect(media.play).toHaveBeenCalledTimes(1);
    await user.keyboard('k');
    expect(media.pause).toHaveBeenCalledTimes(1);
    await user.keyboard('K');
    expect(media.play).toHaveBeenCalledTimes(2);

    await user.keyboard('l');
    expect(audio.currentTime).toBe(10);
    await user.keyboard('{ArrowRight}');
    expect(audio.currentTime).toBe(15);
    await user.keyboard('{Shift>}{ArrowRight}{/Shift}');
    expect(audio.currentTime).toBe(45);
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(audio.currentTime).toBe(15);
    await user.keyboard('{ArrowLeft}');
    expect(audio.currentTime).toBe(10);
    await user.keyboard('j');
    expect(audio.currentTime).toBe(0);

    await user.keyboard(']');
    expect(audio.playbackRate).toBe(1.25);
    // "[[" is how user-event types one "[".
    await user.keyboard('[[[[');
    expect(audio.playbackRate).toBe(0.75);
  });

  it('goes to the next and previous transcript entry with Down and Up, and plays from there', async () => {
    const { user, audio } = await openCall();

    await user.keyboard('{ArrowDown}');
    expect(audio.currentTime).toBe(1);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(audio.currentTime).toBe(9);
    expect(media.play).toHaveBeenCalled();
    await user.keyboard('{ArrowUp}');
    expect(audio.currentTime).toBe(5);
    const transcript = screen.getByRole('region', { name: /Transcript/ });
    await vi.waitFor(() =>
      expect(within(transcript).getByRole('listitem', { current: true })).toHaveAttribute('aria-posinset', '2'),
    );
  });

  it('jumps to the flagged slow reply with N, and back with P', async () => {
    const { user, audio } = await openCall();

    await user.keyboard('n');
    // The caller's "Hi." ends at 5.4 s; the reply starts at 9 s.
    expect(audio.currentTime).toBeCloseTo(5.4, 5);
    expect(media.play).toHaveBeenCalledTimes(1);
    // No later moment: N stays.
    await user.keyboard('n');
    expect(audio.currentTime).toBeCloseTo(5.4, 5);
    audio.currentTime = 30;
    await user.keyboard('p');
    expect(audio.currentTime).toBeCloseTo(5.4, 5);
  });

  it('focuses the transcript search with / and with Ctrl+F', async () => {
    const { user } = await openCall();
    const search = screen.getByRole('searchbox', { name: 'Search the transcript' });

    await user.keyboard('/');
    expect(search).toHaveFocus();
    expect(search).toHaveValue('');
    search.blur();
    await user.keyboard('{Control>}f{/Control}');
    expect(search).toHaveFocus();
  });

  it.each([
    ['the SID field', () => screen.getByRole('textbox', { name: 'Interaction SID' })],
    ['the transcript search', () => screen.getByRole('searchbox', { name: 'Search the transcript' })],
    ['the slow-reply threshold', () => screen.getByRole('spinbutton', { name: 'Flag replies slower than' })],
  ])('does nothing while typing in %s', async (_, field) => {
    const { user, audio } = await openCall();
    const target = field();
    await user.click(target);

    await user.keyboard(' kjlnp[[]/?{ArrowRight}{ArrowLeft}{Shift>}{ArrowRight}{/Shift}{ArrowDown}');

    expect(target).toHaveFocus();
    expect(media.play).not.toHaveBeenCalled();
    expect(media.pause).not.toHaveBeenCalled();
    expect(audio.currentTime).toBe(0);
    expect(audio.playbackRate).toBe(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('acts once for keys the focused position slider handles itself', async () => {
    const { user, recording, audio } = await openCall();
    within(recording)
      .getByRole('slider', { name: /Playback position/ })
      .focus();

    await user.keyboard(' ');
    expect(media.play).toHaveBeenCalledTimes(1);
    expect(media.pause).not.toHaveBeenCalled();
    await user.keyboard('{ArrowRight}');
    expect(audio.currentTime).toBe(5);
  });
});

describe('Interaction view keyboard: the shortcut sheet', () => {
  it('opens with ?, lists every shortcut, closes with Escape', async () => {
    const { user } = await openCall();

    await user.keyboard('?');

    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const rows = within(sheet).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual(
      SHORTCUTS.map((s) => s.description),
    );
    expect(rows[0]).toHaveTextContent(/^Space or K\s*Play or pause$/);
    // While it is open, the view's keys are the dialog's: nothing plays.
    await user.keyboard('k');
    expect(media.play).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens from its button, and Close gives the focus back to the button', async () => {
    const { user } = await openCall();
    const button = screen.getByRole('button', { name: 'Keyboard shortcuts (?)' });

    await user.click(button);
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(sheet).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.click(within(sheet).getByRole('button', { name: 'Close' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(button).toHaveFocus());
  });
});
