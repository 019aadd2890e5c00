/**
 * Key storage with a fallback (issue 4 "Keychain failures"): the OS keychain by default, Electron
 * safeStorage (an encrypted file in the user-data folder) only after the user agreed.
 * STUB: the interface is fixed; the implementation is being written.
 */
import type { SecretStorageStatus } from '../shared/contract';
import type { SecretStore } from './keychain';

/** The part of Electron's `safeStorage` this module uses (injected so tests run under Node). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text', 'gnome_libsecret', 'kwallet5', ... */
  getSelectedStorageBackend?(): string;
}

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
}

/** Creates the key storage. */
export function createKeyStorage(options: KeyStorageOptions): KeyStorage {
  const { keychain } = options;
  return {
    get: (account) => keychain.get(account),
    set: (account, secret) => keychain.set(account, secret),
    delete: (account) => keychain.delete(account),
    async status() {
      return { backend: 'keychain', description: 'System keychain', keychainProblem: null, safeStorage: null };
    },
    async useSafeStorage() {
      throw new Error('not implemented');
    },
  };
}
