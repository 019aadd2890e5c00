/**
 * Address classes for the destination rules of recording downloads: a server's `recording_url`
 * (spec 2) and its redirects are data from the network, so main refuses every address that is not
 * global unicast, unless the workspace's own server is in the same class (a local or LAN test
 * server may serve its recordings beside it).
 *
 * Ranges come from ipaddr.js (IANA's special-purpose registries); this file only names them and
 * adds what ipaddr.js counts as unicast but is not global: IPv4-compatible IPv6 (`::a.b.c.d`) and
 * IPv6 outside 2000::/3. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) counts as its IPv4 address.
 *
 * The class of the workspace's server comes from its base URL when the host is a literal (or
 * `localhost`), else from the address the API connection actually reached ({@link BaseAddress}):
 * never from a separate lookup, which could answer differently from the one the client used.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The class of an IP address, as the destination rules see it. */
export type AddressClass =
  /** Global unicast: the only class always allowed. */
  | 'public'
  | 'loopback'
  /** 10/8, 172.16/12, 192.168/16, fc00::/7. */
  | 'private'
  /** 169.254/16, fe80::/10 (cloud metadata services live here). */
  | 'link-local'
  /** 0.0.0.0/8, ::. */
  | 'unspecified'
  /** 100.64/10, carrier-grade NAT. */
  | 'shared'
  /** 198.18/15, 2001:2::/48. */
  | 'benchmarking'
  /** 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20. */
  | 'documentation'
  | 'multicast'
  /** 255.255.255.255. */
  | 'broadcast'
  /** NAT64 (64:ff9b::/96, 64:ff9b:1::/48), SIIT ::ffff:0:0:0/96, 6to4 2002::/16, Teredo 2001::/32, IPv4-compatible ::/96. */
  | 'translation'
  /** fec0::/10, deprecated site-local. */
  | 'site-local'
  /** 240/4, 192.0.0/24, other special-purpose blocks, IPv6 outside 2000::/3. */
  | 'reserved';

/** How each refused class reads at the end of "The recording address is …". */
const CLASS_WORDS: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'on this computer (a loopback address)',
  private: 'on a private network (10.x, 172.16–31.x, 192.168.x or fc00::/7)',
  'link-local': 'a link-local address (169.254.x or fe80::), where cloud metadata services live',
  unspecified: 'an unspecified address (0.0.0.0 or ::)',
  shared: 'a carrier-grade NAT address (100.64.0.0/10), not a public one',
  benchmarking: 'a benchmarking address (198.18.0.0/15), not a public one',
  documentation: 'a documentation address (such as 192.0.2.x or 2001:db8::), which no real server has',
  multicast: 'a multicast address, which no server answers from',
  broadcast: 'the broadcast address',
  translation: 'an IPv6 translation address (NAT64, 6to4, Teredo or ::a.b.c.d) that can hide a local address',
  'site-local': 'a site-local IPv6 address (fec0::/10)',
  reserved: 'a reserved address, not a public one',
};

/** Classes no server can be in: refused even when the workspace's server is "in" them. */
const NEVER_SAME_CLASS = new Set<AddressClass>(['multicast', 'broadcast']);

const V4_DOCUMENTATION = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'].map((c) => ipaddr.IPv4.parseCIDR(c));
const V4_BENCHMARKING = ipaddr.IPv4.parseCIDR('198.18.0.0/15');
const V6_DOCUMENTATION = ['2001:db8::/32', '3fff::/20'].map((c) => ipaddr.IPv6.parseCIDR(c));
const V6_GLOBAL = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * The class of IP address `ip`: IPv4, IPv6 (brackets and a `%zone` allowed), or IPv4-mapped IPv6.
 * @throws Error when `ip` is not an IP address (a host name must be resolved first)
 */
export function addressClass(ip: string): AddressClass {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) throw new Error(`Not an IP address: ${ip}`);
  const address = ipaddr.process(isIP(bare) === 6 ? canonicalIpv6(bare) : bare);
  return address.kind() === 'ipv4' ? ipv4Class(address as ipaddr.IPv4) : ipv6Class(address as ipaddr.IPv6);
}

/**
 * An IPv6 address in hex words only (`::127.0.0.1` -> `::7f00:1`), as the WHATWG URL parser
 * writes it: ipaddr.js reads any dotted tail as IPv4-mapped, which would make the
 * IPv4-compatible `::8.8.8.8` look like the public 8.8.8.8.
 */
function canonicalIpv6(ip: string): string {
  return new URL(`http://[${ip}]/`).hostname.replace(/^\[|\]$/g, '');
}

function ipv4Class(address: ipaddr.IPv4): AddressClass {
  const range = address.range();
  switch (range) {
    case 'unicast':
      return 'public';
    case 'unspecified':
    case 'broadcast':
    case 'multicast':
    case 'loopback':
    case 'private':
      return range;
    case 'linkLocal':
      return 'link-local';
    case 'carrierGradeNat':
      return 'shared';
    default:
      if (V4_DOCUMENTATION.some((cidr) => address.match(cidr))) return 'documentation';
      if (address.match(V4_BENCHMARKING)) return 'benchmarking';
      return 'reserved';
  }
}

