/**
 * The route of each request main makes, and the proxy sign-in: resolves the proxy for a URL,
 * hands the request the dispatcher for it, and when the proxy answers 407 with Basic, asks the
 * user once (one sheet per proxy, however many requests wait), keeps the credentials per proxy
 * origin, and runs the request again. A 407 on CONNECT means nothing reached the server, so any
 * request, a write included, may be run again.
 *
 * Credentials are registered as secrets (the log's `registerSecret`) before they are used, so
 * they never reach a log; no message here holds them.
 */
import type { Dispatcher } from 'undici';
import type { Dispatchers } from './dispatchers';
import { basicToken } from './dispatchers';
import type { BasicCredentials, ProxyChoice } from './proxy-choice';
import {
  findProxyAuthRequired,
  hostOf,
  ProxyProblem,
  unsupportedSchemeProblem,
  type ProxyAuthRequiredError,
} from './proxy-errors';
import type { ProxyResolver } from './proxy-resolver';

/**
 * Where proxy credentials are kept, per proxy origin (`http://proxy.corp:3128`): the keychain in
 * the app (one entry per origin), memory in the harness and tests. Rejects with the store's error.
 */
export interface ProxyCredentials {
  get(proxyOrigin: string): Promise<BasicCredentials | null>;
  set(proxyOrigin: string, credentials: BasicCredentials): Promise<void>;
  forget(proxyOrigin: string): Promise<void>;
}

/** Credentials kept in memory for the life of the process (the harness, tests). */
export function memoryProxyCredentials(): ProxyCredentials {
  const kept = new Map<string, BasicCredentials>();
  return {
    get: (origin) => Promise.resolve(kept.get(origin) ?? null),
    set: (origin, credentials) => {
      kept.set(origin, { ...credentials });
      return Promise.resolve();
    },
    forget: (origin) => {
      kept.delete(origin);
      return Promise.resolve();
    },
  };
}

/** What the proxy sign-in sheet is told. */
export interface ProxySignInRequest {
  /** `http://proxy.corp:3128`: where the answer will be kept. */
  proxyOrigin: string;
  /** `proxy.corp:3128`: what the sheet names. */
  proxyHost: string;
  /** The proxy's Basic realm, when it gave one. */
  realm: string | null;
  /** True when the proxy just refused the user name and password it was given ("wrong password"). */
  rejected: boolean;
  /** The user name last tried, to fill in; null when none. */
  username: string | null;
}

/** Asks the user to sign in to a proxy; resolves with null when they cancel. */
export type ProxySignInPrompt = (request: ProxySignInRequest) => Promise<BasicCredentials | null>;

/** The route of one request: the choice made and the dispatcher to send it with. */
export interface Route {
  choice: ProxyChoice;
  dispatcher: Dispatcher;
}

/** What {@link createProxyRoutes} uses. */
export interface ProxyRoutesOptions {
  resolver: ProxyResolver;
  dispatchers: Dispatchers;
  credentials: ProxyCredentials;
  /** The sign-in sheet; null where nobody can be asked (the harness, a background check). */
  prompt: ProxySignInPrompt | null;
  /** The log's secret registration (log.ts `registerSecret`). */
  registerSecret: (secret: string) => void;
  /** Refusals of typed credentials in a row before giving up; default 5. */
  maxRejections?: number;
}

/** Routes requests, signing in to proxies when asked. */
export interface ProxyRoutes {
  /** The route for `url` now (no sign-in). @throws ProxyProblem `unsupported_route` */
  route(url: string): Promise<Route>;
  /**
   * Runs `attempt` with the route for `url`; when it fails because the proxy wants a Basic
   * sign-in, signs in and runs it again. Other failures pass through unchanged.
   * @throws ProxyProblem `unsupported_route`, `sign_in_scheme`, `sign_in_cancelled`,
   *   `sign_in_refused` or `sign_in_needed`
   */
  withRoute<T>(url: string, attempt: (route: Route) => Promise<T>): Promise<T>;
}

