/**
 * The API key's only home outside memory: the OS keychain, reached through keytar
 * (Secret Service via libsecret on Linux, Keychain on macOS, Credential Manager on Windows).
 *
 * Entries are stored under service 'Voice Review' with the workspace id as the account, so each
 * workspace has its own key. Only the main process imports this file.
 *
 * Every failure is a {@link KeychainError} (an {@link ApiError} of kind 'keychain' that also names
 * the {@link KeychainProblem}), or an ApiError of kind 'bad_input' for a bad account or secret; the
 * message tells a support person what to do. Messages never contain the secret.
 *
 * keytar.findCredentials is deliberately never called: it crashes the process (segfault) when the
 * keyring is locked, so {@link KeytarLike} does not even declare it.
 */
import { createRequire } from 'node:module';
import type { KeychainProblem } from '$shared/contract';
import { ApiError } from '$shared/errors';

/** Where API keys are kept, one per account (the workspace id). */
export interface SecretStore {
  /**
   * The secret stored for `account`, or null when there is none.
   *
   * On Linux, null also comes back when the keyring is locked and the unlock prompt could not be
   * shown or was dismissed: libsecret reports a locked item as missing, not as an error. So treat
   * null as "ask the user for the key again"; the following {@link SecretStore.set} then raises the
   * "Unlock your login keyring" error if the keyring is still locked.
   *
   * @throws ApiError kind 'bad_input' for an empty or over-long account, kind 'keychain' when the
   *   keychain cannot be reached or keytar cannot be loaded.
   */
  get(account: string): Promise<string | null>;
  /**
   * Stores `secret` for `account`, replacing any earlier one.
   *
   * @throws ApiError kind 'bad_input' for an empty or over-long account or an empty secret,
   *   kind 'keychain' when the keychain is unreachable, locked, or refuses the write.
   */
  set(account: string, secret: string): Promise<void>;
  /**
   * Removes the secret for `account`. Resolves true when one was removed, false when there was none.
   *
   * On Linux a locked keyring also gives false (libsecret cannot see the locked item).
   *
   * @throws ApiError kind 'bad_input' for an empty or over-long account, kind 'keychain' when the
   *   keychain cannot be reached or keytar cannot be loaded.
   */
  delete(account: string): Promise<boolean>;
  /**
   * How settings names this store when it cannot report a status of its own (a plain store is
   * not a {@link KeyStorage}); absent for the keychain itself.
   */
  readonly description?: string;
}

/**
 * The part of keytar's API this module uses. findCredentials is left out on purpose: it segfaults
 * on a locked keyring.
 */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** Options for {@link createKeytarStore}. */
export interface KeytarStoreOptions {
  /** Keychain service name; 'Voice Review' unless a test needs its own. */
  service?: string;
  /**
   * Loads keytar. Called on first use, not at import, so a keytar built for another runtime
   * (NODE_MODULE_VERSION mismatch) or a missing libsecret becomes an ApiError instead of a crash.
   * Defaults to `require('keytar')`.
   */
  loadKeytar?: () => KeytarLike;
}

/** The keychain service name every Voice Review entry is stored under. */
export const KEYCHAIN_SERVICE = 'Voice Review';

/** Longest accepted account (`<workspace id>@<origin>`), in characters. */
const MAX_ACCOUNT_LENGTH = 400;

const UNREACHABLE_MESSAGE =
  'Voice Review could not reach the system keychain (Secret Service). ' +
  'Install and start gnome-keyring or KWallet, then try again.';

const LOCKED_MESSAGE =
  'Unlock your login keyring (for example in the Passwords and Keys app, or by logging out and in ' +
  'again), then try again. If a keychain prompt appears, accept it instead of cancelling it.';

const TIMEOUT_MESSAGE =
  'The system keychain did not answer in time. If a keychain prompt is open, answer it; otherwise ' +
  'restart gnome-keyring or KWallet (or log out and in again), then try again.';

