/**
 * What phones, SIP trunks and webhooks are called on screen. The service may send a missing or
 * empty name (or URL), so each has a fallback that a person can still see and tell apart.
 */
import type { Phone, SipTrunk, Webhook } from '$shared/domain';
import { formatE164 } from '../format';

/** The name if it has any visible character, else null. */
function given(name: string | null | undefined): string | null {
  return name !== null && name !== undefined && name.trim() !== '' ? name : null;
}

/** A phone for people, never empty: its name, or "Unnamed phone" and the formatted number. */
export function phoneLabel(phone: Phone): string {
  return given(phone.name) ?? `Unnamed phone ${formatE164(phone.number)}`;
}

/** A SIP trunk for people, never empty: its name, or "Unnamed SIP trunk" and its URI or SID. */
export function sipTrunkLabel(trunk: SipTrunk): string {
  return given(trunk.name) ?? `Unnamed SIP trunk ${given(trunk.terminationUri) ?? trunk.sid}`;
}

/** A webhook for people, never empty: its URL, or its SID when it has none. */
export function webhookLabel(hook: Webhook): string {
  return given(hook.url) ?? hook.sid;
}

/**
 * The phones a filter and sort choice show: a phone matches when its name, number or an agent
 * SID contains the filter (case-insensitive); sorted by name (then number) or by number.
 */
export function filterPhones(phones: readonly Phone[], filter: string, sortBy: 'name' | 'number'): Phone[] {
  const needle = filter.trim().toLowerCase();
  const list = phones.filter(
    (p) =>
      needle === '' ||
      [p.name, p.number, p.inboundAgentId, p.outboundAgentId].some((v) => v?.toLowerCase().includes(needle)),
  );
  return list.sort((a, b) =>
    sortBy === 'number'
      ? a.number.localeCompare(b.number)
      : (a.name ?? '').localeCompare(b.name ?? '') || a.number.localeCompare(b.number),
  );
}
