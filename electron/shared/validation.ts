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

/** Most characters in a workspace name, after trimming. */
export const MAX_WORKSPACE_NAME_LENGTH = 200;

/**
 * Characters a workspace name may not hold: controls (line breaks and tabs included), format
 * characters (bidi controls such as U+202E, zero-width characters, the byte order mark), line and
 * paragraph separators, and lone surrogates. They are invisible or move other text, so a name
 * holding one could look like another workspace's in the switcher, a menu or an export.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * Why a workspace name is refused, or null when it is fine: empty (unless `allowEmpty`, for the
 * Connect form, where the host name is used instead), longer than
 * {@link MAX_WORKSPACE_NAME_LENGTH} characters after trimming, or holding a character that is
 * not printable (the message names its code point, e.g. U+202E).
 */
export function workspaceNameProblem(name: string, { allowEmpty = false } = {}): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return allowEmpty ? null : 'Enter a name, e.g. Production or Staging.';
  if (trimmed.length > MAX_WORKSPACE_NAME_LENGTH) return `Use at most ${MAX_WORKSPACE_NAME_LENGTH} characters.`;
  const bad = UNPRINTABLE.exec(trimmed)?.[0];
  if (bad !== undefined) {
    const code = (bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return `Use only printable characters: the name holds an invisible or control character (U+${code}), such as a line break, a zero-width space or a text-direction mark. Type the name again.`;
  }
  return null;
}

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
