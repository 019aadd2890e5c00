/**
 * API keys encrypted with Electron safeStorage, in `secrets.enc.json` in the user-data folder:
 * `{version: 1, secrets: {[account]: {encrypted, backend}}}`. `encrypted` is the base64 of
 * `safeStorage.encryptString(key)`, `backend` the safeStorage backend that encrypted it. Never a
 * key in plain text. Written atomically (temp file + rename), mode 0600.
 *
 * Every failure is an ApiError of kind `keychain` (key storage failed) with a sentence saying what
 * to do. Callers run one operation at a time (read-modify-write of the one file).
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { KeyStorageChoice } from './key-storage-choice';
import { writePrivateFile } from '../shell/private-file';
import { messageOf, readOptionalFile, readySafeStorage, storageError, type SafeStorageLike } from './safe-storage';

/** File (in the user-data folder) holding the keys encrypted with safeStorage. */
export const SECRETS_FILE_NAME = 'secrets.enc.json';

const entrySchema = z.object({
  /** base64 of safeStorage.encryptString(key). */
  encrypted: z.string().min(1),
  /** The safeStorage backend that encrypted it ('kwallet5', 'basic_text', ...). */
  backend: z.string(),
});
type Entry = z.infer<typeof entrySchema>;

const fileSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.unknown()) });

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** See {@link createEncryptedFileStore}. `choice` is the active choice (its weak-backend consent). */
interface EncryptedFileStore {
  get(choice: KeyStorageChoice, account: string): Promise<string | null>;
  set(choice: KeyStorageChoice, account: string, secret: string): Promise<void>;
  /** True when there was a key to delete. */
  delete(account: string): Promise<boolean>;
}

/** Parses the secrets file; null when it is not JSON or not of the expected shape. */
function parseSecrets(text: string): Map<string, Entry> | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const top = fileSchema.safeParse(json);
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

/** Creates the store for the user-data folder `dir`; `now` (ms) stamps a damaged file moved aside. */
export function createEncryptedFileStore(
  dir: string,
  safeStorage: SafeStorageLike | null,
  now: () => number,
): EncryptedFileStore {
  return new EncryptedFile(join(dir, SECRETS_FILE_NAME), safeStorage, now);
}

class EncryptedFile implements EncryptedFileStore {
  constructor(
    private readonly path: string,
    private readonly safeStorage: SafeStorageLike | null,
    private readonly now: () => number,
  ) {}

  async get(choice: KeyStorageChoice, account: string): Promise<string | null> {
    const entry = (await this.read()).get(account);
    if (!entry) return null;
    const { safeStorage, backendName } = readySafeStorage(this.safeStorage, choice.weakConfirmed);
    try {
      return safeStorage.decryptString(Buffer.from(entry.encrypted, 'base64'));
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

  async set(choice: KeyStorageChoice, account: string, secret: string): Promise<void> {
    const { safeStorage, backendName } = readySafeStorage(this.safeStorage, choice.weakConfirmed);
    let encrypted: Buffer;
    try {
      encrypted = safeStorage.encryptString(secret);
    } catch (error) {
      const detail = messageOf(error).split(secret).join('[redacted]');
      throw storageError(
        `Electron safeStorage could not encrypt the API key (${detail}). Unlock your keyring (gnome-keyring or KWallet), then try again.`,
      );
    }
    const entries = await this.readForChange();
    entries.set(account, { encrypted: encrypted.toString('base64'), backend: backendName });
    await this.write(entries);
  }

  async delete(account: string): Promise<boolean> {
    const entries = await this.readForChange();
    if (!entries.delete(account)) return false;
    await this.write(entries);
    return true;
  }

  /** The entries of the file (an empty map when there is none), or 'damaged'. */
  private async load(): Promise<Map<string, Entry> | 'damaged'> {
    const text = await readOptionalFile(this.path, (error) =>
      storageError(
        `Voice Review could not read the encrypted key file ${this.path} (${messageOf(error)}). Check that you can read the user-data folder, then try again.`,
      ),
    );
    if (text === null) return new Map();
    return parseSecrets(text) ?? 'damaged';
  }

  /** The entries of the file; a damaged file is an error saying what to do. */
  private async read(): Promise<Map<string, Entry>> {
    const entries = await this.load();
    if (entries === 'damaged') {
      throw storageError(
        `The encrypted key file ${this.path} is damaged, so the API keys in it cannot be read. Enter the API key again (Settings, change key): Voice Review then starts a new file and keeps the damaged one next to it as ${SECRETS_FILE_NAME}.corrupt-<time>.`,
      );
    }
    return entries;
  }

  /**
   * The entries of the file, before a change. Choice: a damaged file is renamed to
   * `secrets.enc.json.corrupt-<time>` (kept, not deleted) and a new one started, so entering a
   * key again is enough to recover.
   */
  private async readForChange(): Promise<Map<string, Entry>> {
    const entries = await this.load();
    if (entries !== 'damaged') return entries;
    const stamp = new Date(this.now()).toISOString().replace(/[:.]/g, '-');
    await rename(this.path, `${this.path}.corrupt-${stamp}`).catch((error: unknown) => {
      throw storageError(
        `The encrypted key file ${this.path} is damaged and could not be moved aside (${messageOf(error)}). Move or delete it yourself, then enter the API keys again.`,
      );
    });
    return new Map();
  }

  private async write(entries: Map<string, Entry>): Promise<void> {
    const file = { version: 1, secrets: Object.fromEntries(entries) };
    try {
      await writePrivateFile(this.path, `${JSON.stringify(file, null, 2)}\n`);
    } catch (error) {
      throw storageError(
        `Voice Review could not write the encrypted key file ${this.path} (${messageOf(error)}). Check that the disk is not full and that you can write to the user-data folder, then try again.`,
      );
    }
  }
}
