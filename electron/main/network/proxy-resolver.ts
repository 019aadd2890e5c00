/**
 * The proxy of each request main makes: Chromium's answer first (Electron's
 * `session.resolveProxy`, which covers the system settings, PAC and WPAD), then the proxy
 * environment variables where Electron gives no answer. See proxy-choice.ts for the rules.
 */
import { choiceFromEnvironment, choiceFromPacAnswer, type ProxyChoice, type ProxyEnvironment } from './proxy-choice';

/** Finds the route of one URL. */
export interface ProxyResolver {
  /** The route for `url` (absolute http/https URL). Never rejects: a failure to ask falls back to the environment. */
  resolve(url: string): Promise<ProxyChoice>;
}

/** What {@link createProxyResolver} asks. */
export interface ProxyResolverOptions {
  /**
   * Chromium's answer for a URL: Electron's `session.defaultSession.resolveProxy` bound to its
   * session, resolving with a PAC-style list (`"PROXY a:1; DIRECT"`). Absent where there is no
   * Electron (the harness, tests): the environment alone then decides.
   */
  resolveProxy?: ((url: string) => Promise<string>) | null;
  /** The environment read for HTTPS_PROXY, HTTP_PROXY, NO_PROXY (normally `process.env`). */
  env: ProxyEnvironment;
  /** How long to wait for Chromium (a PAC script or WPAD may hang), in milliseconds; default 5000. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * A resolver that asks Chromium and falls back to the environment:
 * - Chromium names a proxy, or only routes Voice Review cannot use: that is the choice.
 * - Chromium says DIRECT, answers nothing, fails or takes longer than `timeoutMs`: the
 *   environment decides (a desk that set HTTPS_PROXY meant it, and Chromium reads the
 *   environment itself on Linux only); when the environment names no proxy either, the answer
 *   is direct, with the system's reason kept.
 */
export function createProxyResolver(options: ProxyResolverOptions): ProxyResolver {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async resolve(url) {
      const system = options.resolveProxy ? await askChromium(options.resolveProxy, url, timeoutMs) : null;
      if (system && system.kind !== 'direct') return system;
      const fromEnv = choiceFromEnvironment(url, options.env);
      if (system && fromEnv.kind === 'direct' && fromEnv.source === 'default') return system;
      if (system && fromEnv.kind === 'proxy') {
        return { ...fromEnv, reason: `The system's settings say DIRECT; ${lowerFirst(fromEnv.reason)}` };
      }
      return fromEnv;
    },
  };
}

/** Chromium's choice for `url`, or null when it gave none in time. */
async function askChromium(
  resolveProxy: (url: string) => Promise<string>,
  url: string,
  timeoutMs: number,
): Promise<ProxyChoice | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), timeoutMs);
    timer.unref();
  });
  try {
    const answer = await Promise.race([resolveProxy(url), timeout]);
    return typeof answer === 'string' ? choiceFromPacAnswer(answer) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? `${text[0]?.toLowerCase() ?? ''}${text.slice(1)}` : text;
}