/** Creates the router. Keeps, per proxy origin, the sign-in in progress and a count of sign-ins. */
export function createProxyRoutes(options: ProxyRoutesOptions): ProxyRoutes {
  const maxRejections = options.maxRejections ?? 5;
  /** Bumped each time new credentials are kept for an origin. */
  const generation = new Map<string, number>();
  /** The sheet open for an origin: every request that meets a 407 meanwhile waits for it. */
  const asking = new Map<string, Promise<BasicCredentials | null>>();

  const credentialsFor = async (choice: Extract<ProxyChoice, { kind: 'proxy' }>) => {
    const found = (await options.credentials.get(choice.proxyUrl)) ?? choice.credentials;
    if (found) registerCredentials(found, options.registerSecret);
    return found;
  };

  const signIn = (origin: string, request: ProxySignInRequest): Promise<BasicCredentials | null> => {
    const open = asking.get(origin);
    if (open) return open;
    const prompt = options.prompt;
    if (!prompt) return Promise.resolve(null);
    const answer = (async () => {
      try {
        const typed = await prompt(request);
        if (!typed) return null;
        registerCredentials(typed, options.registerSecret);
        await options.credentials.set(origin, typed);
        generation.set(origin, (generation.get(origin) ?? 0) + 1);
        return typed;
      } finally {
        asking.delete(origin);
      }
    })();
    asking.set(origin, answer);
    return answer;
  };

  const routeFor = async (choice: ProxyChoice): Promise<Route> => {
    if (choice.kind === 'unsupported') throw new ProxyProblem('unsupported_route', choice.message);
    if (choice.kind === 'direct') return { choice, dispatcher: options.dispatchers.direct() };
    return { choice, dispatcher: options.dispatchers.proxy(choice.proxyUrl, await credentialsFor(choice)) };
  };

  return {
    route: async (url) => routeFor(await options.resolver.resolve(url)),
    async withRoute(url, attempt) {
      let rejections = 0;
      for (;;) {
        const choice = await options.resolver.resolve(url);
        if (choice.kind !== 'proxy') return attempt(await routeFor(choice));
        const used = await credentialsFor(choice);
        const seen = generation.get(choice.proxyUrl) ?? 0;
        const dispatcher = options.dispatchers.proxy(choice.proxyUrl, used);
        try {
          return await attempt({ choice, dispatcher });
        } catch (err) {
          const auth = findProxyAuthRequired(err);
          if (!auth) throw err;
          if (!auth.offersBasic) throw unsupportedSchemeProblem(auth, targetHost(url));
          // Someone signed in to this proxy while this request was on its way: try with theirs.
          if ((generation.get(choice.proxyUrl) ?? 0) !== seen) continue;
          if (used) rejections++;
          if (rejections >= maxRejections) throw refused(auth, rejections);
          const typed = await signIn(choice.proxyUrl, signInRequest(auth, choice.proxyUrl, used));
          if (!typed) throw options.prompt ? cancelled(auth, url) : needed(auth, url, used !== null);
        }
      }
    },
  };
}

function registerCredentials(credentials: BasicCredentials, register: (secret: string) => void): void {
  register(credentials.password);
  register(`${credentials.username}:${credentials.password}`);
  register(basicToken(credentials).slice('Basic '.length));
}

function signInRequest(
  auth: ProxyAuthRequiredError,
  proxyOrigin: string,
  used: BasicCredentials | null,
): ProxySignInRequest {
  return {
    proxyOrigin,
    proxyHost: hostOf(proxyOrigin),
    realm: auth.realm,
    rejected: used !== null,
    username: used?.username ?? null,
  };
}

function targetHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

function cancelled(auth: ProxyAuthRequiredError, url: string): ProxyProblem {
  const proxy = hostOf(auth.proxyOrigin);
  return new ProxyProblem(
    'sign_in_cancelled',
    `Sign-in to the proxy ${proxy} was cancelled, so Voice Review cannot reach ${targetHost(url)}. Try again to sign in.`,
    proxy,
  );
}

function needed(auth: ProxyAuthRequiredError, url: string, refusedGiven: boolean): ProxyProblem {
  const proxy = hostOf(auth.proxyOrigin);
  const asks = refusedGiven ? 'refused the user name and password it was given' : 'asks for a user name and password';
  return new ProxyProblem(
    'sign_in_needed',
    `The proxy ${proxy} ${asks} to reach ${targetHost(url)}. ` +
      'Sign in from the app, or give them in the proxy address (HTTPS_PROXY=http://user:password@host:port).',
    proxy,
  );
}

function refused(auth: ProxyAuthRequiredError, times: number): ProxyProblem {
  const proxy = hostOf(auth.proxyOrigin);
  return new ProxyProblem(
    'sign_in_refused',
    `The proxy ${proxy} refused the user name and password ${times} times. Check them with IT (the account may be locked), then try again.`,
    proxy,
  );
}
