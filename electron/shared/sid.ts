/**
 * SID shapes (spec 2 "Identifier shapes"): a type prefix, an underscore and a UUID.
 */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** What a user sees when their input holds no SID. */
export const INTERACTION_SID_HINT =
  'An interaction SID looks like interaction_ followed by a UUID, e.g. interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427.';

/**
 * Finds an interaction SID in pasted text: a bare SID, a URL, a ticket line.
 * Returns the SID with its UUID lower-cased, or null when the text holds none.
 * (Spec 2: `interaction_` + UUID.)
 */
export function extractInteractionSid(text: string): string | null {
  const match = new RegExp(`interaction_(${UUID})(?![0-9a-f])`, 'i').exec(text);
  if (!match || match[1] === undefined) return null;
  return `interaction_${match[1].toLowerCase()}`;
}

/**
 * Every interaction SID in pasted text (a ticket's text, several links, a list), in the order they
 * first appear, once each, UUIDs lower-cased; empty when the text holds none. (Spec 2.)
 */
export function extractInteractionSids(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(new RegExp(`interaction_(${UUID})(?![0-9a-f])`, 'gi'))) {
    if (match[1] !== undefined) found.add(`interaction_${match[1].toLowerCase()}`);
  }
  return [...found];
}

/** True when `value` is exactly `<prefix>_<uuid>` (e.g. `isSid('agent', x)` for agent SIDs). */
export function isSid(prefix: 'interaction' | 'agent' | 'phone' | 'sip', value: string): boolean {
  return new RegExp(`^${prefix}_${UUID}$`, 'i').test(value);
}
