/**
 * Workspace API keys in the key storage, as the session uses them. A key never appears in an
 * error message from here.
 *
 * A key is bound to the origin it was saved for: its account is `<workspace id>@<origin of the
 * base URL>` ({@link keyAccount}). A settings file edited to point a workspace elsewhere finds no
 * key at the new origin, so the key is never sent there; the workspace asks for its key again.
 *
 * A key that cannot be read (missing, or the key storage failed) is an ApiError of kind
 * `keychain`, not `unauthorized`: the server never saw it, and the renderer's 401 view says "the
 * key was rejected", which would be untrue. The renderer offers to enter the key again for both.
 */
import type { SecretStorageStatus } from '$shared/contract';
import { ApiError } from '$shared/errors';
import type { SecretStore } from './keychain';
import type { KeyStorage } from './secret-storage';
import type { WeakKeyStorageConfirm } from './weak-storage-dialog';
import type { StoredWorkspace } from '../workspaces/settings';
import { badInput, savedBaseUrlError } from '../workspaces/workspace-registry';

/** See {@link createWorkspaceKeys}. */
export interface WorkspaceKeys {
  /**
   * The stored key of a (non-demo) workspace.
   * @throws ApiError `bad_input` when its saved base URL breaks the base URL rule (the key is
   *   not even read, so nothing can send it there); `keychain` when it is missing or the key
   *   storage fails.
   */
  read(workspace: StoredWorkspace): Promise<string>;
  /** Stores a key for the workspace's id and base URL's origin. @throws the key storage's error. */
  store(workspace: KeyOwner, apiKey: string): Promise<void>;
  /**
   * Deletes a workspace's key (the one of its current origin).
   * @throws ApiError `keychain` when the key storage fails.
   */
  remove(workspace: StoredWorkspace): Promise<void>;
  /** Deletes a key that was just stored, ignoring failures (undoing a half-done change). */
  forget(workspace: KeyOwner): Promise<void>;
  /** The key storage's status; never rejects (a failure becomes a keychain problem). */
  status(): Promise<SecretStorageStatus>;
  /**
   * Switches key storage to safeStorage (see KeyStorage.useSafeStorage). When safeStorage is weak
   * and the page confirmed (`confirmWeak`), main asks again in its own dialog first.
   * @throws ApiError `bad_input` when the storage is a plain SecretStore, which cannot switch, or
   *   when the dialog was refused (nothing is saved then).
   */
  useSafeStorage(confirmWeak: boolean): Promise<void>;
}

/**
 * The status of a plain SecretStore, which cannot tell more than its own description. Its backend
 * stays `keychain`: it is where a plain store's keys go as far as the app can switch them.
 */
function plainStoreStatus(store: SecretStore): SecretStorageStatus {
  return {
    backend: 'keychain',
    description: store.description ?? 'A key store that does not report its status',
    keychainProblem: null,
    safeStorage: null,
  };
}

function isKeyStorage(store: SecretStore | KeyStorage): store is KeyStorage {
  const s = store as Partial<KeyStorage>;
  return typeof s.status === 'function' && typeof s.useSafeStorage === 'function';
}

/** Whose key: a workspace's id and the base URL the key is sent to. */
export interface KeyOwner {
  id: string;
  baseUrl: string;
}

/**
 * The key storage account of a workspace's key: `<id>@<origin>`, e.g.
 * `3f2b…@https://api.example.com` (the origin is scheme, host and port of the base URL, so the
 * path may change and the key still applies). A base URL that does not parse keeps its text.
 */
export function keyAccount(owner: KeyOwner): string {
  let origin: string;
  try {
    origin = new URL(owner.baseUrl).origin;
  } catch {
    origin = owner.baseUrl;
  }
  return `${owner.id}@${origin}`;
}

/** The origin a key is bound to, for messages. */
function originOf(baseUrl: string): string {
  return keyAccount({ id: '', baseUrl }).slice(1);
}

/**
 * The error for a workspace whose key is not in storage for its origin (libsecret also says so
 * for a locked item).
 */
