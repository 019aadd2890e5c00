/**
 * Key storage with a fallback (issue 4 "Keychain failures"): the OS keychain by default, Electron
 * safeStorage (an encrypted file in the user-data folder) only after the user agreed.
 *
 * Files in the user-data folder (`dir`):
 * - `key-storage.json` `{version: 1, backend, weakConfirmed}`: which backend is active. Missing or
 *   unreadable means the keychain (the default). Kept apart from settings.json on purpose.
 * - `secrets.enc.json` `{version: 1, secrets: {[account]: {encrypted, backend}}}`: only while
 *   safeStorage is used. `encrypted` is the base64 of `safeStorage.encryptString(key)`, `backend`
 *   the safeStorage backend that encrypted it. Never a key in plain text. Written atomically
 *   (temp file + rename), mode 0600.
 *
 * The keychain's health is found by a probe that writes and deletes the entry
 * {@link KEYCHAIN_PROBE_ACCOUNT}: reading is not enough, because libsecret answers a read on a
 * locked keyring with "no such key" instead of an error, while a write fails with "locked
 * collection". keytar's findCredentials is never called (it segfaults on a locked keyring).
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { KeychainProblem, SecretBackend, SecretStorageStatus } from '../shared/contract';
import { ApiError } from '../shared/errors';
import { writePrivateFile } from './private-file';
import { checkAccount, checkSecret, classifyKeychainError, type SecretStore } from './keychain';

/** The part of Electron's `safeStorage` this module uses (injected so tests run under Node). */
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

/** File (in the user-data folder) holding the backend choice. */
export const KEY_STORAGE_FILE_NAME = 'key-storage.json';
/** File (in the user-data folder) holding the keys encrypted with safeStorage. */
export const SECRETS_FILE_NAME = 'secrets.enc.json';
/** Keychain account written and deleted again to find out whether the keychain works. */
export const KEYCHAIN_PROBE_ACCOUNT = '__voice-review-probe__';

const PROBE_VALUE = 'probe, not a secret';
const DEFAULT_PROBE_CACHE_MS = 10_000;
const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

type Problem = { problem: KeychainProblem; message: string };

const choiceSchema = z.object({
  version: z.literal(1),
  backend: z.enum(['keychain', 'safe_storage']),
  /** True when the user confirmed safeStorage's unprotected `basic_text` backend. */
  weakConfirmed: z.boolean(),
});
type Choice = z.infer<typeof choiceSchema>;

const DEFAULT_CHOICE: Choice = { version: 1, backend: 'keychain', weakConfirmed: false };

const entrySchema = z.object({
  /** base64 of safeStorage.encryptString(key). */
  encrypted: z.string().min(1),
  /** The safeStorage backend that encrypted it ('kwallet5', 'basic_text', ...). */
  backend: z.string(),
});
type Entry = z.infer<typeof entrySchema>;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function badInput(message: string): ApiError {
  return new ApiError({ kind: 'bad_input', message });
}

function storageError(message: string): ApiError {
  return new ApiError({ kind: 'keychain', message });
}

