/**
 * `voice-review://` links to a moment of a call, read by main (links from the OS) and by the
 * renderer (the "Open link…" dialog), written by the renderer ("Copy link at current time"):
 *
 *     voice-review://interactions/<interaction SID>?t=<seconds>&workspace=<workspace name>
 *
 * The reader is strict, because a link comes from anywhere (a ticket, a chat, a web page):
 * - the text is at most {@link MAX_LINK_LENGTH} characters of printable ASCII, without spaces
 *   (a pasted link is trimmed by the dialog, not here);
 * - the scheme is exactly `voice-review`, the host exactly `interactions`, with no user name,
 *   password or port, and no fragment (`#`);
 * - the path is exactly one segment, a well-formed interaction SID (spec 2 "Identifier shapes"),
 *   never percent-decoded, so `%2F` or `..` can never become part of a SID;
 * - `t` (optional) is a plain decimal number of seconds (digits, at most three decimals, no sign,
 *   exponent or hex), at most {@link MAX_LINK_SECONDS};
 * - `workspace` (optional) is a workspace name, percent-decoded once, 1 to
 *   {@link MAX_WORKSPACE_NAME_LENGTH} characters after trimming, without control or
 *   bidirectional-override characters;
 * - each parameter at most once; any other parameter is refused (not ignored): a link carrying
 *   something this version does not understand is better questioned than half-followed. A
 *   parameter whose name looks like a credential (`key`, `api_key`, `token`, `authorization`, …)
 *   gets its own refusal: a Voice Review link never carries a key.
 * Refusal messages never repeat the link or a parameter's value (it could hold a secret).
 */
import { isSid } from './sid';

/** The URL scheme the app registers with the OS. */
export const LINK_SCHEME = 'voice-review';

/** Longest link accepted, in characters. */
export const MAX_LINK_LENGTH = 2048;

/** Latest moment a link may point at, in seconds (24 hours: longer than any call). */
export const MAX_LINK_SECONDS = 24 * 60 * 60;

/** Longest workspace name a link may carry, in characters after trimming (as main's workspace names). */
export const MAX_WORKSPACE_NAME_LENGTH = 200;

/** What a valid link asks for. */
export interface InteractionLink {
  /** Interaction SID, `interaction_` + the UUID in lower case. */
  sid: string;
  /** Where to start playback, in seconds from the start of the recording; null when the link has no `t`. */
  atSeconds: number | null;
  /** The workspace the link names (trimmed), or null when it names none. */
  workspaceName: string | null;
}

/** The reader's verdict: the link, or a sentence telling a person what is wrong with it. */
export type LinkParseResult = { ok: true; link: InteractionLink } | { ok: false; message: string };

const PREFIX = `${LINK_SCHEME}://interactions/`;
const HELP = `A Voice Review link looks like ${PREFIX}interaction_<id>?t=42.`;
/** Printable ASCII without the space. */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
/** Seconds: digits, optionally a point and one to three digits. */
const SECONDS = /^\d{1,5}(?:\.\d{1,3})?$/;
/** Parameter names that look like a credential, in any letter case. */
const KEY_LIKE = /key|token|secret|passw|pwd|auth|bearer|credential|session|signature|^sig$/i;
/** C0/C1 controls, and the bidirectional overrides and isolates that reorder displayed text. */
const UNSAFE_NAME_CHARS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const refuse = (message: string): LinkParseResult => ({ ok: false, message });

/**
 * Reads a `voice-review://` link (see the module comment for every rule).
 * @param text the link as received, e.g. from the OS or pasted by a person
 * @returns the link, or `ok: false` with a message that names the problem and never repeats the text
 */
export function parseInteractionLink(text: unknown): LinkParseResult {
  if (typeof text !== 'string' || text === '') return refuse(`This is not a Voice Review link. ${HELP}`);
  if (text.length > MAX_LINK_LENGTH) {
    return refuse(`This link is too long (${MAX_LINK_LENGTH} characters at most). ${HELP}`);
  }
  if (!PRINTABLE_ASCII.test(text)) {
    return refuse(`This link contains spaces or characters a Voice Review link never has. ${HELP}`);
  }
  if (!text.startsWith(`${LINK_SCHEME}://`)) return refuse(`This is not a Voice Review link. ${HELP}`);
  if (text.includes('#')) return refuse(`This link has a "#" part, which Voice Review links never have. ${HELP}`);
  if (!text.startsWith(PREFIX)) {
    return refuse(`This link does not point at an interaction (voice-review://interactions/…). ${HELP}`);
  }
  const rest = text.slice(PREFIX.length);
  const queryAt = rest.indexOf('?');
  const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  if (!path.startsWith('interaction_') || !isSid('interaction', path)) {
    return refuse(`This link does not name a well-formed interaction SID. ${HELP}`);
  }
  const sid = `interaction_${path.slice('interaction_'.length).toLowerCase()}`;
  if (queryAt === -1) return { ok: true, link: { sid, atSeconds: null, workspaceName: null } };
  const params = readParameters(rest.slice(queryAt + 1));
  if (typeof params === 'string') return refuse(params);
  return readValues(sid, params);
}

