/**
 * The review panel (the side panel's Review tab), in jsdom with a fake `window.api`: M brings it
 * forward with the cursor in a new note, and a note being typed survives a tab switch; a note's text survives a
 * failed save on screen with the reason and a way to try again, and is saved once it can be; a
 * verdict is sent once however fast it is clicked twice; a review is deleted only after a
 * confirmation, and Undo brings it back.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReviewRecord } from '$shared/reviews';
import { deferred, demoSession, fail, interaction, ok } from '../fake-api';
import { installFakeLayout, installFakeMedia } from '../fake-media';
import { renderWorkspace } from '../render-app';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

beforeEach(() => {
  installFakeMedia();
  installFakeLayout();
});

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

function record(overrides: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
    workspaceId: 'ws-demo',
    sid: SID,
    verdict: 'none',
    scores: {},
    rubricVersion: null,
    scorePercent: null,
    tags: [],
    ticket: null,
    callStartedAtMs: 1,
    notes: [],
    createdAtMs: 1,
    updatedAtMs: 1,
    ...overrides,
  };
}

async function showCall(replies: Parameters<typeof renderWorkspace>[1]) {
  const rendered = await renderWorkspace(demoSession(), {
    getInteraction: ok(interaction({ sid: SID, direction: 'inbound' })),
    ...replies,
  });
  await rendered.user.click(screen.getByRole('textbox', { name: 'Interaction SID' }));
  await rendered.user.paste(SID);
  await rendered.user.click(screen.getByRole('button', { name: 'Show call' }));
  // The review is the side panel's Review tab.
  await rendered.user.click(await screen.findByRole('tab', { name: 'Review' }));
  const panel = await screen.findByRole('region', { name: 'Review' });
  await within(panel).findByRole('group', { name: 'Verdict' });
  return { ...rendered, panel };
}

describe('Review panel', () => {
  it('keeps a note whose save failed, says why, and saves it on Try again', async () => {
    const { fake, user, panel } = await showCall({
      addReviewNote: fail({ kind: 'storage', message: 'The disk is full: the review was not saved.' }),
    });
    await user.click(within(panel).getByRole('button', { name: 'Add note at playback time (M)' }));
    const box = within(panel).getByRole('textbox', { name: 'Note at 0:00' });
    expect(box).toHaveFocus();
    await user.type(box, 'Caller read out a card number');
    await user.tab();
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'Not saved: The disk is full: the review was not saved. Your text is kept.',
    );
    expect(box).toHaveValue('Caller read out a card number');

    const note = {
      id: '0b6c2f1e-9a44-4a5e-8f3b-4b3a2c1d0e9f',
      sid: SID,
      startSeconds: 0,
      endSeconds: null,
      text: 'Caller read out a card number',
      createdAtMs: 2,
      updatedAtMs: 2,
    };
    fake.reply('addReviewNote', ok({ note, record: record({ notes: [note] }) }));
    await user.click(within(panel).getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(within(panel).getByText('Saved')).toBeInTheDocument());
    expect(fake.calls.addReviewNote.map(([input]) => input.text)).toEqual([
      'Caller read out a card number',
      'Caller read out a card number',
    ]);
  });

  it('brings the Review tab forward on M, and keeps a note being typed while another tab is shown', async () => {
    const answer = deferred<{ note: ReviewRecord['notes'][number]; record: ReviewRecord }>();
    const { user } = await showCall({ addReviewNote: answer });
    await user.click(screen.getByRole('tab', { name: 'Details' }));
    expect(screen.getByRole('region', { name: 'Review', hidden: true })).not.toBeVisible();

    await user.keyboard('m');
    const panel = screen.getByRole('region', { name: 'Review' });
    expect(screen.getByRole('tab', { name: 'Review' })).toHaveAttribute('aria-selected', 'true');
    const box = within(panel).getByRole('textbox', { name: 'Note at 0:00' });
    expect(box).toHaveFocus();
    await user.type(box, 'Agent talked over the caller');

    // Another tab and back: the words are still there.
    await user.click(screen.getByRole('tab', { name: 'Timing' }));
    await user.click(screen.getByRole('tab', { name: 'Review' }));
    expect(within(panel).getByRole('textbox', { name: 'Note at 0:00' })).toHaveValue('Agent talked over the caller');
  });

  it('sends a verdict once, however fast it is clicked', async () => {
    const answer = deferred<ReviewRecord>();
    const { fake, user, panel } = await showCall({ setReviewVerdict: answer });
    await user.click(within(panel).getByRole('radio', { name: 'Fail' }));
    await user.click(within(panel).getByRole('radio', { name: 'Pass' }));
    answer.resolve(record({ verdict: 'fail' }));
    await vi.waitFor(() => expect(within(panel).getByRole('radio', { name: 'Fail' })).toBeChecked());
    expect(fake.calls.setReviewVerdict).toHaveLength(1);
    expect(fake.calls.setReviewVerdict[0]?.[0]).toMatchObject({ workspaceId: 'ws-demo', sid: SID, verdict: 'fail' });
  });

  it('deletes a review after a confirmation, and Undo brings it back', async () => {
    const kept = record({ verdict: 'fail', tags: ['billing'] });
    const { fake, user, panel } = await showCall({
      getReview: ok(kept),
      deleteReview: ok(true),
      restoreReview: ok(kept),
    });
    const tags = within(panel).getByRole('textbox', { name: /^Tags/ });
    await vi.waitFor(() => expect(tags).toHaveValue('billing'));
    await user.click(within(panel).getByRole('button', { name: 'Delete review…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the review of this call?' });
    expect(fake.calls.deleteReview).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete review' }));
    await vi.waitFor(() => expect(tags).toHaveValue(''));
    expect(fake.calls.deleteReview).toEqual([[{ workspaceId: 'ws-demo', sid: SID }]]);
    await user.click(within(panel).getByRole('button', { name: 'Undo' }));
    await vi.waitFor(() => expect(tags).toHaveValue('billing'));
    expect(fake.calls.restoreReview).toHaveLength(1);
    expect(fake.calls.setReviewTags).toEqual([]);
  });
});
