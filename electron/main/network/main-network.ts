/**
 * How every request main makes leaves the computer: the proxy chosen for its URL (Chromium's
 * answer, else the proxy environment variables), the desk's trust (bundled, system and imported
 * CAs), the proxy sign-in, and failures in words (the proxy's, the TLS layer's). The API client,
 * the connection test, the recording fetcher and the updater all go through one of these.
 *
 * Built once by main-stack.ts; plain Node, no Electron import (Electron's `session.resolveProxy`
 * is passed in by index.ts).
 */
import { join } from 'node:path';
import { fetch as undiciFetch } from 'undici';
import { ApiError } from '$shared/errors';
import {
  baseAddressClass,
  guardedLookup,
  proxiedHostProblem,
  systemResolver,
  type AddressClass,
  type NameResolver,
} from './address-class';
import { CA_BUNDLE_FILE, createCaStore, type CaStore } from './ca-store';
import { createDispatchers, type Dispatchers } from './dispatchers';
import type { BasicCredentials, ProxyChoice, ProxyEnvironment } from './proxy-choice';
import { causeChain, hostOf, proxyFailureProblem, ProxyProblem } from './proxy-errors';
import { createProxyResolver, type ProxyResolver } from './proxy-resolver';
import {
  createProxyRoutes,
  type ProxyCredentials,
  type ProxyRoutes,
  type ProxySignInPrompt,
  type Route,
} from './proxy-routes';
import { inspectTlsChain, type TlsChainReport } from './tls-chain';
import { explainTlsFailure, tlsErrorCode, type TlsProblem } from './tls-errors';
import { createTrustStore, type TlsRootSource, type TrustStore } from './trust-store';

/** What {@link createMainNetwork} is built from. */
export interface MainNetworkOptions {
  /** The settings folder: the imported CAs are kept there (ca-store.ts). */
  settingsDir: string;
  /** Electron's `session.defaultSession.resolveProxy`; absent in the harness and tests. */
  resolveProxy?: ((url: string) => Promise<string>) | null;
  /** Read for HTTPS_PROXY, HTTP_PROXY, NO_PROXY (normally `process.env`). */
  env: ProxyEnvironment;
  /** Where proxy sign-ins are kept, per proxy origin (the keychain in the app). */
  credentials: ProxyCredentials;
  /** The sign-in sheet; null where nobody can be asked. */
  prompt: ProxySignInPrompt | null;
  /** The log's secret registration: proxy passwords never reach a log. */
  registerSecret: (secret: string) => void;
  /** Node's TLS roots (tests pass a stand-in). */
  tls?: TlsRootSource;
}

/** One HTTP exchange as the API client sends it; `timeoutMs` counts while the request is on its way only. */
export type NetworkSend = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | undefined; redirect?: 'error' | 'manual' },
  timeoutMs: number,
) => Promise<Response>;

/** One exchange of a recording download (recording-fetcher.ts's `RecordingTransport`). */
export type RecordingSend = (
  url: string,
  init: { method: string; headers: Record<string, string>; signal: AbortSignal; redirect: 'manual' },
) => Promise<Response>;

/** A refusal of the destination rules on a proxied recording host (the fetcher words it). */
export class ProxiedDestinationError extends Error {
  readonly code = 'VR_UNSAFE_DESTINATION';
  constructor(readonly rule: string) {
    super(`Refused destination: ${rule}`);
    this.name = 'ProxiedDestinationError';
  }
}

/** The network of main. */
export interface MainNetwork {
  caStore: CaStore;
  trust: TrustStore;
  resolver: ProxyResolver;
  /**
   * An API request along its route, signing in to the proxy when it asks; the timeout is armed
   * afresh for each attempt, so time on the sign-in sheet does not count.
   * @throws ApiError `network` with the proxy's or the TLS layer's problem in words; otherwise
   *   the failure as undici gives it (the client words it)
   */
  send: NetworkSend;
  /**
   * The transport of recording downloads for a workspace whose base URL is `baseUrl`: direct
   * connections resolve names with the guarded lookup (every address checked against the
   * base's class: its literal host, else the API connection's peer); through a proxy, a host the
   * desk can resolve is checked the same way and one it cannot is left to the proxy.
   * @param resolve the name resolver (tests map names to refused addresses)
   */
  recordingTransport(baseUrl: string, resolve?: NameResolver): RecordingSend;
  /** The address the API client's direct connection to `url`'s origin last reached, or null. */
  peerAddress(url: string): string | null;
  /** The class the destination rules give `baseUrl` (literal host, else peer address). */
  baseClass(baseUrl: string): AddressClass | null;
  /** The TLS chain seen for `url` along its route (Diagnostics, the words of a TLS failure). */
  inspectChain(url: string): Promise<TlsChainReport>;
  /** The worded TLS problem of a failed request to `url`, or null when it is not TLS. */
  explainTls(err: unknown, url: string): Promise<TlsProblem | null>;
  /** Closes every connection. */
  close(): Promise<void>;
}