/** The query's parameters by name, or a refusal message. Names and values are still encoded. */
function readParameters(query: string): Map<string, string> | string {
  const params = new Map<string, string>();
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    if (KEY_LIKE.test(safeDecode(name) ?? name)) {
      return 'This link carries something that looks like a key or password. A Voice Review link never carries a key: do not open it, and do not pass it on.';
    }
    if (name !== 't' && name !== 'workspace') {
      const shown = /^[A-Za-z0-9_-]{1,32}$/.test(name) ? ` ("${name}")` : '';
      return `This link has a parameter Voice Review does not know${shown}. ${HELP}`;
    }
    if (eq === -1) return `This link's "${name}" has no value. ${HELP}`;
    if (params.has(name)) return `This link gives "${name}" more than once. ${HELP}`;
    params.set(name, part.slice(eq + 1));
  }
  return params;
}

function readValues(sid: string, params: Map<string, string>): LinkParseResult {
  let atSeconds: number | null = null;
  const t = params.get('t');
  if (t !== undefined) {
    atSeconds = SECONDS.test(t) ? Number(t) : Number.NaN;
    if (!Number.isFinite(atSeconds) || atSeconds > MAX_LINK_SECONDS) {
      return refuse(
        `This link's time is not a number of seconds between 0 and ${MAX_LINK_SECONDS} (24 hours), e.g. t=222.5.`,
      );
    }
  }
  let workspaceName: string | null = null;
  const workspace = params.get('workspace');
  if (workspace !== undefined) {
    const decoded = safeDecode(workspace.replaceAll('+', ' '));
    const problem = decoded === null ? 'is not encoded correctly' : workspaceNameProblem(decoded);
    if (problem !== null || decoded === null) return refuse(`This link's workspace name ${problem ?? ''}.`);
    workspaceName = decoded.trim();
  }
  return { ok: true, link: { sid, atSeconds, workspaceName } };
}

/** Why a workspace name cannot travel in a link (the end of a sentence), or null. */
function workspaceNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'is empty';
  if (trimmed.length > MAX_WORKSPACE_NAME_LENGTH)
    return `is too long (${MAX_WORKSPACE_NAME_LENGTH} characters at most)`;
  if (UNSAFE_NAME_CHARS.test(trimmed)) return 'contains control characters';
  return null;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * Writes the link to call `sid` at `atSeconds`, in workspace `workspaceName`; the result is read
 * back by {@link parseInteractionLink} as the same SID, time (rounded to milliseconds) and name.
 * @param sid an interaction SID (`interaction_` + UUID)
 * @param atSeconds seconds from the start of the recording (0 to {@link MAX_LINK_SECONDS}), or null for none
 * @param workspaceName the workspace's name, or null to leave it out
 * @throws RangeError when the SID, the time or the name could not be read back from a link
 */
export function formatInteractionLink(
  sid: string,
  atSeconds: number | null = null,
  workspaceName: string | null = null,
): string {
  if (!sid.startsWith('interaction_') || !isSid('interaction', sid)) {
    throw new RangeError('A link needs a well-formed interaction SID.');
  }
  const params: string[] = [];
  if (atSeconds !== null) {
    if (!Number.isFinite(atSeconds) || atSeconds < 0 || atSeconds > MAX_LINK_SECONDS) {
      throw new RangeError(`A link's time must be between 0 and ${MAX_LINK_SECONDS} seconds.`);
    }
    params.push(`t=${String(Number(atSeconds.toFixed(3)))}`);
  }
  if (workspaceName !== null) {
    const problem = workspaceNameProblem(workspaceName);
    if (problem !== null) throw new RangeError(`The workspace name ${problem}.`);
    params.push(`workspace=${encodeURIComponent(workspaceName.trim())}`);
  }
  const query = params.length > 0 ? `?${params.join('&')}` : '';
  return `${PREFIX}interaction_${sid.slice('interaction_'.length).toLowerCase()}${query}`;
}
