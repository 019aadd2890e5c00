/**
 * What a proxy can answer instead of a tunnel, in words: a sign-in it asks for (407 with its
 * `Proxy-Authenticate` challenges), a scheme Voice Review cannot speak (Negotiate, NTLM), a
 * refusal (403: the network's policy), or no answer at all.
 */

/** One challenge of a `Proxy-Authenticate` header (RFC 9110 §11.6.1). */
export interface ProxyChallenge {
  /** The scheme as sent, e.g. `Basic`, `Negotiate`, `NTLM`, `Digest`. */
  scheme: string;
  /** The `realm` parameter, when given. */
  realm: string | null;
}

/**
 * The challenges of one or more `Proxy-Authenticate` header values. Each challenge starts with a
 * scheme token; its parameters (`realm="x", charset=UTF-8`) or token68 (`Negotiate abc==`)
 * follow. Commas inside quoted strings are kept.
 */
export function parseChallenges(header: string | readonly string[] | undefined): ProxyChallenge[] {
  const values = header === undefined ? [] : typeof header === 'string' ? [header] : header;
  const challenges: ProxyChallenge[] = [];
  for (const value of values) {
    // Split at commas outside quotes; a part starting with `token ` or a lone token begins a challenge.
    const parts = value.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
    for (const raw of parts) {
      const part = raw.trim();
      const start = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?:\s+(.*))?$/.exec(part);
      const isParam = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*=/.test(part);
      if (start?.[1] && !isParam) {
        challenges.push({ scheme: start[1], realm: realmOf(start[2] ?? '') });
      } else if (isParam && challenges.length > 0) {
        const last = challenges[challenges.length - 1];
        if (last && last.realm === null) last.realm = realmOf(part);
      }
    }
  }
  return challenges;
}

function realmOf(params: string): string | null {
  const match = /(?:^|[\s,])realm\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/i.exec(params);
  if (!match) return null;
  return (match[1] ?? match[2] ?? '').replace(/\\(.)/g, '$1');
}

/**
 * A proxy answered a CONNECT with 407: it wants a sign-in. Thrown inside undici's tunnel set-up
 * (see dispatchers.ts), so a failed request carries it among its causes.
 */
export class ProxyAuthRequiredError extends Error {
  readonly code = 'VR_PROXY_AUTH_REQUIRED';
  constructor(
    /** The proxy's origin, `http://proxy.corp:3128`. */
    readonly proxyOrigin: string,
    readonly challenges: readonly ProxyChallenge[],
  ) {
    super(`The proxy ${hostOf(proxyOrigin)} asks for a sign-in (HTTP 407).`);
    this.name = 'ProxyAuthRequiredError';
  }

  /** True when Basic is offered, or when no scheme is named at all (a proxy that forgot the header). */
  get offersBasic(): boolean {
    return this.challenges.length === 0 || this.challenges.some((c) => c.scheme.toLowerCase() === 'basic');
  }

  /** The realm of the Basic challenge, if any. */
  get realm(): string | null {
    return this.challenges.find((c) => c.scheme.toLowerCase() === 'basic')?.realm ?? null;
  }
}

/** Why a request through a proxy could not be made, as a view or the connection test reacts to it. */
export type ProxyProblemKind =
  /** The proxy asks only for a scheme Voice Review cannot speak (Negotiate, NTLM, Digest). */
  | 'sign_in_scheme'
  /** The user closed the sign-in sheet. */
  | 'sign_in_cancelled'
  /** The proxy refused the user name and password too many times in a row. */
  | 'sign_in_refused'
  /** The proxy asks for a sign-in and nobody can be asked (the harness, a background task). */
  | 'sign_in_needed'
  /** The only route named is one Voice Review cannot use (SOCKS, QUIC). */
  | 'unsupported_route'
  /** The proxy refused to open the tunnel (403 policy, 502 upstream) or could not be reached. */
  | 'proxy_refused'
  | 'proxy_unreachable';

/** A worded failure of the proxy route. `message` never holds credentials. */
export class ProxyProblem extends Error {
  constructor(
    readonly kind: ProxyProblemKind,
    message: string,
    /** `host:port` of the proxy, when one was chosen. */
    readonly proxyHost: string | null = null,
  ) {
    super(message);
    this.name = 'ProxyProblem';
  }
}

/** `host:port` of an origin (`http://proxy.corp:3128` -> `proxy.corp:3128`). */
export function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** The refusal for a proxy that asks only for schemes other than Basic. */
export function unsupportedSchemeProblem(auth: ProxyAuthRequiredError, targetHost: string): ProxyProblem {
  const proxy = hostOf(auth.proxyOrigin);
  const names = [...new Set(auth.challenges.map((c) => schemeWords(c.scheme)))].join(' or ');
  return new ProxyProblem(
    'sign_in_scheme',
    `The proxy ${proxy} asks Voice Review to sign in with ${names}, which Voice Review cannot do (it signs in to proxies with a user name and password only). ` +
      `Ask IT to let Voice Review reach ${targetHost} through the proxy without sign-in (an exception for that address), or to allow Basic sign-in for it.`,
    proxy,
  );
}

function schemeWords(scheme: string): string {
  const lower = scheme.toLowerCase();
  if (lower === 'negotiate') return 'Windows sign-in (Negotiate/Kerberos)';
  if (lower === 'ntlm') return 'Windows sign-in (NTLM)';
  return scheme;
}

/** The causes of an error, itself first (at most 6 levels). */
export function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    chain.push(current);
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

/** The {@link ProxyAuthRequiredError} among an error's causes, or null. */
export function findProxyAuthRequired(err: unknown): ProxyAuthRequiredError | null {
  return causeChain(err).find((e): e is ProxyAuthRequiredError => e instanceof ProxyAuthRequiredError) ?? null;
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The worded problem for a request through proxy `proxyOrigin` that failed below HTTP, or null
 * when the failure is not the proxy's (then it is the target's: TLS, timeout):
 * - a {@link ProxyProblem} already among the causes;
 * - undici's "Proxy response (403) !== 200 when HTTP Tunneling": the proxy refused the tunnel;
 * - a refused or unresolvable connection to the proxy itself.
 * @param targetHost `host[:port]` of the URL asked for
 */
export function proxyFailureProblem(err: unknown, proxyOrigin: string, targetHost: string): ProxyProblem | null {
  const proxy = hostOf(proxyOrigin);
  for (const cause of causeChain(err)) {
    if (cause instanceof ProxyProblem) return cause;
    const message = cause instanceof Error ? cause.message : '';
    const status = /Proxy response \((\d{3})\) !== 200/.exec(message)?.[1];
    if (status) {
      const why =
        status === '403'
          ? "refused the connection (HTTP 403: the network's policy blocks it)"
          : `could not open a connection (HTTP ${status})`;
      return new ProxyProblem(
        'proxy_refused',
        `To reach ${targetHost}, the proxy ${proxy} ${why}. Ask IT to allow ${targetHost} for Voice Review.`,
        proxy,
      );
    }
    // Through a proxy, this computer connects to the proxy only: a refused or unresolved socket is the proxy's.
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) {
      const how = code === 'ECONNREFUSED' ? 'the connection was refused' : 'its name or address could not be reached';
      return new ProxyProblem(
        'proxy_unreachable',
        `Voice Review could not reach the proxy ${proxy} (${how}). Check the proxy settings, or ask IT.`,
        proxy,
      );
    }
  }
  return null;
}
