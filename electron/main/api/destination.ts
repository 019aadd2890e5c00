/**
 * Destination rules for recording downloads: which addresses main may fetch a recording from.
 * A server's `recording_url` (spec 2), and every redirect it leads to, is data from the network,
 * so main must not be pointed at the user's own machine, the LAN or a cloud metadata address.
 *
 * Rules, checked on every hop:
 * - `https:` is required, unless the workspace's base URL itself is `http:` on a loopback host
 *   (a local test server); a redirect never goes from `https:` down to `http:`.
 * - Every address that is not global unicast (network/address-class.ts, ipaddr.js ranges:
 *   loopback, private, link-local, carrier-grade NAT, benchmarking, documentation, multicast,
 *   240/4, NAT64, 6to4, `::a.b.c.d`, site-local, ...) is refused unless the workspace's server is
 *   in the same class (a local test server may serve local recordings). The server's class comes
 *   from a literal base host, else from the address the API connection actually reached.
 *
 * Literal addresses are checked on the URL, before any request. Host names are checked on EVERY
 * address they resolve to, inside the connection's own DNS lookup (address-class.ts
 * `guardedLookup`), so a second DNS answer cannot swap a checked name for a refused address.
 * Through a proxy, a name the desk can resolve is checked the same way; a name only the proxy
 * can resolve is the proxy's (the network's own egress policy).
 */
import {
  classProblem,
  literalHostClass,
  systemResolver,
  type AddressClass,
  type NameResolver,
} from '../network/address-class';

export { addressClass, type AddressClass } from '../network/address-class';

/** Resolves a name to all its addresses; tests pass a stand-in that maps test names to addresses. */
export type Resolver = NameResolver;

/** `dns.lookup` with every address of the name. */
export const defaultResolver: Resolver = systemResolver;

/**
 * Why hop `url` may not be fetched, or null when it may (the checks that need no DNS).
 * @param previous the URL that redirected here, or null for the first hop
 * @param base the workspace's base URL
 * @param baseClass the class of the workspace's server (address-class.ts `baseAddressClass`);
 *   default: its literal host's, else unknown
 */
export function hopProblem(
  url: URL,
  previous: URL | null,
  base: URL,
  baseClass: AddressClass | null = literalHostClass(base.hostname),
): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `it uses "${url.protocol}", and only https (or http to a local test server) is opened`;
  }
  if (previous?.protocol === 'https:' && url.protocol === 'http:') {
    return 'a redirect went from a secure (https) address to plain http';
  }
  if (url.protocol === 'http:' && !(base.protocol === 'http:' && literalHostClass(base.hostname) === 'loopback')) {
    return 'it uses plain http; https is required unless the workspace itself is a local http server';
  }
  const found = literalHostClass(url.hostname);
  return found === null ? null : classProblem(found, baseClass);
}
