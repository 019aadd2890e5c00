/**
 * The phone routing cross-check of a call, pure: the phone record of the number the call came in
 * on (inbound: `to_number`) or went out from (outbound: `from_number`), its current agent for that
 * direction compared with the call's `agent_sid`, its SIP trunk, and the webhooks tied to that
 * phone (spec 2 "Interaction", "Phone", "Webhook"). A call of another or unknown direction is
 * matched on either number, the `to_number` first, and its agent is compared with neither.
 */
import type { Interaction, Phone, PhoneSipTrunk, Webhook } from '$shared/domain';

/** How the phone's current agent compares with the call's. */
export type AgentComparison =
  /** The phone still routes this direction to the call's agent. */
  | 'same'
  /** The phone now routes this direction to another agent. */
  | 'other'
  /** The phone has no agent for this direction now. */
  | 'none'
  /** Cannot tell: the call's direction or agent is not known. */
  | 'unknown';

/** A webhook tied to the phone, with whether it sends the call-ended notification. */
export interface RoutingWebhook {
  webhook: Webhook;
  /** False when the webhook's `call_ended_event` is off (no notification when such a call ends). */
  callEnded: boolean;
}

/** The result of {@link routingCheck}. */
export interface RoutingCheck {
  /** The number looked for (E.164 as the call gave it), or null when the call has none. */
  number: string | null;
  /** `inbound` or `outbound` when the direction said which number to use; null otherwise. */
  side: 'inbound' | 'outbound' | null;
  /** The account's phone of that number, or null when there is no record of it. */
  phone: Phone | null;
  /** The phone's current agent for the call's direction (null when none or no phone). */
  currentAgentId: string | null;
  agent: AgentComparison;
  /** The phone's SIP trunk, or null. */
  sipTrunk: PhoneSipTrunk | null;
  /** The webhooks tied to the phone (by phone SID or number), in list order. */
  webhooks: RoutingWebhook[];
}

/** The digits of an E.164 number with its `+`, so `+1 (415) 555-0123` matches `+14155550123`. */
export function normaliseNumber(number: string): string {
  return number.replace(/[^\d+]/g, '');
}

/** The phone whose number is `number`, or null. */
function phoneOf(phones: readonly Phone[], number: string | null): Phone | null {
  if (number === null || number.trim() === '') return null;
  const wanted = normaliseNumber(number);
  return phones.find((p) => normaliseNumber(p.number) === wanted) ?? null;
}

/** Whether `webhook` is tied to `phone` (its `phone_number` names the phone's SID or number). */
function tiedTo(webhook: Webhook, phone: Phone): boolean {
  const tie = webhook.phoneNumber;
  if (!tie) return false;
  if (tie.sid !== null && phone.sid !== null) return tie.sid === phone.sid;
  return tie.number !== null && normaliseNumber(tie.number) === normaliseNumber(phone.number);
}

/**
 * Cross-checks `interaction` against the account's `phones` and `webhooks` (see the file's
 * comment). Never throws; every gap is a value of the result.
 */
export function routingCheck(
  interaction: Pick<Interaction, 'direction' | 'fromNumber' | 'toNumber' | 'agentSid'>,
  phones: readonly Phone[],
  webhooks: readonly Webhook[],
): RoutingCheck {
  const direction = interaction.direction?.trim().toLowerCase();
  const side = direction === 'inbound' || direction === 'outbound' ? direction : null;
  let number: string | null;
  let phone: Phone | null;
  if (side === 'inbound') {
    number = interaction.toNumber;
    phone = phoneOf(phones, number);
  } else if (side === 'outbound') {
    number = interaction.fromNumber;
    phone = phoneOf(phones, number);
  } else {
    const byTo = phoneOf(phones, interaction.toNumber);
    phone = byTo ?? phoneOf(phones, interaction.fromNumber);
    number = byTo || !phone ? (interaction.toNumber ?? interaction.fromNumber) : interaction.fromNumber;
  }
  const currentAgentId =
    !phone || side === null ? null : side === 'inbound' ? phone.inboundAgentId : phone.outboundAgentId;
  return {
    number,
    side,
    phone,
    currentAgentId,
    agent: compareAgents(phone, side, currentAgentId, interaction.agentSid),
    sipTrunk: phone?.sipTrunk ?? null,
    webhooks: phone
      ? webhooks.filter((w) => tiedTo(w, phone)).map((webhook) => ({ webhook, callEnded: webhook.callEndedEvent }))
      : [],
  };
}

function compareAgents(
  phone: Phone | null,
  side: 'inbound' | 'outbound' | null,
  currentAgentId: string | null,
  callAgentId: string | null,
): AgentComparison {
  if (!phone || side === null || callAgentId === null) return 'unknown';
  if (currentAgentId === null) return 'none';
  return currentAgentId === callAgentId ? 'same' : 'other';
}
