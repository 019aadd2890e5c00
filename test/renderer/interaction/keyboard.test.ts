/**
 * The Calls view's keyboard, as the app shows it (Root -> App -> CallsView) over a
 * fake `window.api`: shortcuts pressed anywhere in the view move the real player (its media
 * element stands in for Chromium's, test/renderer/fake-fakeMedia().ts), none acts while typing in the
 * SID field or the transcript search, the focused slider's own keys act once, and `?` opens the
 * shortcut sheet.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { SHORTCUTS } from '../../../renderer/src/lib/interaction/shortcuts';
import { demoSession, fail, ok } from '../fake-api';
import { advanceTo, loadMetadata, mediaElement } from '../fake-media';
import { showSideTab, SID, slowReplyCall, useFakePlayer } from './review-fixtures';
import { renderWorkspace } from '../render-app';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

const fakeMedia = useFakePlayer();

/** Shows the call (no waveform: its peaks fail, so timing comes from the log) with 120 s of media loaded. */
async function openCall() {
  const opened = await renderWorkspace(demoSession('Sample Clinic (demo)'), {
    getInteraction: ok(slowReplyCall),
    getPeaks: fail({ kind: 'invalid_response', message: 'The recording could not be decoded.' }),
  });
  await opened.user.type(screen.getByRole('textbox', { name: 'Interaction SID' }), SID);
  await opened.user.click(screen.getByRole('button', { name: 'Show call' }));
  const recording = await screen.findByRole('region', { name: 'Recording' });
  // The call's view is built in two parts (its player first): wait for the second.
  await screen.findByRole('region', { name: /Transcript/ });
  const audio = mediaElement();
  loadMetadata(audio, 120);
  await vi.waitFor(() => expect(within(recording).getByRole('button', { name: 'Play' })).toBeEnabled());
  // Keys pressed on the page itself, as after clicking an empty spot.
  (document.activeElement as HTMLElement | null)?.blur();
  return { ...opened, recording, audio };
}

describe('Calls view keyboard: shortcuts anywhere in the view', () => {
  it('plays, pauses, skips and changes speed from the page', async () => {
    const { user, audio } = await openCall();

    await user.keyboard(' ');
    expect(fakeMedia().play).toHaveBeenCalledTimes(1);
    await user.keyboard('k');
    expect(fakeMedia().pause).toHaveBeenCalledTimes(1);
    await user.keyboard('K');
    expect(fakeMedia().play).toHaveBeenCalledTimes(2);

    const skips: Array<[string, number]> = [
      ['l', 10],
      ['{ArrowRight}', 15],
      ['{Shift>}{ArrowRight}{/Shift}', 45],
      ['{Shift>}{ArrowLeft}{/Shift}', 15],
      ['{ArrowLeft}', 10],
      ['j', 0],
    ];
    for (const [keys, at] of skips) {
      await user.keyboard(keys);
      expect(audio.currentTime, keys).toBe(at);
    }

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
    expect(fakeMedia().play).toHaveBeenCalled();
    await user.keyboard('{ArrowUp}');
    expect(audio.currentTime).toBe(5);
    const transcript = screen.getByRole('region', { name: /Transcript/ });
    await vi.waitFor(() =>
      expect(within(transcript).getByRole('listitem', { current: true })).toHaveAttribute('aria-posinset', '2'),
    );
  });

  it('leaves the scrolling keys to the side panel when it has the focus', async () => {
    const { user, audio } = await openCall();
    const details = screen.getByRole('tabpanel', { name: 'Details' });
    details.focus();

    await user.keyboard('{ArrowDown}{PageDown}{ArrowUp} ');

    expect(details).toHaveFocus();
    expect(audio.currentTime).toBe(0);
    expect(fakeMedia().play).not.toHaveBeenCalled();
    // Elsewhere on the page the same key steps through the transcript again.
    details.blur();
    await user.keyboard('{ArrowDown}');
    expect(audio.currentTime).toBe(1);
  });

  it('jumps to the flagged slow reply with N, and back with P', async () => {
    const { user, audio } = await openCall();

    await user.keyboard('n');
    // The caller's "Hi." ends at 5.4 s; the reply starts at 9 s.
    expect(audio.currentTime).toBeCloseTo(5.4, 5);
    expect(fakeMedia().play).toHaveBeenCalledTimes(1);
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
    [
      'the slow-reply threshold',
      async () => {
        await showSideTab('Timing');
        return screen.findByRole('spinbutton', { name: 'Flag replies slower than' });
      },
    ],
  ])('does nothing while typing in %s', async (_, field) => {
    const { user, audio } = await openCall();
    const target = await field();
    await user.click(target);

    await user.keyboard(' kjlnp[[]/?{ArrowRight}{ArrowLeft}{Shift>}{ArrowRight}{/Shift}{ArrowDown}');

    expect(target).toHaveFocus();
    expect(fakeMedia().play).not.toHaveBeenCalled();
    expect(fakeMedia().pause).not.toHaveBeenCalled();
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
    expect(fakeMedia().play).toHaveBeenCalledTimes(1);
    expect(fakeMedia().pause).not.toHaveBeenCalled();
    await user.keyboard('{ArrowRight}');
    expect(audio.currentTime).toBe(5);
  });
});

