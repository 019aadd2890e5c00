/**
 * The review queue in the call list, in jsdom with a fake `window.api`: each queued call shows
 * its review's verdict and tags, so a reviewer sees at a glance which calls were judged and how.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { demoSession, ok } from '../fake-api';
import { installFakeLayout, installFakeMedia } from '../fake-media';
import { renderWorkspace } from '../render-app';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

beforeEach(() => {
  installFakeMedia();
  installFakeLayout();
});

const JUDGED = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const WAITING = 'interaction_0b6a4c1e-8a9f-4d2b-9c3e-5f1a2b3c4d5e';

describe('review queue', () => {
  it("shows a queued call's verdict and tags, and nothing for a call not reviewed yet", async () => {
    const { fake } = await renderWorkspace(demoSession(), {
      getQueue: ok([
        { sid: JUDGED, reviewed: true, addedAtMs: 1 },
        { sid: WAITING, reviewed: false, addedAtMs: 2 },
      ]),
      reviewSummaries: ok({
        [JUDGED.toLowerCase()]: { verdict: 'fail', tags: ['refund', 'escalated'], noteCount: 2, scorePercent: 40 },
      }),
    });
    const queue = await screen.findByRole('region', { name: 'Queue' });
    const [judged, waiting] = within(queue).getAllByRole('button', { name: /^Open call/ });
    await vi.waitFor(() => expect(judged).toHaveTextContent(/Fail\s*refund\s*escalated/));
    expect(waiting).not.toHaveTextContent(/Fail|Pass|Needs work/);
    expect(fake.calls.reviewSummaries.at(-1)?.[0]).toMatchObject({ sids: [JUDGED, WAITING] });
  });
});
