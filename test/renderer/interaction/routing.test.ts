/**
 * The phone routing cross-check in the Calls view (Root -> App -> CallsView ->
 * CallReview -> RoutingPanel) over a fake `window.api`: the call's number is looked up in the
 * workspace's phones and webhooks once the call is shown, and a link opens the phone in its screen.
 */
import '@testing-library/svelte/vitest';
import { screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { Phone } from '$shared/domain';
import { demoSession, fail, interaction, ok, webhook } from '../fake-api';
import { renderWorkspace } from '../render-app';
import { showSideTab } from './review-fixtures';

vi.mock('wavesurfer.js', async () => (await import('../fake-wavesurfer')).wavesurferModule);

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const CALL_AGENT = 'agent_00000000-0000-4000-8000-00000000000a';
const OTHER_AGENT = 'agent_00000000-0000-4000-8000-00000000000b';

const phone: Phone = {
  sid: 'phone_1',
  name: 'Front desk',
  number: '+14155550199',
  sipTrunk: null,
  createdAt: null,
  updatedAt: null,
  inboundAgentId: OTHER_AGENT,
  outboundAgentId: null,
};
const hook = webhook();
const call = interaction({
  sid: SID,
  direction: 'inbound',
  fromNumber: '+14155550123',
  toNumber: '+14155550199',
  agentSid: CALL_AGENT,
});

async function showCall(replies: Parameters<typeof renderWorkspace>[1]) {
  const app = await renderWorkspace(demoSession('Sample Clinic (demo)'), { getInteraction: ok(call), ...replies });
  await app.user.click(screen.getByRole('textbox', { name: 'Interaction SID' }));
  await app.user.paste(SID);
  await app.user.click(screen.getByRole('button', { name: 'Show call' }));
  return app;
}

describe('Calls view: phone routing', () => {
  it('shows that the number the call came in on now routes to another agent, and opens the phone', async () => {
    const { fake, user } = await showCall({ listPhones: ok([phone]), getPhone: ok(phone), listWebhooks: ok([hook]) });
    await showSideTab('Routing');
    const panel = await screen.findByRole('region', { name: 'Phone routing' });
    expect(await within(panel).findByText(/This number now routes inbound calls to another agent/)).toBeInTheDocument();
    expect(within(panel).getByText('Front desk')).toBeInTheDocument();
    expect(within(panel).getByRole('list', { name: 'Webhooks tied to this phone' })).toHaveTextContent(
      'https://hooks.example.com/calls',
    );
    expect(fake.calls.listPhones).toHaveLength(1);

    await user.click(within(panel).getByRole('button', { name: 'Open phone' }));
    // The Phones screen comes forward with the phone open.
    const details = await screen.findByRole('region', { name: 'Phone details' });
    expect(await within(details).findByRole('heading', { name: 'Front desk' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Phones' })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps the call on screen when the phones cannot be loaded, with a retry in the panel', async () => {
    await showCall({
      listPhones: fail({
        kind: 'network',
        message: 'The service could not be reached. Check your connection and try again.',
      }),
      listWebhooks: ok([]),
    });
    await showSideTab('Routing');
    const panel = await screen.findByRole('region', { name: 'Phone routing' });
    expect(await within(panel).findByText('The phones or webhooks could not be loaded')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: /Retry|Try again/ })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Call' })).toBeInTheDocument();
  });
});