describe('Calls view keyboard: the shortcut sheet', () => {
  it('opens with ?, lists every shortcut, closes with Escape', async () => {
    const { user } = await openCall();

    await user.keyboard('?');

    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const rows = within(sheet).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual(
      SHORTCUTS.map((s) => s.description),
    );
    expect(rows[0]).toHaveTextContent(/^Space or K\s*Play or pause$/);
    const actionOfKey = (key: string) =>
      rows.map((row) => within(row).getAllByRole('cell')).find(([keys]) => keys?.textContent === key)?.[1];
    expect(actionOfKey('A')).toHaveTextContent('Loop: set A, then B; again: clear');
    expect(actionOfKey('S')).toHaveTextContent('Skip silences on or off');
    // While it is open, the view's keys are the dialog's: nothing plays.
    await user.keyboard('k');
    expect(fakeMedia().play).not.toHaveBeenCalled();

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

describe('Calls view keyboard: the A–B loop and skipping silences', () => {
  it('sets A, then B with the loop key; playback at B goes back to A; a third press clears', async () => {
    const { user, audio, recording } = await openCall();
    await user.keyboard(' ');
    advanceTo(audio, 21);

    await user.keyboard('a');
    expect(within(recording).getByText('Loop from 0:21: press A again at its end')).toBeVisible();
    advanceTo(audio, 29);
    await user.keyboard('a');

    expect(within(recording).getByText('Looping 0:21–0:29')).toBeVisible();
    // Setting B goes back to A at once; playing on from there to B goes back again.
    expect(audio.currentTime).toBe(21);
    for (const at of [24, 26.5, 28.8, 29.1]) advanceTo(audio, at);
    expect(audio.currentTime).toBe(21);

    await user.keyboard('a');
    expect(within(recording).queryByText(/Looping/)).not.toBeInTheDocument();
    for (const at of [24, 26.5, 28.8, 29.1]) advanceTo(audio, at);
    expect(audio.currentTime).toBe(29.1);
  });

  it('Clear ends the loop', async () => {
    const { user, audio, recording } = await openCall();
    await user.keyboard(' ');
    advanceTo(audio, 21);
    await user.keyboard('a');
    advanceTo(audio, 29);
    await user.keyboard('a');

    await user.click(within(recording).getByRole('button', { name: 'Clear' }));

    expect(within(recording).queryByText(/Looping/)).not.toBeInTheDocument();
    for (const at of [24, 26.5, 28.8, 29.1]) advanceTo(audio, at);
    expect(audio.currentTime).toBe(29.1);
  });

  it('turns skipping silences on and off with S, said by the toggle', async () => {
    const { user, recording } = await openCall();
    const toggle = within(recording).getByRole('button', { name: 'Skip silences' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await user.keyboard('s');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard('s');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });
});
