/**
 * Who speaks in a transcript entry, and the word a person reads for it. The screens, excerpts,
 * "Copy for ticket" and evidence packs say "Caller" and "Agent" whatever the server calls the
 * roles (spec 2 leaves `role` free-form: `user`, `customer`, `assistant`…); exported subtitle and
 * text files keep the role as the server sent it (transcript-export.ts).
 */
import { oneLine } from './transcript-export';

/** How a transcript entry's role is drawn: the agent, the caller, or an event (tool, system, other). */
export type SpeakerKind = 'agent' | 'user' | 'event';

const AGENT_ROLES = new Set(['agent', 'assistant']);
const USER_ROLES = new Set(['user', 'customer', 'caller']);

/**
 * The speaker behind a role: `agent`/`assistant` are the agent, `user`/`customer`/`caller` the
 * caller (case-insensitive, surrounding space ignored), anything else (tool, system, unknown
 * roles) an event.
 */
export function speakerKind(role: string): SpeakerKind {
  const key = role.trim().toLowerCase();
  if (AGENT_ROLES.has(key)) return 'agent';
  if (USER_ROLES.has(key)) return 'user';
  return 'event';
}

/**
 * The word a person reads for a role: "Caller" for every caller role, "Agent" for the agent's,
 * other roles on one line with `_`/`-` as spaces and a capital first letter ("tool_call" →
 * "Tool call"), and "Unknown" for an empty role.
 */
export function roleWord(role: string): string {
  const kind = speakerKind(role);
  if (kind === 'user') return 'Caller';
  if (kind === 'agent') return 'Agent';
  const words = oneLine(role).replace(/[_-]+/g, ' ').trim();
  return words === '' ? 'Unknown' : words.charAt(0).toUpperCase() + words.slice(1);
}
