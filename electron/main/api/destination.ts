/**
 * Destination rules for recording downloads: which addresses main may fetch a recording from.
 * A server's `recording_url` (spec 2), and every redirect it leads to, is data from the network,
 * so main must not be pointed at the user's own machine, the LAN or a cloud metadata address.
 *
 * Rules, checked on every hop:
 * - `https:` is required, unless the workspace's base URL itself is `http:` on a loopback host
 *   (a local test server); a redirect never goes from `https:` down to `http:`.
 * - Loopback (127/8, ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local
 *   (169.254/16, fe80::/10) and unspecified (0.0.0.0/8, ::) addresses are refused unless the base
 *   URL's own host is in the same class (a local test server may serve local recordings).
 *   IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) count as their IPv4 address.
 *
 * Literal addresses are checked on the URL, before any request. Host names are checked on the
 * address they resolve to, inside the connection's own DNS lookup ({@link guardedLookup}), so a
 * second DNS answer cannot swap a checked name for a refused address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/** The class of an IP address, as the rules above see it. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified';

/** Why a class is refused, as the end of the sentence "The recording address is …". */
const CLASS_WORDS: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'on this computer (a loopback address)',
  private: 'on a private network (10.x, 172.16–31.x, 192.168.x or fc00::/7)',
  'link-local': 'a link-local address (169.254.x or fe80::), where cloud metadata services live',
  unspecified: 'an unspecified address (0.0.0.0 or ::)',
};

/** The class of IP address `ip` (v4, v6, or v4-mapped v6; brackets allowed); 'public' for any other. */
export function addressClass(ip: string): AddressClass {
  const bare = ip.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return ipv4Class(bare.split('.').map(Number));
  if (isIP(bare) !== 6) return 'public';
  const words = ipv6Words(bare);
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    const [hi = 0, lo = 0] = words.slice(6);
    return ipv4Class([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  }
  if (words.every((w) => w === 0)) return 'unspecified';
  if (words.slice(0, 7).every((w) => w === 0) && words[7] === 1) return 'loopback';
  const first = words[0] ?? 0;
  if ((first & 0xfe00) === 0xfc00) return 'private';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  return 'public';
}

function ipv4Class([a = 0, b = 0]: number[]): AddressClass {
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  return 'public';
}

/** The eight 16-bit words of an IPv6 address (which `isIP` accepted), a dotted IPv4 tail included. */
function ipv6Words(ip: string): number[] {
  const withoutZone = ip.split('%')[0] ?? ip;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(withoutZone);
  const hex = dotted
    ? withoutZone.slice(0, dotted.index) +
      [
        ((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16),
        ((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16),
      ].join(':')
    : withoutZone;
  const [head = '', tail] = hex.split('::');
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((w) => parseInt(w, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The class of a URL's host when it can be told without DNS: a literal address or `localhost`; null for a name. */
function literalHostClass(hostname: string): AddressClass | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return addressClass(bare);
  const lower = bare.toLowerCase().replace(/\.$/, '');
  return lower === 'localhost' || lower.endsWith('.localhost') ? 'loopback' : null;
}

/** Why address class `found` is refused for a workspace whose base host is of class `base`, or null. */
function classProblem(found: AddressClass, base: AddressClass | null): string | null {
  if (found === 'public' || found === base) return null;
  return `the recording address is ${CLASS_WORDS[found]}, and the workspace's server is not`;
}

/**
 * Why hop `url` may not be fetched, or null when it may (the checks that need no DNS).
 * @param previous the URL that redirected here, or null for the first hop
 * @param base the workspace's base URL
 */
export function hopProblem(url: URL, previous: URL | null, base: URL): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `it uses "${url.protocol}", and only https (or http to a local test server) is opened`;
  }
  if (previous?.protocol === 'https:' && url.protocol === 'http:') {
    return 'a redirect went from a secure (https) address to plain http';
  }
  const baseClass = literalHostClass(base.hostname);
  if (url.protocol === 'http:' && !(base.protocol === 'http:' && baseClass === 'loopback')) {
    return 'it uses plain http; https is required unless the workspace itself is a local http server';
  }
  const found = literalHostClass(url.hostname);
  return found === null ? null : classProblem(found, baseClass);
}

/** An error a refused DNS answer fails the connection with; the fetcher finds it on the failure's causes. */
export class UnsafeDestinationError extends Error {
  /** Recognized by the fetcher when undici wraps the error. */
  readonly code = 'VR_UNSAFE_DESTINATION';
  constructor(readonly rule: string) {
    super(`Refused destination: ${rule}`);
    this.name = 'UnsafeDestinationError';
  }
}

/** A `dns.lookup`-shaped function (what `net.connect` accepts as `lookup`). */
export type LookupFunction = (
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** `dns.lookup` with every address of the name (the seam tests replace). */
function defaultLookup(
  hostname: string,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
): void {
  dnsLookup(hostname, { all: true }, callback);
}

/** Resolves a name to all its addresses; tests pass a stand-in that maps test names to addresses. */
export type Resolver = typeof defaultLookup;

/**
 * The `lookup` for the connections of recording downloads: resolves the name, then refuses it
 * (with an {@link UnsafeDestinationError}) when any of its addresses is of a class the rules refuse
 * for `baseUrl`, before a connection is attempted. A base URL whose host is a name gets the class
 * of its own first address, resolved once with the same resolver.
 */
export function guardedLookup(baseUrl: string, resolve: Resolver = defaultLookup): LookupFunction {
  const baseHost = new URL(baseUrl).hostname;
  let baseClass: Promise<AddressClass | null> | null = null;
  const classOfBase = (): Promise<AddressClass | null> => {
    const literal = literalHostClass(baseHost);
    baseClass ??=
      literal !== null
        ? Promise.resolve(literal)
        : new Promise((done) => {
            resolve(baseHost, (err, found) => {
              done(err || !found[0] ? null : addressClass(found[0].address));
            });
          });
    return baseClass;
  };
  return (hostname, options, callback) => {
    resolve(hostname, (err, found) => {
      if (err) {
        callback(err, []);
        return;
      }
      const refused = found.map((a) => addressClass(a.address)).find((c) => c !== 'public');
      const answer = (): void => {
        const family = options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : options.family;
        const usable = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
        const list = usable.length > 0 ? usable : found;
        if (options.all) callback(null, list);
        else callback(null, list[0]?.address ?? '', list[0]?.family ?? 4);
      };
      if (refused === undefined) {
        answer();
        return;
      }
      void classOfBase().then((base) => {
        const problem = classProblem(refused, base);
        if (problem) callback(new UnsafeDestinationError(problem), []);
        else answer();
      });
    });
  };
}