function ipv6Class(address: ipaddr.IPv6): AddressClass {
  // ipaddr.js's type of range names lags behind its table (no 'deprecatedSiteLocal', 'benchmarking').
  const range: string = address.range();
  switch (range) {
    case 'unicast':
      // ::/96 holds IPv4-compatible addresses (ipaddr.js calls them unicast); only 2000::/3 is global.
      if (address.parts.slice(0, 6).every((part) => part === 0)) return 'translation';
      return address.match(V6_GLOBAL) ? 'public' : 'reserved';
    case 'unspecified':
    case 'multicast':
    case 'loopback':
    case 'benchmarking':
      return range;
    case 'linkLocal':
      return 'link-local';
    case 'uniqueLocal':
      return 'private';
    case 'deprecatedSiteLocal':
      return 'site-local';
    case 'rfc6145':
    case 'rfc6052':
    case '6to4':
    case 'teredo':
      return 'translation';
    default:
      return V6_DOCUMENTATION.some((cidr) => address.match(cidr)) ? 'documentation' : 'reserved';
  }
}

/** The class of a URL's hostname when it can be told without DNS (a literal, or `localhost`); null for a name. */
export function literalHostClass(hostname: string): AddressClass | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare.replace(/%.*$/, ''))) return addressClass(bare);
  const lower = bare.toLowerCase().replace(/\.$/, '');
  return lower === 'localhost' || lower.endsWith('.localhost') ? 'loopback' : null;
}

/**
 * Where the workspace's server is: its base URL, and the address the API client's connection
 * actually reached when it went direct (the socket's `remoteAddress`, told by the API client's
 * dispatchers through `DispatchersOptions.onDirectPeer` for the base URL's origin). Through a
 * proxy the peer is the proxy, so `peerAddress` stays null and a named base host's class is unknown.
 */
export interface BaseAddress {
  baseUrl: string;
  /** The API connection's remote address (IPv4 or IPv6), or null when unknown or proxied. */
  peerAddress?: string | null;
}

/**
 * The class the same-class exception uses: a literal host's (or `localhost`'s), else the peer
 * address's, else null (unknown: only global unicast destinations pass).
 */
export function baseAddressClass(base: BaseAddress): AddressClass | null {
  let hostname: string;
  try {
    hostname = new URL(base.baseUrl).hostname;
  } catch {
    return null;
  }
  const literal = literalHostClass(hostname);
  if (literal !== null) return literal;
  if (!base.peerAddress || !isIP(base.peerAddress.replace(/%.*$/, ''))) return null;
  return addressClass(base.peerAddress);
}

/**
 * Why `found` (a destination's class) is refused for a workspace whose server is of class `base`
 * (null: unknown), as the end of a sentence; null when it is allowed.
 */
export function classProblem(found: AddressClass, base: AddressClass | null): string | null {
  if (found === 'public') return null;
  if (found === base && !NEVER_SAME_CLASS.has(found)) return null;
  return `the recording address is ${CLASS_WORDS[found]}, and the workspace's server is not`;
}

/**
 * Checks EVERY address of a DNS answer (a name with one public and one loopback address is
 * refused: the connection may use either). Returns the first problem, or null when all pass.
 * An empty answer is a problem too.
 */
export function addressesProblem(addresses: readonly string[], base: AddressClass | null): string | null {
  if (addresses.length === 0) return 'the recording host name resolved to no address';
  for (const address of addresses) {
    const problem = classProblem(addressClass(address), base);
    if (problem) return problem;
  }
  return null;
}

/** An error a refused DNS answer fails the connection with; callers find it on the failure's causes. */
export class RefusedDestinationError extends Error {
  /** Recognized when undici wraps the error. */
  readonly code = 'VR_UNSAFE_DESTINATION';
  constructor(readonly rule: string) {
    super(`Refused destination: ${rule}`);
    this.name = 'RefusedDestinationError';
  }
}

/** Resolves a name to all its addresses (`dns.lookup` with `all: true`); tests pass a stand-in. */
export type NameResolver = (
  hostname: string,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** `dns.lookup` with every address of the name. */
export const systemResolver: NameResolver = (hostname, callback) => {
  dnsLookup(hostname, { all: true }, callback);
};

/** A `dns.lookup`-shaped function, as `net.connect` and undici's `connect.lookup` take it. */
export type LookupFunction = (
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/**
 * The `lookup` for direct connections to recording hosts: resolves the name with `resolve`, then
 * fails with a {@link RefusedDestinationError} when ANY address is refused for the class
 * `baseClass()` returns at that moment (read per lookup, so a peer address learned later counts),
 * before a connection is attempted. The connection then uses only addresses this check saw.
 */
export function guardedLookup(
  baseClass: () => AddressClass | null,
  resolve: NameResolver = systemResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (err, found) => {
      if (err) {
        callback(err, []);
        return;
      }
      const problem = addressesProblem(
        found.map((a) => a.address),
        baseClass(),
      );
      if (problem) {
        callback(new RefusedDestinationError(problem), []);
        return;
      }
      const family = options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : options.family;
      const usable = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
      const list = usable.length > 0 ? usable : found;
      if (options.all) callback(null, list);
      else callback(null, list[0]?.address ?? '', list[0]?.family ?? 4);
    });
  };
}

/**
 * The destination check for a recording host reached through a proxy, where the proxy, not this
 * computer, resolves and connects: a literal host is checked as is; a name that resolves on the
 * desk is checked on EVERY address; a name the desk cannot resolve passes (the proxy applies
 * the network's own egress policy). Resolves with the problem, or null when the host may be asked for.
 */
export async function proxiedHostProblem(
  hostname: string,
  base: AddressClass | null,
  resolve: NameResolver = systemResolver,
): Promise<string | null> {
  const literal = literalHostClass(hostname);
  if (literal !== null) return classProblem(literal, base);
  return new Promise((done) => {
    resolve(hostname.replace(/\.$/, ''), (err, found) => {
      // A name this desk cannot resolve (ENOTFOUND, EAI_AGAIN, ...) is the proxy's to resolve.
      if (err) {
        done(null);
        return;
      }
      done(
        addressesProblem(
          found.map((a) => a.address),
          base,
        ),
      );
    });
  });
}
