/**
 * Input rules shared by the forms (renderer) and the handlers (main), so both refuse the same
 * values with the same words before any request is made.
 */
import { isSid } from './sid';

/**
 * Limits of the request timeout preference, in seconds: the Settings form and main's handler and
 * settings loader refuse the same values; `default` applies to a new install and to API clients
 * built without a preference.
 */
export const REQUEST_TIMEOUT_SECONDS = { min: 3, max: 120, default: 15 } as const;

/** E.164: `+`, a country code not starting with 0, at most 15 digits (spec 2 "Phone.number"). */
export function isE164(value: string): boolean {
  return /^\+[1-9]\d{1,14}$/.test(value);
}

/** Message for a value that is not E.164. */
export const E164_HINT = 'Enter the number in E.164 form: + and country code, digits only (e.g. +14155550123).';

/** Why an agent SID is refused, or null when it has the `agent_<uuid>` shape (spec 2). */
export function agentSidProblem(value: string): string | null {
  return isSid('agent', value.trim())
    ? null
    : 'Agent SIDs look like agent_ followed by a UUID, e.g. agent_3f2b9c1e-8d4a-4e6b-9a0f-1c2d3e4f5a6b.';
}

/**
 * Why a termination URI is refused, or null when it is acceptable: a `sip:` or `sips:` URI
 * (`sip:host[:port]`, optionally `user@host`, with `;params`), or a bare host[:port].
 * Spec 2 only says "URI used for trunk termination"; this is the app's rule.
 */
export function terminationUriProblem(value: string): string | null {
  const v = value.trim();
  if (v === '') return 'Enter the termination URI, e.g. sip:pbx.example.com or pbx.example.com:5060.';
  const host =
    '(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\\d{1,3}(?:\\.\\d{1,3}){3}|\\[[0-9A-Fa-f:.]+\\])';
  const port = '(?::(?:6553[0-5]|655[0-2]\\d|65[0-4]\\d{2}|6[0-4]\\d{3}|[1-5]\\d{4}|[1-9]\\d{0,3}))?';
  const sipUri = new RegExp(`^sips?:(?:[^@\\s;]+@)?${host}${port}(?:;[^\\s]*)?$`, 'i');
  const bare = new RegExp(`^${host}${port}$`);
  if (sipUri.test(v) || bare.test(v)) return null;
  return 'Use a sip: or sips: URI (sip:pbx.example.com:5060) or a host with an optional port (pbx.example.com:5060).';
}
