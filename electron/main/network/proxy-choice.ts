/**
 * Which proxy a request of main goes through: parsing Chromium's answer for a URL (the PAC-style
 * list `session.resolveProxy` returns, which covers system settings, PAC and WPAD) and, where
 * Electron gives no answer, the proxy environment variables as Node and curl read them.
 *
 * Pure: no I/O. {@link ProxyResolver} (proxy-resolver.ts) asks Electron and falls back to these.
 */
import ipaddr from 'ipaddr.js';

/** User name and password for a proxy's Basic sign-in (RFC 7617). Never logged. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** Where a choice came from: Chromium (system settings, PAC, WPAD), the environment, or neither. */
export type ProxySource = 'system' | 'environment' | 'default';

/** How one URL is reached. */
export type ProxyChoice =
  | {
      kind: 'direct';
      source: ProxySource;
      /** Why, in words for Diagnostics ("NO_PROXY lists .corp.example"). */
      reason: string;
    }
  | {
      kind: 'proxy';
      source: ProxySource;
      /** The proxy's origin without credentials: `http://proxy.corp:3128` or `https://proxy.corp:443`. */
      proxyUrl: string;
      /** Credentials the proxy URL carried (`http://user:pass@host:port`), decoded; null when none. */
      credentials: BasicCredentials | null;
      reason: string;
    }
  | {
      /** The only way out named is one Voice Review cannot use (SOCKS, QUIC). */
      kind: 'unsupported';
      source: ProxySource;
      /** The scheme as named: `SOCKS5`, `socks5:`, `QUIC`. */
      scheme: string;
      /** A sentence naming the scheme and what IT can do. */
      message: string;
    };

/** One entry of a PAC-style answer: `DIRECT`, or a type with its `host:port`. */
export interface PacEntry {
  /** Upper-cased type: `DIRECT`, `PROXY`, `HTTPS`, `SOCKS`, `SOCKS4`, `SOCKS5`, `QUIC`, or anything else named. */
  type: string;
  /** Host (IPv6 without brackets) and port; absent for DIRECT. */
  host?: string;
  port?: number;
}

/** Entry types Voice Review sends through (an HTTP or HTTPS forward proxy, CONNECT for https). */
const USABLE_TYPES = new Set(['DIRECT', 'PROXY', 'HTTPS']);

/**
 * Parses a PAC-style answer (`"PROXY a:1; DIRECT"`, `"HTTPS b:2"`, `"SOCKS5 c:1080"`) into its
 * entries, in order. Empty entries are skipped; an entry whose `host:port` cannot be read is kept
 * with its type only, so the choice can still name it.
 */
export function parsePacAnswer(answer: string): PacEntry[] {
  const entries: PacEntry[] = [];
  for (const raw of answer.split(';')) {
    const [typeWord, address] = raw.trim().split(/\s+/, 2);
    if (!typeWord) continue;
    const type = typeWord.toUpperCase();
    if (type === 'DIRECT' || address === undefined) {
      entries.push({ type });
      continue;
    }
    const hostPort = parseHostPort(address, type === 'HTTPS' ? 443 : type.startsWith('SOCKS') ? 1080 : 80);
    entries.push(hostPort ? { type, ...hostPort } : { type });
  }
  return entries;
}

/** `host:port`, `[v6]:port` or a bare host; null when unreadable. */
function parseHostPort(text: string, defaultPort: number): { host: string; port: number } | null {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(text);
  if (!match) return null;
  const host = (match[1] ?? match[2] ?? '').toLowerCase();
  const port = match[3] === undefined ? defaultPort : Number(match[3]);
  return host && port > 0 && port < 65536 ? { host, port } : null;
}

/**
 * The choice for a PAC-style answer from Chromium, or null when the answer names nothing (empty):
 * the first entry Voice Review can use (`PROXY`, `HTTPS`, `DIRECT`), in the answer's order.
 *
 * Chromium treats later entries as fallbacks the network's administrator allows, so an unusable
 * entry (SOCKS, QUIC) is skipped in favour of a later usable one, including `DIRECT`. When none is
 * usable the choice is `unsupported`: going direct instead would bypass the network's own egress.
 * A proxy that fails is not replaced by the next entry (one route per request, shown in Diagnostics).
 */
