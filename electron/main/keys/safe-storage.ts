/**
 * Electron safeStorage as key storage sees it: the injected interface, what it reports about its
 * backend, and the error helpers shared by the two files key storage keeps in the user-data
 * folder (the backend choice, key-storage-choice.ts, and the encrypted keys,
 * encrypted-file-store.ts).
 */
import { readFile } from 'node:fs/promises';
import type { SecretStorageStatus } from '$shared/contract';
import { ApiError } from '$shared/errors';

/** The part of Electron's `safeStorage` key storage uses (injected so tests run under Node). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text', 'gnome_libsecret', 'kwallet5', ... ('unknown' before app ready). */
  getSelectedStorageBackend?(): string;
  /**
   * Linux only: allows encryption with the hard-coded `basic_text` password. Until it is called
   * with true, Electron reports `basic_text` as not available and encrypt/decrypt throw.
   */
  setUsePlainTextEncryption?(usePlainText: boolean): void;
}

/** The safeStorage backend that only obfuscates with a fixed password (Linux without a keyring). */
export const WEAK_BACKEND = 'basic_text';

/** True when safeStorage would use {@link WEAK_BACKEND}. */
export function isWeak(safeStorage: SafeStorageLike): boolean {
  return safeStorageBackendName(safeStorage) === WEAK_BACKEND;
}

/** Name of safeStorage's backend: Linux reports it; elsewhere it is the platform's own service. */
export function safeStorageBackendName(safeStorage: SafeStorageLike): string {
  if (typeof safeStorage.getSelectedStorageBackend === 'function') {
    try {
      return safeStorage.getSelectedStorageBackend();
    } catch {
      return 'unknown';
    }
  }
  if (process.platform === 'darwin') return 'macos_keychain';
  if (process.platform === 'win32') return 'windows_dpapi';
  return 'unknown';
}

/** `isEncryptionAvailable()`, false when it throws. */
export function encryptionAvailable(safeStorage: SafeStorageLike): boolean {
  try {
    return safeStorage.isEncryptionAvailable();
  } catch {
    return false;
  }
}

/** What settings shows about safeStorage; null when there is none (tests, harness). */
export function safeStorageStatus(safeStorage: SafeStorageLike | null): SecretStorageStatus['safeStorage'] {
  if (!safeStorage) return null;
  const backendName = safeStorageBackendName(safeStorage);
  const weak = backendName === WEAK_BACKEND;
  // With basic_text, Electron says "not available" until setUsePlainTextEncryption(true), which
  // key storage calls only after the user confirmed; so it counts as available (but weak).
  const available =
    encryptionAvailable(safeStorage) || (weak && typeof safeStorage.setUsePlainTextEncryption === 'function');
  return { available, weak, backendName };
}

/**
 * `safeStorage`, ready to encrypt and decrypt the keys of the encrypted file. `weakConfirmed`: the
 * user agreed to the weak backend, so plain-text encryption is switched on for it.
 * @throws ApiError `keychain` when there is no safeStorage or it cannot encrypt now.
 */
export function readySafeStorage(
  safeStorage: SafeStorageLike | null,
  weakConfirmed: boolean,
): { safeStorage: SafeStorageLike; backendName: string } {
  if (!safeStorage) {
    throw storageError(
      'Keys are set to be kept in an encrypted file (Electron safeStorage), but safeStorage is not available in this run of Voice Review. Start Voice Review normally (not from a test harness), then try again.',
    );
  }
  const backendName = safeStorageBackendName(safeStorage);
  if (backendName === WEAK_BACKEND && weakConfirmed) safeStorage.setUsePlainTextEncryption?.(true);
  if (!encryptionAvailable(safeStorage)) {
    throw storageError(
      backendName === WEAK_BACKEND
        ? 'Electron safeStorage no longer finds the keyring it used to encrypt your keys (it now reports basic_text). Start gnome-keyring or KWallet again and restart Voice Review.'
        : `Electron safeStorage cannot encrypt or decrypt right now (backend ${backendName}). Unlock your keyring (gnome-keyring or KWallet), then restart Voice Review.`,
    );
  }
  return { safeStorage, backendName };
}

/** An ApiError of kind `keychain` (key storage failed) with `message`. */
export function storageError(message: string): ApiError {
  return new ApiError({ kind: 'keychain', message });
}

/**
 * The text of a file key storage keeps, or null when there is none.
 * @throws the error `cannotRead` makes of any other read failure (an unreadable folder, say).
 */
export async function readOptionalFile(path: string, cannotRead: (error: unknown) => ApiError): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    if (code === 'ENOENT') return null;
    throw cannotRead(error);
  }
}

/** The message of an Error, or the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