const LOAD_MESSAGE =
  'The keychain module could not be loaded (keytar was built for a different Electron or Node.js ' +
  'version, or libsecret is missing). Reinstall Voice Review; from source, run ' +
  '"npm run rebuild:electron".';

/**
 * libsecret / GDBus messages meaning no Secret Service can be talked to. Observed with keytar 7.9:
 * - no DBUS_SESSION_BUS_ADDRESS and no DISPLAY: "Cannot autolaunch D-Bus without X11 $DISPLAY"
 * - bus address pointing nowhere: "Could not connect: No such file or directory"
 * - a bus with no keyring daemon installed:
 *   "The name org.freedesktop.secrets was not provided by any .service files"
 */
const UNREACHABLE_PATTERNS = [
  /cannot autolaunch d-bus/i,
  /could not connect/i,
  /not provided by any \.service files/i,
  /org\.freedesktop\.DBus\.Error\.(ServiceUnknown|NoServer|FileNotFound|Spawn)/i,
  /failed to connect to socket/i,
];

/**
 * libsecret messages meaning the keyring exists but is locked or its prompt was refused. Observed:
 * - locked collection, prompt could not be shown: "Cannot create an item in a locked collection"
 * - no login keyring yet and its creation prompt failed:
 *   "Object does not exist at path “/org/freedesktop/secrets/collection/login”"
 */
const LOCKED_PATTERNS = [
  /locked collection/i,
  /is ?locked/i,
  /object does not exist at path .*\/collection\//i,
  /no such secret collection/i,
  /prompt.*(dismissed|cancel)/i,
  /(dismissed|cancel).*prompt/i,
];

type KeychainAction = 'read' | 'store' | 'delete';

/**
 * An ApiError of kind 'keychain' that also says which {@link KeychainProblem} it is, so key storage
 * can report it in settings (and offer safeStorage instead). Every keychain failure this module
 * throws is one; over IPC it travels as a plain ApiError (`toData()` has no `problem`).
 */
export class KeychainError extends ApiError {
  /** Why the keychain cannot be used: 'unavailable', 'locked' or 'not_loaded'. */
  readonly problem: KeychainProblem;

  constructor(problem: KeychainProblem, message: string) {
    super({ kind: 'keychain', message });
    this.problem = problem;
  }
}

/**
 * What a keychain failure means for the user: which {@link KeychainProblem} and a sentence saying
 * what to do. Accepts a {@link KeychainError}, any other ApiError (reported as 'unavailable' with its
 * own message), or a raw keytar/libsecret error (classified like the store does).
 */
export function classifyKeychainError(error: unknown): { problem: KeychainProblem; message: string } {
  const classified = error instanceof ApiError ? error : toKeychainError(error, 'store');
  if (classified instanceof KeychainError) return { problem: classified.problem, message: classified.message };
  return { problem: 'unavailable', message: classified.message };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}

/** Maps whatever keytar threw to an ApiError; `secret` is scrubbed from any text passed through. */
function toKeychainError(error: unknown, action: KeychainAction, secret?: string): ApiError {
  if (error instanceof ApiError) return error;
  const raw = messageOf(error);
  if (UNREACHABLE_PATTERNS.some((p) => p.test(raw))) {
    return new KeychainError('unavailable', UNREACHABLE_MESSAGE);
  }
  // GDBus gives up after 25 s, e.g. when the keyring daemon hangs or a prompt waits for an answer.
  // Reported as 'unavailable': the keychain cannot be used now, whatever the cause.
  if (/timeout was reached/i.test(raw)) {
    return new KeychainError('unavailable', TIMEOUT_MESSAGE);
  }
  if (LOCKED_PATTERNS.some((p) => p.test(raw))) {
    return new KeychainError('locked', LOCKED_MESSAGE);
  }
  const detail = secret ? raw.split(secret).join('[redacted]') : raw;
  return new KeychainError(
    'unavailable',
    `The system keychain could not ${action} the API key (${detail}). Check that the keychain is unlocked and working, then try again.`,
  );
}

/**
 * Checks an account (`<workspace id>@<origin>`) before any storage is touched.
 * @throws ApiError kind 'bad_input' when it is empty or longer than 200 characters.
 */