export function choiceFromPacAnswer(answer: string): ProxyChoice | null {
  const entries = parsePacAnswer(answer);
  if (entries.length === 0) return null;
  const usable = entries.find((e) => USABLE_TYPES.has(e.type) && (e.type === 'DIRECT' || e.host !== undefined));
  const skipped = entries.slice(0, usable ? entries.indexOf(usable) : entries.length).map((e) => e.type);
  const note = skipped.length > 0 ? ` (skipped ${skipped.join(', ')}, which Voice Review cannot use)` : '';
  if (usable?.type === 'DIRECT') {
    return { kind: 'direct', source: 'system', reason: `The system's proxy settings say DIRECT${note}.` };
  }
  if (usable?.host !== undefined && usable.port !== undefined) {
    const scheme = usable.type === 'HTTPS' ? 'https' : 'http';
    const proxyUrl = `${scheme}://${formatHost(usable.host)}:${usable.port}`;
    return {
      kind: 'proxy',
      source: 'system',
      proxyUrl,
      credentials: null,
      reason: `The system's proxy settings name ${usable.type} ${formatHost(usable.host)}:${usable.port}${note}.`,
    };
  }
  const scheme = entries.find((e) => !USABLE_TYPES.has(e.type))?.type ?? entries[0]?.type ?? 'unknown';
  return {
    kind: 'unsupported',
    source: 'system',
    scheme,
    message: unsupportedMessage(scheme, "The system's proxy settings send"),
  };
}

/** Why a SOCKS or other proxy cannot be used, and what IT can do; `whoSends` starts the sentence. */
function unsupportedMessage(scheme: string, whoSends: string): string {
  return (
    `${whoSends} Voice Review through a ${scheme} proxy, which it cannot use ` +
    '(it speaks to HTTP and HTTPS proxies only). Ask IT for an HTTP proxy address (PROXY host:port in the PAC file, ' +
    'or HTTPS_PROXY=http://host:port) that Voice Review may use.'
  );
}

/** A host for a URL: IPv6 literals get brackets. */
function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The environment variables read: a plain record (`process.env`), keys case-sensitive. */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

/** The first of `names` set to a non-empty value (after trimming). */
function envValue(env: ProxyEnvironment, ...names: string[]): { name: string; value: string } | null {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return null;
}

/**
 * The choice the proxy environment variables make for `url`, with Node's and curl's conventions:
 * - `https:` uses `https_proxy`, else `HTTPS_PROXY`, else the http proxy (as undici's
 *   EnvHttpProxyAgent does); `http:` uses `http_proxy`, else `HTTP_PROXY`. Lower case wins.
 * - `no_proxy` (else `NO_PROXY`) lists hosts to reach directly, see {@link noProxyMatch}.
 * - A proxy value without a scheme is `http://`; `https://` is an HTTPS proxy; credentials in it
 *   (`http://user:p%40ss@host:3128`) are decoded; `socks*://` is `unsupported`.
 * - Loopback hosts (`localhost`, `*.localhost`, 127/8, ::1) are always direct, as Chromium does.
 * A URL that cannot be parsed, or a scheme other than http/https, is direct.
 */
export function choiceFromEnvironment(url: string, env: ProxyEnvironment): ProxyChoice {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { kind: 'direct', source: 'default', reason: 'The address could not be read, so no proxy applies.' };
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    return { kind: 'direct', source: 'default', reason: `No proxy applies to ${target.protocol} addresses.` };
  }
  const host = bareHost(target.hostname);
  if (isLoopbackHost(host)) {
    return {
      kind: 'direct',
      source: 'default',
      reason: `${host} is this computer, which is never reached through a proxy.`,
    };
  }
  const http = envValue(env, 'http_proxy', 'HTTP_PROXY');
  const proxy = target.protocol === 'https:' ? (envValue(env, 'https_proxy', 'HTTPS_PROXY') ?? http) : http;
  if (!proxy) {
    return {
      kind: 'direct',
      source: 'default',
      reason: 'No proxy is set (neither the system nor HTTPS_PROXY/HTTP_PROXY).',
    };
  }
  const noProxy = envValue(env, 'no_proxy', 'NO_PROXY');
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  const bypass = noProxy ? noProxyMatch(host, port, noProxy.value) : null;
  if (bypass !== null) {
    return { kind: 'direct', source: 'environment', reason: `${noProxy?.name} lists ${bypass}.` };
  }
  return proxyFromEnvValue(proxy.name, proxy.value);
}

