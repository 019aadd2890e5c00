/**
 * The keychain's health, found by a probe that writes and deletes the entry
 * {@link KEYCHAIN_PROBE_ACCOUNT}: reading is not enough, because libsecret answers a read on a
 * locked keyring with "no such key" instead of an error, while a write fails with "locked
 * collection". keytar's findCredentials is never called (it segfaults on a locked keyring).
 */
import type { KeychainProblem } from '$shared/contract';
import { ApiError } from '$shared/errors';
import { classifyKeychainError, type SecretStore } from './keychain';

/** Keychain account written and deleted again to find out whether the keychain works. */
export const KEYCHAIN_PROBE_ACCOUNT = '__voice-review-probe__';

const PROBE_VALUE = 'probe, not a secret';

/** What is wrong with the keychain, as settings shows it. */
interface KeychainProblemReport {
  problem: KeychainProblem;
  message: string;
}

/** Options of {@link createKeychainProbe}. */
interface KeychainProbeOptions {
  keychain: SecretStore;
  /** How long a probe result is reused, in milliseconds. */
  cacheMs: number;
  /** How long to wait for the probe before reporting the keychain as not answering, in milliseconds. */
  timeoutMs: number;
  /** Clock, in milliseconds. */
  now: () => number;
}

/** See {@link createKeychainProbe}. */
interface KeychainProbe {
  /** The keychain's problem, or null when it works; from the cache while fresh. Never rejects. */
  problem(): Promise<KeychainProblemReport | null>;
  /**
   * Runs a keychain call for key storage; a keychain failure drops the cached result, and a
   * successful write (`wrote`) drops a cached problem, so the next {@link problem} probes again.
   */
  track<T>(call: () => Promise<T>, wrote?: boolean): Promise<T>;
}

/** Creates the probe. Probes run one at a time; a probe that times out still fills the cache when it ends. */
export function createKeychainProbe(options: KeychainProbeOptions): KeychainProbe {
  const { keychain, cacheMs, timeoutMs, now } = options;
  let cache: { at: number; problem: KeychainProblemReport | null } | null = null;
  let probing: Promise<KeychainProblemReport | null> | null = null;

  async function runProbe(): Promise<KeychainProblemReport | null> {
    let problem: KeychainProblemReport | null = null;
    try {
      await keychain.set(KEYCHAIN_PROBE_ACCOUNT, PROBE_VALUE);
      await keychain.delete(KEYCHAIN_PROBE_ACCOUNT);
    } catch (error) {
      problem = classifyKeychainError(error);
    }
    cache = { at: now(), problem };
    return problem;
  }

  async function problem(): Promise<KeychainProblemReport | null> {
    if (cache && now() - cache.at < cacheMs) return cache.problem;
    probing ??= runProbe().finally(() => {
      probing = null;
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<KeychainProblemReport>((resolve) => {
      timer = setTimeout(() => {
        resolve({
          problem: 'unavailable',
          message: `The system keychain did not answer within ${Math.round(timeoutMs / 1000)} seconds. If a keychain prompt is open, answer it; otherwise restart gnome-keyring or KWallet (or log out and in again).`,
        });
      }, timeoutMs);
      timer.unref();
    });
    try {
      const found = await Promise.race([probing, timedOut]);
      if (found && !cache) cache = { at: now(), problem: found };
      return found;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    problem,
    async track(call, wrote = false) {
      let result;
      try {
        result = await call();
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'keychain') cache = null;
        throw error;
      }
      // The keychain took a write, so a cached problem is out of date.
      if (wrote && cache?.problem) cache = null;
      return result;
    },
  };
}
