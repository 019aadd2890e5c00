/**
 * Key storage with a fallback: the OS keychain by default, Electron safeStorage (an encrypted file
 * in the user-data folder) only after the user agreed. This module routes each call to the active
 * backend; the parts live apart:
 * - key-storage-choice.ts: which backend is active (`key-storage.json`) and the consent to switch;
 * - keychain-probe.ts: whether the keychain works (a write + delete probe, cached, with a timeout);
 * - encrypted-file-store.ts: the safeStorage file (`secrets.enc.json`);
 * - safe-storage.ts: what safeStorage reports about itself.
 */
import type { SecretStorageStatus } from '$shared/contract';
import { createEncryptedFileStore } from './encrypted-file-store';
import { checkAccount, checkSecret, type SecretStore } from './keychain';
import { backendDescription, createChoiceStore } from './key-storage-choice';
import { createKeychainProbe } from './keychain-probe';
import { safeStorageStatus, type SafeStorageLike } from './safe-storage';

export { KEY_STORAGE_FILE_NAME } from './key-storage-choice';
export { KEYCHAIN_PROBE_ACCOUNT } from './keychain-probe';
export { SECRETS_FILE_NAME } from './encrypted-file-store';
export type { SafeStorageLike } from './safe-storage';

/** A {@link SecretStore} that also reports and switches its backend. */
export interface KeyStorage extends SecretStore {
  /** Which backend is in use and what is wrong with the keychain, if anything. */
  status(): Promise<SecretStorageStatus>;
  /**
   * Switches to safeStorage. Keys already in the keychain are not moved (they could not be read).
   * @throws ApiError kind 'bad_input' when safeStorage cannot encrypt here, or when it would be
   *   weak (`basic_text`) and `confirmWeak` is false.
   */
  useSafeStorage(confirmWeak: boolean): Promise<void>;
}

/** Options of {@link createKeyStorage}. */
export interface KeyStorageOptions {
  keychain: SecretStore;
  /** Electron's safeStorage, or null where there is none (tests, harness). */
  safeStorage: SafeStorageLike | null;
  /** The user-data folder; the encrypted file and the backend choice live here. */
  dir: string;
  /** How long a keychain probe result is reused by status(), in milliseconds. Default 10 000. */
  probeCacheMs?: number;
  /**
   * How long status() waits for the keychain probe, in milliseconds, before reporting the keychain
   * as not answering (GDBus itself waits 25 s). Default 5 000.
   */
  probeTimeoutMs?: number;
  /** Clock, in milliseconds (tests pass their own). Default `Date.now`. */
  now?: () => number;
}

const DEFAULT_PROBE_CACHE_MS = 10_000;
const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

/**
 * Creates the key storage.
 *
 * - get/set/delete go to the active backend: `options.keychain` (the default) or, after
 *   {@link KeyStorage.useSafeStorage}, the encrypted file. The choice survives restarts.
 * - status() probes the keychain (write + delete of KEYCHAIN_PROBE_ACCOUNT), reusing the
 *   result for `probeCacheMs` unless a keychain call failed meanwhile.
 *
 * Errors of get/set/delete on the encrypted file are ApiError kind 'keychain' (key storage failed)
 * with a sentence saying what to do; bad accounts or keys are kind 'bad_input'.
 */
export function createKeyStorage(options: KeyStorageOptions): KeyStorage {
  const { keychain, safeStorage, dir } = options;
  const now = options.now ?? Date.now;
  const choices = createChoiceStore(dir, safeStorage);
  const file = createEncryptedFileStore(dir, safeStorage, now);
  const probe = createKeychainProbe({
    keychain,
    cacheMs: options.probeCacheMs ?? DEFAULT_PROBE_CACHE_MS,
    timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    now,
  });
  /** Serializes read-modify-write of the secrets file and writes of the choice. */
  let queue: Promise<unknown> = Promise.resolve();
  function serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    async get(account) {
      checkAccount(account);
      const choice = await choices.load();
      if (choice.backend === 'keychain') return probe.track(() => keychain.get(account));
      return serialized(() => file.get(choice, account));
    },
    async set(account, secret) {
      checkAccount(account);
      checkSecret(secret);
      const choice = await choices.load();
      if (choice.backend === 'keychain') return probe.track(() => keychain.set(account, secret), true);
      return serialized(() => file.set(choice, account, secret));
    },
    async delete(account) {
      checkAccount(account);
      const choice = await choices.load();
      if (choice.backend === 'keychain') return probe.track(() => keychain.delete(account));
      return serialized(() => file.delete(account));
    },
    async status(): Promise<SecretStorageStatus> {
      const choice = await choices.load();
      const keychainProblem = await probe.problem();
      const safe = safeStorageStatus(safeStorage);
      return {
        backend: choice.backend,
        description: backendDescription(choice, safe),
        keychainProblem,
        safeStorage: safe,
      };
    },
    useSafeStorage: (confirmWeak) => serialized(() => choices.useSafeStorage(confirmWeak)),
  };
}