function missingKeyError(workspace: StoredWorkspace): ApiError {
  return new ApiError({
    kind: 'keychain',
    message: `The API key for ${workspace.name} is not in the keychain for ${originOf(workspace.baseUrl)} (a key is only sent to the address it was saved for; it may also have been removed, or the keyring is locked). Enter the key again.`,
  });
}

/** A key storage failure as an ApiError; anything else becomes a generic `keychain` error (its text may not be safe to show). */
function asKeychainError(err: unknown, name: string): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError({
    kind: 'keychain',
    message: `The API key for ${name} could not be read from the keychain. Check that the keychain is unlocked and working, then try again.`,
  });
}

/**
 * An API key as entered, trimmed.
 * @throws ApiError `bad_input` when it is empty.
 */
export function checkKey(apiKey: string): string {
  const trimmed = apiKey.trim();
  if (trimmed === '') throw badInput('Enter the API key from the API Keys page of your account settings.');
  return trimmed;
}

const WEAK_NOT_CONFIRMED_MESSAGE =
  'Key storage was not changed: storing keys in a file on this computer without encryption was not confirmed. ' +
  'Keys stay in the system keychain; unlock or install a keyring (gnome-keyring or KWallet) to save them.';

/** Options of {@link createWorkspaceKeys}. */
export interface WorkspaceKeysOptions {
  /**
   * Main's own dialog before keys go to safeStorage's weak backend. Without it the weak backend
   * is refused (nothing can confirm it).
   */
  confirmWeakKeyStorage?: WeakKeyStorageConfirm | undefined;
}

/** Wraps `secrets` (a KeyStorage, or a plain SecretStore in tests and the harness). */
export function createWorkspaceKeys(
  secrets: SecretStore | KeyStorage,
  options: WorkspaceKeysOptions = {},
): WorkspaceKeys {
  /** The last status the key storage reported: its saved backend choice, for when a check fails. */
  let lastStatus: SecretStorageStatus | null = null;
  return {
    async read(workspace) {
      if (workspace.baseUrlProblem !== undefined) throw savedBaseUrlError(workspace);
      let key: string | null;
      try {
        key = await secrets.get(keyAccount(workspace));
      } catch (err) {
        throw asKeychainError(err, workspace.name);
      }
      if (key === null) throw missingKeyError(workspace);
      return key;
    },
    store: (owner, apiKey) => secrets.set(keyAccount(owner), apiKey),
    async remove(workspace) {
      try {
        await secrets.delete(keyAccount(workspace));
      } catch (err) {
        throw asKeychainError(err, workspace.name);
      }
    },
    async forget(owner) {
      await secrets.delete(keyAccount(owner)).catch(() => false);
    },
    async status() {
      if (!isKeyStorage(secrets)) return plainStoreStatus(secrets);
      try {
        lastStatus = await secrets.status();
        return lastStatus;
      } catch (err) {
        // The status is shown in settings; a failure to get it must not take the whole session down.
        // It names the backend last reported (the saved choice), not the keychain by default.
        const message =
          err instanceof ApiError
            ? err.message
            : 'Voice Review could not check the key storage. Restart the app and try again.';
        const known = lastStatus ?? { ...plainStoreStatus(secrets), description: 'Key storage (not checked yet)' };
        return { ...known, keychainProblem: { problem: 'unavailable', message } };
      }
    },
    async useSafeStorage(confirmWeak) {
      if (!isKeyStorage(secrets)) throw badInput('Key storage cannot be changed in this build of Voice Review.');
      // Without the page's confirmation the key storage itself refuses the weak backend, in words.
      if (confirmWeak && (await secrets.status()).safeStorage?.weak === true) {
        const agreed = (await options.confirmWeakKeyStorage?.()) ?? false;
        if (!agreed) throw badInput(WEAK_NOT_CONFIRMED_MESSAGE);
      }
      await secrets.useSafeStorage(confirmWeak);
    },
  };
}
