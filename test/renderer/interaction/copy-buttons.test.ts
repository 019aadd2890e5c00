/**
 * Copy buttons of the Calls view, over a fake `window.api` and user-event's clipboard
 * stand-in: the SID beside the call's details, and a link to the call at the current playback
 * time that names the workspace (read back with the app's own link parser). Also CopyButton's
 * own "Copied" and "Copy failed" feedback.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { parseInteractionLink } from '$shared/deep-link';
import CopyButton from '../../../renderer/src/lib/ui/CopyButton.svelte';
import { demoSession, fail, ok } from '../fake-api';
import { advanceTo, loadMetadata, mediaElement } from '../fake-media';
import { SID, slowReplyCall, useFakePlayer } from './review-fixtures';
import { renderWorkspace } from '../render-app';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

useFakePlayer();
const WORKSPACE = 'Sample Clinic (demo)';

async function showCall() {
  const view = await renderWorkspace(demoSession(WORKSPACE), {
    getInteraction: ok(slowReplyCall),
    getPeaks: fail({ kind: 'invalid_response', message: 'The recording could not be decoded.' }),
  });
  await view.user.type(screen.getByRole('textbox', { name: 'Interaction SID' }), SID);
  await view.user.click(screen.getByRole('button', { name: 'Show call' }));
  await screen.findByRole('region', { name: 'Call details' });
  return view;
}

describe('copying from a call under review', () => {
  it('copies the SID from the call header, and says so', async () => {
    const { user } = await showCall();
    const details = screen.getByRole('region', { name: 'Call' });

    await user.click(within(details).getByRole('button', { name: 'Copy SID' }));

    await expect(navigator.clipboard.readText()).resolves.toBe(SID);
    expect(within(details).getByRole('button', { name: 'Copy SID' })).toHaveTextContent('Copied');
    expect(within(details).getByText('Copied to the clipboard')).toBeInTheDocument();
  });

  it('copies a link to the call at the playback time, in this workspace', async () => {
    const { user } = await showCall();
    const media = mediaElement();
    loadMetadata(media, 120);
    advanceTo(media, 42.36);
    const header = screen.getByRole('region', { name: 'Call' });

    await user.click(within(header).getByRole('button', { name: 'Copy link at current time' }));

    const link = await navigator.clipboard.readText();
    expect(link).toBe(`voice-review://interactions/${SID}?t=42.4&workspace=${encodeURIComponent(WORKSPACE)}`);
    expect(parseInteractionLink(link)).toEqual({
      ok: true,
      link: { sid: SID, atSeconds: 42.4, workspaceName: WORKSPACE },
    });
  });
});

describe('CopyButton', () => {
  it('reads a value given as a function at the click', async () => {
    const user = userEvent.setup();
    let value = 'first';
    render(CopyButton, { props: { value: () => value, label: 'Copy it', text: 'Copy it now' } });
    expect(screen.getByRole('button', { name: 'Copy it' })).toHaveTextContent('Copy it now');

    value = 'second';
    await user.click(screen.getByRole('button', { name: 'Copy it' }));

    await expect(navigator.clipboard.readText()).resolves.toBe('second');
  });

  it('says "Copy failed" when the clipboard refuses or the value cannot be made', async () => {
    const user = userEvent.setup();
    render(CopyButton, {
      props: {
        value: () => {
          throw new RangeError('no link');
        },
        label: 'Copy link',
      },
    });

    await user.click(screen.getByRole('button', { name: 'Copy link' }));

    expect(screen.getByRole('button', { name: 'Copy link' })).toHaveTextContent('Copy failed');
    expect(screen.getByText('Could not copy')).toBeInTheDocument();
  });
});