/** Builds the network. Reads the imported CAs once now (in the background); opens nothing. */
export function createMainNetwork(options: MainNetworkOptions): MainNetwork {
  const caStore = createCaStore(join(options.settingsDir, CA_BUNDLE_FILE));
  const trust = createTrustStore(caStore, options.tls);
  const loaded = trust.reload().catch(() => undefined);
  const resolver = createProxyResolver({ resolveProxy: options.resolveProxy ?? null, env: options.env });
  const peers = new Map<string, string>();
  const prompt = sharedPrompt(options.prompt);
  const routesOver = (dispatchers: Dispatchers): ProxyRoutes =>
    createProxyRoutes({
      resolver,
      dispatchers,
      credentials: options.credentials,
      prompt,
      registerSecret: options.registerSecret,
    });
  const apiDispatchers = createDispatchers({ trust, onDirectPeer: (origin, address) => peers.set(origin, address) });
  const opened: Dispatchers[] = [apiDispatchers];
  const apiRoutes = routesOver(apiDispatchers);

  const peerAddress = (url: string): string | null => {
    const key = originKey(url);
    return key === null ? null : (peers.get(key) ?? null);
  };
  const baseClass = (baseUrl: string) => baseAddressClass({ baseUrl, peerAddress: peerAddress(baseUrl) });

  const proxyCredentials = async (choice: ProxyChoice): Promise<BasicCredentials | null> =>
    choice.kind === 'proxy' ? ((await options.credentials.get(choice.proxyUrl)) ?? choice.credentials) : null;

  const inspectChain = async (url: string): Promise<TlsChainReport> => {
    await loaded;
    const choice = await resolver.resolve(url);
    return inspectTlsChain({
      url,
      proxyUrl: choice.kind === 'proxy' ? choice.proxyUrl : null,
      proxyCredentials: await proxyCredentials(choice),
      ca: trust.certificates(),
    });
  };
  const explainTls = (err: unknown, url: string) => explainTlsFailure(err, hostOf(url), () => inspectChain(url));

  /** The worded problem of a failed exchange along `route`, or null to let the caller word it. */
  const problemOf = async (
    err: unknown,
    url: string,
    route: Route | null,
  ): Promise<ProxyProblem | TlsProblem | null> => {
    const own = causeChain(err).find((e): e is ProxyProblem => e instanceof ProxyProblem);
    if (own) return own;
    if (route?.choice.kind === 'proxy') {
      const proxied = proxyFailureProblem(err, route.choice.proxyUrl, hostOf(url));
      if (proxied) return proxied;
    }
    return tlsErrorCode(err) === null ? null : explainTls(err, url);
  };

  const send: NetworkSend = async (url, init, timeoutMs) => {
    await loaded;
    let last: Route | null = null;
    try {
      return await apiRoutes.withRoute(url, async (route) => {
        last = route;
        const response = await undiciFetch(url, {
          ...init,
          signal: AbortSignal.timeout(timeoutMs),
          dispatcher: route.dispatcher,
        });
        return response as unknown as Response;
      });
    } catch (err) {
      const problem = await problemOf(err, url, last);
      if (!problem) throw err;
      throw new ApiError({
        kind: 'network',
        message: problem.message,
        ...(problem instanceof ProxyProblem ? {} : { detail: 'tls' as const }),
      });
    }
  };

  const recordingTransport = (baseUrl: string, resolve: NameResolver = systemResolver): RecordingSend => {
    const dispatchers = createDispatchers({ trust, directLookup: guardedLookup(() => baseClass(baseUrl), resolve) });
    opened.push(dispatchers);
    const routes = routesOver(dispatchers);
    return async (url, init) => {
      await loaded;
      let last: Route | null = null;
      try {
        return await routes.withRoute(url, async (route) => {
          last = route;
          if (route.choice.kind === 'proxy') {
            const problem = await proxiedHostProblem(new URL(url).hostname, baseClass(baseUrl), resolve);
            if (problem) throw new ProxiedDestinationError(problem);
          }
          const response = await undiciFetch(url, { ...init, dispatcher: route.dispatcher });
          return response as unknown as Response;
        });
      } catch (err) {
        if (err instanceof ProxiedDestinationError || init.signal.aborted) throw err;
        const problem = await problemOf(err, url, last);
        if (!problem) throw err;
        throw new WordedNetworkError(problem.message, err);
      }
    };
  };

  return {
    caStore,
    trust,
    resolver,
    send,
    recordingTransport,
    peerAddress,
    baseClass,
    inspectChain,
    explainTls,
    close: async () => {
      await Promise.all(opened.splice(0).map((d) => d.close()));
    },
  };
}

/** A recording exchange that failed for a reason in words (the proxy's or TLS); the fetcher shows `message`. */
export class WordedNetworkError extends Error {
  readonly code = 'VR_WORDED_NETWORK';
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'WordedNetworkError';
  }
}

/** One sheet per proxy origin across every router (API and recordings): a second ask waits for the first. */
function sharedPrompt(prompt: ProxySignInPrompt | null): ProxySignInPrompt | null {
  if (!prompt) return null;
  const open = new Map<string, ReturnType<ProxySignInPrompt>>();
  return (request) => {
    const current = open.get(request.proxyOrigin);
    if (current) return current;
    const answer = prompt(request).finally(() => open.delete(request.proxyOrigin));
    open.set(request.proxyOrigin, answer);
    return answer;
  };
}

/** `https://host:port` with the default port filled in, as the dispatchers report peers; null for a bad URL. */
function originKey(url: string): string | null {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${u.protocol}//${u.hostname}:${port}`;
  } catch {
    return null;
  }
}
