/**
 * Electron safeStorage as key storage sees it: the injected interface, what it reports about its
 * backend, and the error helpers shared by the two files key storage keeps in the user-data
 * folder (the backend choice, key-storage-choice.ts, and the encrypted keys,
 * encrypted-file-store.ts).
 */
import type { SecretStorageStatus } from '../shared/contract';
import { ApiError } from '../shared/errors';

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

/** An ApiError of kind `keychain` (key storage failed) with `message`. */
export function storageError(message: string): ApiError {
  return new ApiError({ kind: 'keychain', message });
}

/** True when `error` is a Node system error with this `code` (e.g. 'ENOENT'). */
export function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** The message of an Error, or the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
