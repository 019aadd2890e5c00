/**
 * The phone edit form as data (spec 4 endpoint 4): its fields, what was typed, which fields
 * changed, and what is wrong with them. Only changed fields are sent (spec: what an omitted
 * field means is not shown).
 */
import type { HTMLInputAttributes } from 'svelte/elements';
import type { Phone, PhoneUpdate } from '$shared/domain';
import { agentSidProblem } from '$shared/validation';

/** The editable fields of a phone. */
type PhoneField = keyof Required<PhoneUpdate>;

/** What is typed in each field. */
export type PhoneDraft = Record<PhoneField, string>;

const AGENT_INPUT: HTMLInputAttributes = { spellcheck: 'false', placeholder: 'agent_…' };

/** The form's fields in order: label, hint and input attributes. */
export const PHONE_FIELDS: readonly { key: PhoneField; label: string; help: string; input: HTMLInputAttributes }[] = [
  { key: 'name', label: 'Name', help: 'Shown in lists and on webhooks.', input: { maxlength: 200 } },
  {
    key: 'inboundAgentId',
    label: 'Inbound agent SID',
    help: 'Agent that answers calls to this number.',
    input: AGENT_INPUT,
  },
  {
    key: 'outboundAgentId',
    label: 'Outbound agent SID',
    help: 'Agent that places calls from this number.',
    input: AGENT_INPUT,
  },
];

/** The form filled from the server's version of `phone`. */
export function phoneDraft(phone: Phone): PhoneDraft {
  return {
    name: phone.name ?? '',
    inboundAgentId: phone.inboundAgentId ?? '',
    outboundAgentId: phone.outboundAgentId ?? '',
  };
}

/** The fields of `draft` (trimmed) that differ from `from`: what a save sends. */
export function phoneChanges(draft: PhoneDraft, from: Phone): PhoneUpdate {
  const update: PhoneUpdate = {};
  for (const { key } of PHONE_FIELDS) {
    const value = draft[key].trim();
    if (value !== (from[key] ?? '')) update[key] = value;
  }
  return update;
}

const UNASSIGN =
  'The service interface has no documented way to unassign an agent; enter another agent SID or keep the current one.';

/** What is wrong with each changed field of `update` (null when fine or unchanged). */
export function phoneProblems(update: PhoneUpdate): Record<PhoneField, string | null> {
  const agent = (value: string | undefined) =>
    value === undefined ? null : value === '' ? UNASSIGN : agentSidProblem(value);
  return {
    name: update.name === '' ? 'Enter a name for the phone.' : null,
    inboundAgentId: agent(update.inboundAgentId),
    outboundAgentId: agent(update.outboundAgentId),
  };
}
