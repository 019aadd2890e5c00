/**
 * undici dispatchers for the routes proxy-choice.ts picks: an `Agent` for direct requests and a
 * `ProxyAgent` per proxy (CONNECT tunnels, also for http targets, so one sign-in path serves
 * everything), each carrying the trust store's CAs. Dispatchers are kept per proxy origin and
 * replaced when the trust store or the proxy's credentials change.
 *
 * undici's ProxyAgent turns a 407 answer to CONNECT into a bare "Proxy response (407) !== 200"
 * error and drops the headers; the proxy's client here reads the answer first and fails with a
 * {@link ProxyAuthRequiredError} that carries the `Proxy-Authenticate` challenges instead.
 */
import { createHash } from 'node:crypto';
import { Agent, buildConnector, Pool, ProxyAgent, type Dispatcher } from 'undici';
import type { LookupFunction } from './address-class';
import type { BasicCredentials } from './proxy-choice';
import { parseChallenges, ProxyAuthRequiredError } from './proxy-errors';

/** The trust the dispatchers carry (a {@link TrustStore} or a stand-in). */
export interface TrustSource {
  certificates(): readonly string[];
  readonly version: number;
}

/** How the dispatchers of one purpose (API requests, recordings) connect. */
export interface DispatchersOptions {
  trust: TrustSource;
  /** Time to open a connection (TCP and TLS), in milliseconds; default 10 000. */
  connectTimeoutMs?: number;
  /**
   * The DNS lookup of direct connections (recordings: destination.ts's guarded lookup); the
   * system's by default. Not used to reach a proxy, which is the network's own.
   */
  directLookup?: LookupFunction;
  /**
   * Told the remote address of every direct connection opened, by origin (`https://host:port`):
   * the API client records it so the destination rules know the class of its server.
   */
  onDirectPeer?: (origin: string, address: string) => void;
}

/** The dispatchers of one purpose. */
export interface Dispatchers {
  /** The direct agent (no proxy), for the current trust. */
  direct(): Dispatcher;
  /**
   * The ProxyAgent for proxy `proxyUrl` (an origin, `http://proxy.corp:3128`) presenting
   * `credentials` with Basic (null: none), for the current trust. The same instance is returned
   * while neither changes.
   */
  proxy(proxyUrl: string, credentials: BasicCredentials | null): Dispatcher;
  /** Closes every dispatcher (requests in flight finish first). */
  close(): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** The value of a `Proxy-Authorization: Basic` header for `credentials` (RFC 7617, UTF-8). */
export function basicToken(credentials: BasicCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`;
}

/** Creates the dispatchers of one purpose. Opens nothing until a request is dispatched. */
export function createDispatchers(options: DispatchersOptions): Dispatchers {
  const timeout = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const kept = new Map<string, { key: string; dispatcher: Dispatcher }>();
  const reuse = (slot: string, key: string, build: () => Dispatcher): Dispatcher => {
    const current = kept.get(slot);
    if (current?.key === key) return current.dispatcher;
    // The old one finishes what it carries, then closes.
    if (current) void current.dispatcher.close().catch(() => undefined);
    const dispatcher = build();
    kept.set(slot, { key, dispatcher });
    return dispatcher;
  };
  return {
    direct: () =>
      reuse('DIRECT', String(options.trust.version), () => {
        const ca = [...options.trust.certificates()];
        return new Agent({
          connect: directConnector({ ca, timeout, lookup: options.directLookup }, options.onDirectPeer),
        });
      }),
    proxy: (proxyUrl, credentials) =>
      reuse(proxyUrl, `${options.trust.version}|${credentialsKey(credentials)}`, () =>
        buildProxyAgent(proxyUrl, credentials, [...options.trust.certificates()], timeout),
      ),
    close: async () => {
      const all = [...kept.values()].map((k) => k.dispatcher.close().catch(() => undefined));
      kept.clear();
      await Promise.all(all);
    },
  };
}

/** A key that changes with the credentials without holding them. */
function credentialsKey(credentials: BasicCredentials | null): string {
  if (!credentials) return 'none';
  return createHash('sha256').update(`${credentials.username}\0${credentials.password}`).digest('hex');
}

/** undici's connector with `ca`, `timeout` and `lookup`, telling `onPeer` each socket's remote address. */
function directConnector(
  settings: { ca: string[]; timeout: number; lookup: LookupFunction | undefined },
  onPeer: ((origin: string, address: string) => void) | undefined,
): buildConnector.connector {
  const connect = buildConnector({
    ca: settings.ca,
    timeout: settings.timeout,
    ...(settings.lookup ? { lookup: settings.lookup } : {}),
  });
  if (!onPeer) return connect;
  return (opts, callback) => {
    connect(opts, (...args) => {
      const [err, socket] = args;
      if (!err && socket.remoteAddress) {
        const port = opts.port || (opts.protocol === 'https:' ? '443' : '80');
        onPeer(`${opts.protocol}//${opts.hostname}:${port}`, socket.remoteAddress);
      }
      callback(...args);
    });
  };
}

function buildProxyAgent(
  proxyUrl: string,
  credentials: BasicCredentials | null,
  ca: string[],
  timeout: number,
): ProxyAgent {
  return new ProxyAgent({
    uri: proxyUrl,
    ...(credentials ? { token: basicToken(credentials) } : {}),
    // Tunnel plain http too: one CONNECT path, one sign-in, the same 407 handling.
    proxyTunnel: true,
    // `proxyTls` is used for an HTTPS proxy itself, `requestTls` for the TLS inside the tunnel.
    proxyTls: { ca, timeout },
    requestTls: { ca, timeout },
    clientFactory: (origin, opts) => challengeReadingPool(origin, opts, proxyUrl),
  });
}

/** The shape of `connect` ProxyAgent calls on its proxy client (the promise form). */
type ConnectFunction = (options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;

/**
 * The proxy's client: undici's default Pool, whose CONNECT fails with a
 * {@link ProxyAuthRequiredError} (carrying the challenges) when the proxy answers 407.
 */
function challengeReadingPool(origin: URL, opts: object, proxyUrl: string): Dispatcher {
  const pool = new Pool(origin, opts);
  const connect: ConnectFunction = pool.connect.bind(pool);
  const reading: ConnectFunction = async (options) => {
    const data = await connect(options);
    if (data.statusCode === 407) {
      data.socket.on('error', () => undefined).destroy();
      throw new ProxyAuthRequiredError(proxyUrl, parseChallenges(data.headers['proxy-authenticate']));
    }
    return data;
  };
  // ProxyAgent calls `connect(options)` and awaits it; the callback form is not used on this client.
  (pool as unknown as { connect: ConnectFunction }).connect = reading;
  return pool;
}
