/**
 * The phone routing cross-check: the phone of the number the call came in on or went out from,
 * its current agent against the call's, its trunk and its webhooks (call-ended off noted).
 */
import { describe, expect, it } from 'vitest';
import type { Phone, Webhook } from '$shared/domain';
import { webhook as fakeWebhook } from '../fake-api';
import { routingCheck } from '../../../renderer/src/lib/interaction/routing-check';

const AGENT_A = 'agent_00000000-0000-4000-8000-00000000000a';
const AGENT_B = 'agent_00000000-0000-4000-8000-00000000000b';

const phone = (over: Partial<Phone> = {}): Phone => ({
  sid: 'phone_00000000-0000-4000-8000-000000000001',
  name: 'Front desk',
  number: '+14155550199',
  sipTrunk: { sid: 'sip_00000000-0000-4000-8000-000000000001', name: 'Main trunk', system: false },
  createdAt: null,
  updatedAt: null,
  inboundAgentId: AGENT_A,
  outboundAgentId: AGENT_B,
  ...over,
});

const webhook = (over: Partial<Webhook> = {}): Webhook =>
  fakeWebhook({
    phoneNumber: { sid: 'phone_00000000-0000-4000-8000-000000000001', number: '+14155550199', name: 'Front desk' },
    ...over,
  });

const inbound = { direction: 'inbound', fromNumber: '+14155550123', toNumber: '+14155550199', agentSid: AGENT_A };

describe('routing cross-check', () => {
  it('same agent: the inbound call’s number still routes to its agent; trunk and webhooks shown', () => {
    const hooks = [webhook(), webhook({ sid: 'wh_other', phoneNumber: { sid: 'phone_x', number: '+1', name: null } })];
    const check = routingCheck(inbound, [phone()], hooks);
    expect(check).toMatchObject({ number: '+14155550199', side: 'inbound', agent: 'same', currentAgentId: AGENT_A });
    expect(check.sipTrunk?.name).toBe('Main trunk');
    expect(check.webhooks.map((w) => [w.webhook.sid, w.callEnded])).toEqual([['wh_1', true]]);
  });

  it('other agent: the number now routes to another agent; an outbound call uses the from number', () => {
    expect(routingCheck({ ...inbound, agentSid: AGENT_B }, [phone()], []).agent).toBe('other');
    const outbound = { ...inbound, direction: 'outbound', fromNumber: '+1 (415) 555-0199', toNumber: '+33100000000' };
    const check = routingCheck({ ...outbound, agentSid: AGENT_B }, [phone()], []);
    expect(check).toMatchObject({ side: 'outbound', agent: 'same', currentAgentId: AGENT_B });
    expect(check.phone?.name).toBe('Front desk');
    expect(routingCheck(outbound, [phone({ outboundAgentId: null })], []).agent).toBe('none');
  });

  it('no phone record: the number is named, nothing else claimed', () => {
    const check = routingCheck(inbound, [phone({ number: '+442000000000' })], [webhook()]);
    expect(check).toMatchObject({
      number: '+14155550199',
      phone: null,
      agent: 'unknown',
      sipTrunk: null,
      webhooks: [],
    });
  });

  it('no webhook: none tied to the phone; a tied one with call-ended off is noted', () => {
    expect(routingCheck(inbound, [phone()], [webhook({ phoneNumber: null })]).webhooks).toEqual([]);
    const off = routingCheck(inbound, [phone()], [webhook({ callEndedEvent: false })]);
    expect(off.webhooks.map((w) => w.callEnded)).toEqual([false]);
    const byNumber = webhook({ phoneNumber: { sid: null, number: '+14155550199', name: null } });
    expect(routingCheck(inbound, [phone({ sid: null })], [byNumber]).webhooks).toHaveLength(1);
  });

  it('an unknown direction matches either number and compares no agent', () => {
    const check = routingCheck({ ...inbound, direction: null }, [phone({ number: '+14155550123' })], []);
    expect(check).toMatchObject({ number: '+14155550123', side: null, agent: 'unknown' });
    expect(check.phone?.number).toBe('+14155550123');
  });
});