/** The choice for one proxy variable's value. */
function proxyFromEnvValue(name: string, value: string): ProxyChoice {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    return {
      kind: 'unsupported',
      source: 'environment',
      scheme: name,
      message: `${name} is set to something that is not a proxy address. Set it to http://host:port, or ask IT.`,
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      kind: 'unsupported',
      source: 'environment',
      scheme: parsed.protocol,
      message: unsupportedMessage(parsed.protocol.replace(/:$/, '').toUpperCase(), `${name} sends`),
    };
  }
  const credentials = parsed.username
    ? { username: safeDecode(parsed.username), password: safeDecode(parsed.password) }
    : null;
  const proxyUrl = `${parsed.protocol}//${parsed.host}`;
  return {
    kind: 'proxy',
    source: 'environment',
    proxyUrl,
    credentials,
    reason: `${name} names ${parsed.host}${credentials ? ' (with a user name and password)' : ''}.`,
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A URL's hostname without IPv6 brackets or a trailing dot, lower case. */
function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** `localhost`, `*.localhost`, 127/8, ::1 (and ::ffff:127.x). */
export function isLoopbackHost(host: string): boolean {
  const bare = bareHost(host);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'loopback';
}

/**
 * Which `NO_PROXY` entry sends `host` (a URL hostname, lower case, no brackets) on `port` direct,
 * or null when none does. Entries are separated by commas or spaces:
 * - `*` alone: every host;
 * - `example.com`, `.example.com`, `*.example.com`: that domain and every name under it;
 * - any entry may end in `:port` and then matches that port only (`[::1]:8080` for IPv6);
 * - an IP literal matches that address; `10.0.0.0/8` or `fd00::/8` (CIDR) matches literal
 *   addresses in it (names are not resolved to check them, as curl does).
 */
export function noProxyMatch(host: string, port: number, noProxy: string): string | null {
  const name = bareHost(host);
  const hostIp = ipaddr.isValid(name) ? ipaddr.process(name) : null;
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return '*';
    const { pattern, entryPort } = splitEntryPort(entry);
    if (entryPort !== null && entryPort !== port) continue;
    if (hostIp) {
      if (ipEntryMatches(hostIp, pattern)) return raw.trim();
      continue;
    }
    const domain = pattern.replace(/^\*?\./, '').replace(/\.$/, '');
    if (domain && (name === domain || name.endsWith(`.${domain}`))) return raw.trim();
  }
  return null;
}

/** An entry's host pattern and its port (null when it names none). */
function splitEntryPort(entry: string): { pattern: string; entryPort: number | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { pattern: bracketed[1] ?? '', entryPort: bracketed[2] ? Number(bracketed[2]) : null };
  // A bare IPv6 address (two or more colons, or a CIDR) has no port.
  if ((entry.match(/:/g)?.length ?? 0) > 1) return { pattern: entry, entryPort: null };
  const withPort = /^(.+):(\d+)$/.exec(entry);
  return withPort
    ? { pattern: withPort[1] ?? '', entryPort: Number(withPort[2]) }
    : { pattern: entry, entryPort: null };
}

function ipEntryMatches(hostIp: ipaddr.IPv4 | ipaddr.IPv6, pattern: string): boolean {
  try {
    if (pattern.includes('/')) {
      const [range, bits] = ipaddr.parseCIDR(pattern);
      return hostIp.kind() === range.kind() && hostIp.match(range, bits);
    }
    if (!ipaddr.isValid(pattern)) return false;
    return ipaddr.process(pattern).toNormalizedString() === hostIp.toNormalizedString();
  } catch {
    return false;
  }
}

/** A short description of a choice for Diagnostics and logs (never the credentials). */
export function describeProxyChoice(choice: ProxyChoice): string {
  switch (choice.kind) {
    case 'direct':
      return `Direct (no proxy). ${choice.reason}`;
    case 'proxy':
      return `Through ${choice.proxyUrl}. ${choice.reason}`;
    default:
      return `No usable route: ${choice.message}`;
  }
}
