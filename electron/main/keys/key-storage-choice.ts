/**
 * Which backend key storage uses, and the user's consent to change it: the OS keychain by default,
 * Electron safeStorage (an encrypted file) only after the user agreed, and its weak `basic_text`
 * backend only after a second, explicit confirmation.
 *
 * The choice is kept in `key-storage.json` `{version: 1, backend, weakConfirmed}` in the user-data
 * folder, apart from settings.json on purpose. Missing or unreadable means the keychain.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { SecretStorageStatus } from '$shared/contract';
import { ApiError } from '$shared/errors';
import { writePrivateFile } from '../shell/private-file';
import {
  encryptionAvailable,
  isWeak,
  messageOf,
  readOptionalFile,
  storageError,
  type SafeStorageLike,
} from './safe-storage';

/** File (in the user-data folder) holding the backend choice. */
export const KEY_STORAGE_FILE_NAME = 'key-storage.json';

const choiceSchema = z.object({
  version: z.literal(1),
  backend: z.enum(['keychain', 'safe_storage']),
  /** True when the user confirmed safeStorage's unprotected `basic_text` backend. */
  weakConfirmed: z.boolean(),
});

/** The saved backend choice. */
export type KeyStorageChoice = z.infer<typeof choiceSchema>;

const DEFAULT_CHOICE: KeyStorageChoice = { version: 1, backend: 'keychain', weakConfirmed: false };

const NO_SAFE_STORAGE_MESSAGE =
  'Electron safeStorage is not available in this run of Voice Review, so keys can only be kept in the ' +
  'system keychain. Make the keychain work (see the keychain problem shown in Settings), then try again.';

const NOT_AVAILABLE_MESSAGE =
  'Electron safeStorage cannot encrypt on this system (it found no password manager to hold its ' +
  'encryption key). Unlock or install a keyring (gnome-keyring or KWallet), then try again.';

const WEAK_MESSAGE =
  'On this system safeStorage would only obfuscate the key with a fixed password (basic_text): anyone who ' +
  'can read your files could recover it. Confirm again to use it anyway, or unlock/install a keyring ' +
  '(gnome-keyring or KWallet) instead.';

const FILE_PLACE = 'Encrypted file in the user-data folder';

function badInput(message: string): ApiError {
  return new ApiError({ kind: 'bad_input', message });
}

/** How settings describes the active backend. */
export function backendDescription(choice: KeyStorageChoice, safe: SecretStorageStatus['safeStorage']): string {
  if (choice.backend === 'keychain') {
    if (process.platform === 'darwin') return 'System keychain (macOS Keychain)';
    if (process.platform === 'win32') return 'System keychain (Windows Credential Manager)';
    return 'System keychain (Secret Service)';
  }
  if (!safe) return `${FILE_PLACE} (Electron safeStorage, which is not available in this run of Voice Review)`;
  if (safe.weak) {
    return `${FILE_PLACE} (Electron safeStorage, backend basic_text): NOT protected, the keys are only obfuscated with a fixed password`;
  }
  return `${FILE_PLACE} (Electron safeStorage, backend ${safe.backendName})`;
}

/** See {@link createChoiceStore}. */
interface ChoiceStore {
  /** The saved choice (read once, then kept). @throws ApiError `keychain` when the file cannot be read. */
  load(): Promise<KeyStorageChoice>;
  /**
   * Switches to safeStorage after a test round trip, and saves that choice.
   * @throws ApiError `bad_input` when safeStorage is missing, cannot encrypt, fails the round trip,
   *   or is weak and `confirmWeak` is false; `keychain` when the choice cannot be saved.
   */
  useSafeStorage(confirmWeak: boolean): Promise<void>;
}

/** Creates the choice store for the user-data folder `dir`. */
export function createChoiceStore(dir: string, safeStorage: SafeStorageLike | null): ChoiceStore {
  const path = join(dir, KEY_STORAGE_FILE_NAME);
  let choice: KeyStorageChoice | null = null;

  async function load(): Promise<KeyStorageChoice> {
    if (choice) return choice;
    const text = await readOptionalFile(path, (error) =>
      storageError(
        `Voice Review could not read ${path} (${messageOf(error)}). Check that you can read the user-data folder, then restart Voice Review.`,
      ),
    );
    // Choice: a damaged choice file falls back to the keychain (the default); at worst the user is
    // asked for keys again and offered safeStorage again, whose file is still readable then.
    const parsed = text === null ? null : choiceSchema.safeParse(parseJson(text));
    choice = parsed?.success ? parsed.data : DEFAULT_CHOICE;
    return choice;
  }

  async function useSafeStorage(confirmWeak: boolean): Promise<void> {
    if (!safeStorage) throw badInput(NO_SAFE_STORAGE_MESSAGE);
    const weak = isWeak(safeStorage);
    if (weak && !confirmWeak) throw badInput(WEAK_MESSAGE);
    const plainTextWasOff = weak && !encryptionAvailable(safeStorage);
    if (weak) safeStorage.setUsePlainTextEncryption?.(true);
    try {
      if (!encryptionAvailable(safeStorage)) throw badInput(NOT_AVAILABLE_MESSAGE);
      selfTest(safeStorage);
      const next: KeyStorageChoice = { version: 1, backend: 'safe_storage', weakConfirmed: weak };
      await writePrivateFile(path, `${JSON.stringify(next, null, 2)}\n`);
      choice = next;
    } catch (error) {
      if (plainTextWasOff) safeStorage.setUsePlainTextEncryption?.(false);
      if (error instanceof ApiError) throw error;
      throw storageError(
        `Voice Review could not save the key storage choice in ${path} (${messageOf(error)}). Check that you can write to the user-data folder, then try again.`,
      );
    }
  }

  return { load, useSafeStorage };
}

/** The parsed JSON, or undefined when `text` is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A round trip before switching, so keys are never sent to a backend that cannot return them. */
function selfTest(safeStorage: SafeStorageLike): void {
  const sample = `voice-review-self-test-${randomBytes(4).toString('hex')}`;
  let roundTrip: string;
  try {
    roundTrip = safeStorage.decryptString(safeStorage.encryptString(sample));
  } catch (error) {
    throw badInput(
      `Electron safeStorage failed a test encryption (${messageOf(error)}). Unlock or install a keyring (gnome-keyring or KWallet), then try again.`,
    );
  }
  if (roundTrip !== sample) {
    throw badInput('Electron safeStorage did not give back what it encrypted. Keys stay in the system keychain.');
  }
}