function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Name of safeStorage's backend: Linux reports it; elsewhere it is the platform's own service. */
function safeStorageBackendName(safeStorage: SafeStorageLike): string {
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

function encryptionAvailable(safeStorage: SafeStorageLike): boolean {
  try {
    return safeStorage.isEncryptionAvailable();
  } catch {
    return false;
  }
}

function keychainDescription(): string {
  if (process.platform === 'darwin') return 'System keychain (macOS Keychain)';
  if (process.platform === 'win32') return 'System keychain (Windows Credential Manager)';
  return 'System keychain (Secret Service)';
}

const FILE_PLACE = 'Encrypted file in the user-data folder';

function safeStorageDescription(status: SecretStorageStatus['safeStorage']): string {
  if (!status) return `${FILE_PLACE} (Electron safeStorage, which is not available in this run of Voice Review)`;
  if (status.weak) {
    return `${FILE_PLACE} (Electron safeStorage, backend basic_text): NOT protected, the keys are only obfuscated with a fixed password`;
  }
  return `${FILE_PLACE} (Electron safeStorage, backend ${status.backendName})`;
}

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

/**
 * Creates the key storage (issue 4 "Keychain failures").
 *
 * - get/set/delete go to the active backend: `options.keychain` (the default) or, after
 *   {@link KeyStorage.useSafeStorage}, the encrypted file. The choice survives restarts.
 * - status() probes the keychain (write + delete of {@link KEYCHAIN_PROBE_ACCOUNT}), reusing the
 *   result for `probeCacheMs` unless a keychain call failed meanwhile.
 *
 * Errors of get/set/delete on the encrypted file are ApiError kind 'keychain' (key storage failed)
 * with a sentence saying what to do; bad accounts or keys are kind 'bad_input'.
 */
export function createKeyStorage(options: KeyStorageOptions): KeyStorage {
  const { keychain, safeStorage, dir } = options;
  const probeCacheMs = options.probeCacheMs ?? DEFAULT_PROBE_CACHE_MS;
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const choicePath = join(dir, KEY_STORAGE_FILE_NAME);
  const secretsPath = join(dir, SECRETS_FILE_NAME);

  let choice: Choice | null = null;
  let probeCache: { at: number; problem: Problem | null } | null = null;
  let probing: Promise<Problem | null> | null = null;
  /** Serializes read-modify-write of the secrets file and writes of the choice. */
  let queue: Promise<unknown> = Promise.resolve();

  function serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  // ---- backend choice -------------------------------------------------------------------------

  async function loadChoice(): Promise<Choice> {
    if (choice) return choice;
    let text: string | null = null;
    try {
      text = await readFile(choicePath, 'utf8');
    } catch (error) {
      if (!isErrnoCode(error, 'ENOENT')) {
        throw storageError(
          `Voice Review could not read ${choicePath} (${messageOf(error)}). Check that you can read the user-data folder, then restart Voice Review.`,
        );
      }
    }
    // Choice: a damaged choice file falls back to the keychain (the default); at worst the user is
    // asked for keys again and offered safeStorage again, whose file is still readable then.
    let parsed: Choice = DEFAULT_CHOICE;
    if (text !== null) {
      try {
        parsed = choiceSchema.parse(JSON.parse(text));
      } catch {
        parsed = DEFAULT_CHOICE;
      }
    }
    choice = parsed;
    return parsed;
  }

  async function saveChoice(next: Choice): Promise<void> {
    await writePrivateFile(choicePath, `${JSON.stringify(next, null, 2)}\n`);
    choice = next;
  }

  // ---- keychain probe -------------------------------------------------------------------------

  async function runProbe(): Promise<Problem | null> {
    let problem: Problem | null = null;
    try {
      await keychain.set(KEYCHAIN_PROBE_ACCOUNT, PROBE_VALUE);
      await keychain.delete(KEYCHAIN_PROBE_ACCOUNT);
    } catch (error) {
      problem = classifyKeychainError(error);
    }
    probeCache = { at: now(), problem };
    return problem;
  }

  async function keychainProblem(): Promise<Problem | null> {
    if (probeCache && now() - probeCache.at < probeCacheMs) return probeCache.problem;
    probing ??= runProbe().finally(() => {
      probing = null;
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Problem>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            problem: 'unavailable',
            message: `The system keychain did not answer within ${Math.round(probeTimeoutMs / 1000)} seconds. If a keychain prompt is open, answer it; otherwise restart gnome-keyring or KWallet (or log out and in again).`,
          }),
        probeTimeoutMs,
      );
      timer.unref?.();
    });
    try {
      const problem = await Promise.race([probing, timedOut]);
      if (problem && !probeCache) probeCache = { at: now(), problem };
      return problem;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a keychain call; a keychain failure makes the next status() probe again. */
  async function viaKeychain<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'keychain') probeCache = null;
      throw error;
    }
  }

  // ---- safeStorage ----------------------------------------------------------------------------

  function safeStorageStatus(): SecretStorageStatus['safeStorage'] {
    if (!safeStorage) return null;
    const backendName = safeStorageBackendName(safeStorage);
    const weak = backendName === 'basic_text';
    // With basic_text, Electron says "not available" until setUsePlainTextEncryption(true), which
    // this module calls only after the user confirmed; so it counts as available (but weak).
    const available =
      encryptionAvailable(safeStorage) || (weak && typeof safeStorage.setUsePlainTextEncryption === 'function');
    return { available, weak, backendName };
  }

  /** safeStorage, ready to encrypt and decrypt for the active `safe_storage` backend. */
  function readySafeStorage(active: Choice): { safeStorage: SafeStorageLike; backendName: string } {
    if (!safeStorage) {
      throw storageError(
        'Keys are set to be kept in an encrypted file (Electron safeStorage), but safeStorage is not available in this run of Voice Review. Start Voice Review normally (not from a test harness), then try again.',
      );
    }
    const backendName = safeStorageBackendName(safeStorage);
    if (backendName === 'basic_text' && active.weakConfirmed) safeStorage.setUsePlainTextEncryption?.(true);
    if (!encryptionAvailable(safeStorage)) {
      throw storageError(
        backendName === 'basic_text'
          ? 'Electron safeStorage no longer finds the keyring it used to encrypt your keys (it now reports basic_text). Start gnome-keyring or KWallet again and restart Voice Review.'
          : `Electron safeStorage cannot encrypt or decrypt right now (backend ${backendName}). Unlock your keyring (gnome-keyring or KWallet), then restart Voice Review.`,
      );
    }
    return { safeStorage, backendName };
  }

  /** The entries of the secrets file (an empty map when there is none), or 'damaged'. */
  async function loadSecretsFile(): Promise<Map<string, Entry> | 'damaged'> {
    let text: string;
    try {
      text = await readFile(secretsPath, 'utf8');
    } catch (error) {
      if (isErrnoCode(error, 'ENOENT')) return new Map();
      throw storageError(
        `Voice Review could not read the encrypted key file ${secretsPath} (${messageOf(error)}). Check that you can read the user-data folder, then try again.`,
      );
    }
    return parseSecrets(text) ?? 'damaged';
  }

  /** The entries of the secrets file; a damaged file is an error saying what to do. */
  async function readSecrets(): Promise<Map<string, Entry>> {
    const entries = await loadSecretsFile();
    if (entries === 'damaged') {
      throw storageError(
        `The encrypted key file ${secretsPath} is damaged, so the API keys in it cannot be read. Enter the API key again (Settings, change key): Voice Review then starts a new file and keeps the damaged one next to it as ${SECRETS_FILE_NAME}.corrupt-<time>.`,
      );
    }
    return entries;
  }

  /**
   * The entries of the secrets file, before a change. Choice: a damaged file is renamed to
   * `secrets.enc.json.corrupt-<time>` (kept, not deleted) and a new one started, so entering a
   * key again is enough to recover.
   */
  async function readSecretsForChange(): Promise<Map<string, Entry>> {
    const entries = await loadSecretsFile();
    if (entries !== 'damaged') return entries;
    const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
    await rename(secretsPath, `${secretsPath}.corrupt-${stamp}`).catch((error: unknown) => {
      throw storageError(
        `The encrypted key file ${secretsPath} is damaged and could not be moved aside (${messageOf(error)}). Move or delete it yourself, then enter the API keys again.`,
      );
    });
    return new Map();
  }

  /** Parses the secrets file; null when it is not JSON or not of the expected shape. */
  function parseSecrets(text: string): Map<string, Entry> | null {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return null;
    }
    const top = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.unknown()) }).safeParse(json);
    if (!top.success) return null;
    // Object.entries on the parsed JSON (not on an object zod rebuilt) keeps an account named
    // "__proto__" an ordinary key.
    const raw = (json as { secrets: Record<string, unknown> }).secrets;
    const entries = new Map<string, Entry>();
    for (const [account, value] of Object.entries(raw)) {
      const entry = entrySchema.safeParse(value);
      if (!entry.success || !BASE64.test(entry.data.encrypted)) return null;
      entries.set(account, entry.data);
    }
    return entries;
  }

  async function writeSecrets(entries: Map<string, Entry>): Promise<void> {
    const file = { version: 1, secrets: Object.fromEntries(entries) };
    await writePrivateFile(secretsPath, `${JSON.stringify(file, null, 2)}\n`);
  }

  async function fileGet(active: Choice, account: string): Promise<string | null> {
    const entries = await readSecrets();
    const entry = entries.get(account);
    if (!entry) return null;
    const { safeStorage: ss, backendName } = readySafeStorage(active);
    try {
      return ss.decryptString(Buffer.from(entry.encrypted, 'base64'));
    } catch {
      const changed =
        entry.backend !== backendName
          ? ` It was encrypted with backend ${entry.backend}; safeStorage now uses ${backendName}.`
          : '';
      throw storageError(
        `The API key in the encrypted key file could not be decrypted.${changed} Enter the API key again (Settings, change key) to store it anew.`,
      );
    }
  }

  async function fileSet(active: Choice, account: string, secret: string): Promise<void> {
    const { safeStorage: ss, backendName } = readySafeStorage(active);
    let encrypted: Buffer;
    try {
      encrypted = ss.encryptString(secret);
    } catch (error) {
      const detail = messageOf(error).split(secret).join('[redacted]');
      throw storageError(
        `Electron safeStorage could not encrypt the API key (${detail}). Unlock your keyring (gnome-keyring or KWallet), then try again.`,
      );
    }
    const entries = await readSecretsForChange();
    entries.set(account, { encrypted: encrypted.toString('base64'), backend: backendName });
    await writeSecretsOrExplain(entries);
  }

  async function fileDelete(account: string): Promise<boolean> {
    const entries = await readSecretsForChange();
    if (!entries.delete(account)) return false;
    await writeSecretsOrExplain(entries);
    return true;
  }

  async function writeSecretsOrExplain(entries: Map<string, Entry>): Promise<void> {
    try {
      await writeSecrets(entries);
    } catch (error) {
      throw storageError(
        `Voice Review could not write the encrypted key file ${secretsPath} (${messageOf(error)}). Check that the disk is not full and that you can write to the user-data folder, then try again.`,
      );
    }
  }

  // ---- the store --------------------------------------------------------------------------------

  return {
    async get(account) {
      checkAccount(account);
      const active = await loadChoice();
      if (active.backend === 'keychain') return viaKeychain(() => keychain.get(account));
      return serialized(() => fileGet(active, account));
    },

    async set(account, secret) {
      checkAccount(account);
      checkSecret(secret);
      const active = await loadChoice();
      if (active.backend === 'keychain') {
        await viaKeychain(() => keychain.set(account, secret));
        // The keychain took a write, so a cached problem is out of date.
        if (probeCache?.problem) probeCache = null;
        return;
      }
      return serialized(() => fileSet(active, account, secret));
    },

    async delete(account) {
      checkAccount(account);
      const active = await loadChoice();
      if (active.backend === 'keychain') return viaKeychain(() => keychain.delete(account));
      return serialized(() => fileDelete(account));
    },

    async status() {
      const active = await loadChoice();
      const problem = await keychainProblem();
      const safe = safeStorageStatus();
      const backend: SecretBackend = active.backend;
      return {
        backend,
        description: backend === 'keychain' ? keychainDescription() : safeStorageDescription(safe),
        keychainProblem: problem,
        safeStorage: safe,
      };
    },

    useSafeStorage(confirmWeak) {
      return serialized(async () => {
        if (!safeStorage) throw badInput(NO_SAFE_STORAGE_MESSAGE);
        const weak = safeStorageBackendName(safeStorage) === 'basic_text';
        if (weak && !confirmWeak) throw badInput(WEAK_MESSAGE);
        const plainTextWasOff = weak && !encryptionAvailable(safeStorage);
        if (weak) safeStorage.setUsePlainTextEncryption?.(true);
        try {
          if (!encryptionAvailable(safeStorage)) throw badInput(NOT_AVAILABLE_MESSAGE);
          // A round trip before switching, so keys are never sent to a backend that cannot return them.
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
            throw badInput(
              'Electron safeStorage did not give back what it encrypted. Keys stay in the system keychain.',
            );
          }
          await saveChoice({ version: 1, backend: 'safe_storage', weakConfirmed: weak });
        } catch (error) {
          if (plainTextWasOff) safeStorage.setUsePlainTextEncryption?.(false);
          if (error instanceof ApiError) throw error;
          throw storageError(
            `Voice Review could not save the key storage choice in ${choicePath} (${messageOf(error)}). Check that you can write to the user-data folder, then try again.`,
          );
        }
      });
    },
  };
}