export function checkAccount(account: string): void {
  if (typeof account !== 'string' || account.length === 0) {
    throw new ApiError({ kind: 'bad_input', message: 'The keychain account is empty.' });
  }
  if (account.length > MAX_ACCOUNT_LENGTH) {
    throw new ApiError({
      kind: 'bad_input',
      message: `The keychain account is longer than ${MAX_ACCOUNT_LENGTH} characters.`,
    });
  }
}

/**
 * Checks a secret (API key) before it is stored.
 * @throws ApiError kind 'bad_input' when it is empty or only white space.
 */
export function checkSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.trim().length === 0) {
    throw new ApiError({ kind: 'bad_input', message: 'The API key is empty.' });
  }
}

function requireKeytar(): KeytarLike {
  // createRequire instead of a top-level import: keytar is a native module and must only load
  // when first used (see KeytarStoreOptions.loadKeytar).
  const require = createRequire(import.meta.url);
  return require('keytar') as KeytarLike;
}

function isKeytarLike(value: unknown): value is KeytarLike {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.getPassword === 'function' && typeof v.setPassword === 'function' && typeof v.deletePassword === 'function'
  );
}

/**
 * A {@link SecretStore} backed by the OS keychain through keytar.
 *
 * keytar is loaded on first use; a failed load throws ApiError kind 'keychain' ("The keychain
 * module could not be loaded ...") and is retried on the next call.
 */
export function createKeytarStore(options: KeytarStoreOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const loadKeytar = options.loadKeytar ?? requireKeytar;
  let keytar: KeytarLike | undefined;

  function load(): KeytarLike {
    if (keytar) return keytar;
    let loaded: unknown;
    try {
      loaded = loadKeytar();
    } catch (error) {
      throw new KeychainError('not_loaded', `${LOAD_MESSAGE} Details: ${messageOf(error)}`);
    }
    if (!isKeytarLike(loaded)) {
      throw new KeychainError('not_loaded', `${LOAD_MESSAGE} Details: keytar has no password functions.`);
    }
    keytar = loaded;
    return keytar;
  }

  /** Runs one keytar call; its failure becomes the {@link KeychainError} for `action`, without `secret`. */
  async function run<T>(action: KeychainAction, call: (k: KeytarLike) => Promise<T>, secret?: string): Promise<T> {
    const k = load();
    try {
      return await call(k);
    } catch (error) {
      throw toKeychainError(error, action, secret);
    }
  }

  return {
    async get(account) {
      checkAccount(account);
      return await run('read', (k) => k.getPassword(service, account));
    },
    async set(account, secret) {
      checkAccount(account);
      checkSecret(secret);
      await run('store', (k) => k.setPassword(service, account, secret), secret);
    },
    async delete(account) {
      checkAccount(account);
      return await run('delete', (k) => k.deletePassword(service, account));
    },
  };
}

/** How settings names the in-memory store: what it is, and that nothing outlives the run. */
export const MEMORY_STORE_DESCRIPTION = 'Memory of this run only (a stand-in for the keychain): keys are not saved';

/**
 * A {@link SecretStore} that keeps secrets in this process's memory only, with the same input
 * checks as the keychain store. For the demo workspace (whose key is not secret) and for tests of
 * modules that need a store.
 */
export function createMemoryStore(): SecretStore {
  const secrets = new Map<string, string>();
  // Promise.resolve().then: a bad account rejects, as it does with the keychain, instead of throwing.
  return {
    description: MEMORY_STORE_DESCRIPTION,
    get: (account) =>
      Promise.resolve().then(() => {
        checkAccount(account);
        return secrets.get(account) ?? null;
      }),
    set: (account, secret) =>
      Promise.resolve().then(() => {
        checkAccount(account);
        checkSecret(secret);
        secrets.set(account, secret);
      }),
    delete: (account) =>
      Promise.resolve().then(() => {
        checkAccount(account);
        return secrets.delete(account);
      }),
  };
}
