import { spawnSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createKeytarStore, KEYCHAIN_SERVICE, type KeytarLike } from '../../../electron/main/keys/keychain';
import {
  createKeyStorage,
  KEY_STORAGE_FILE_NAME,
  KEYCHAIN_PROBE_ACCOUNT,
  SECRETS_FILE_NAME,
  type KeyStorageOptions,
  type SafeStorageLike,
} from '../../../electron/main/keys/secret-storage';
import type { SecretStorageStatus } from '../../../electron/shared/contract';
import { ApiError } from '../../../electron/shared/errors';
import {
  onPrivateBus,
  isolatedEnv,
  jsonLines,
  missingBusTools,
  NO_BUS_REASON,
  NO_TOOLS_REASON,
} from '../../fixtures/private-bus';
import { objectWith, textMatching } from '../../fixtures/matchers';
import { REPO_ROOT } from '../../fixtures/paths';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const STATUS_PROBE = fileURLToPath(new URL('../../fixtures/keychain-status.ts', import.meta.url));

const tempDir = () => temporaryFolder('voice-review-key-storage-');

/** libsecret's message when a write meets a locked collection and no prompt can be shown. */
const LOCKED_COLLECTION = 'Cannot create an item in a locked collection';

/**
 * A keytar stand-in keeping entries in a Map; `failWith` makes every call throw that message (as
 * libsecret does), `hang` makes setPassword never answer. Counts setPassword calls (probes).
 */
function fakeKeytar() {
  const entries = new Map<string, string>();
  const state = { failWith: null as string | null, hang: false, setCalls: 0 };
  const keytar: KeytarLike = {
    getPassword(_service, account) {
      if (state.failWith) return Promise.reject(new Error(state.failWith));
      return Promise.resolve(entries.get(account) ?? null);
    },
    setPassword(_service, account, password) {
      state.setCalls += 1;
      if (state.hang) return new Promise<void>(() => undefined);
      if (state.failWith) return Promise.reject(new Error(state.failWith));
      entries.set(account, password);
      return Promise.resolve();
    },
    deletePassword(_service, account) {
      if (state.failWith) return Promise.reject(new Error(state.failWith));
      return Promise.resolve(entries.delete(account));
    },
  };
  return { entries, state, store: createKeytarStore({ loadKeytar: () => keytar }) };
}

const TEST_KEY = randomBytes(32);

/**
 * A safeStorage that really encrypts (AES-256-GCM under a per-run test key, "v11" prefix like
 * Chromium), so the file on disk holds ciphertext. `key` lets a test simulate another machine key.
 */
function encryptingSafeStorage(backend = 'gnome_libsecret', key = TEST_KEY): SafeStorageLike {
  return {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => backend,
    encryptString(plainText) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from('v11'), iv, cipher.getAuthTag(), body]);
    },
    decryptString(encrypted) {
      if (encrypted.subarray(0, 3).toString() !== 'v11') throw new Error('Ciphertext does not appear to be encrypted.');
      const decipher = createDecipheriv('aes-256-gcm', key, encrypted.subarray(3, 15));
      decipher.setAuthTag(encrypted.subarray(15, 31));
      return Buffer.concat([decipher.update(encrypted.subarray(31)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * safeStorage as Electron behaves on Linux without a keyring: backend 'basic_text', not available
 * (encrypt/decrypt throw) until setUsePlainTextEncryption(true); then a fixed key ("peanuts").
 */
function basicTextSafeStorage() {
  const fixedKey = Buffer.alloc(32, 'peanuts');
  const inner = encryptingSafeStorage('basic_text', fixedKey);
  const state = { plainText: false };
  const safeStorage: SafeStorageLike = {
    isEncryptionAvailable: () => state.plainText,
    getSelectedStorageBackend: () => 'basic_text',
    setUsePlainTextEncryption: (use) => {
      state.plainText = use;
    },
    encryptString(plainText) {
      if (!state.plainText)
        throw new Error(
          'Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.',
        );
      return inner.encryptString(plainText);
    },
    decryptString(encrypted) {
      if (!state.plainText)
        throw new Error(
          'Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.',
        );
      return inner.decryptString(encrypted);
    },
  };
  return { safeStorage, state };
}

function storage(overrides: Partial<KeyStorageOptions> = {}) {
  const keytar = fakeKeytar();
  const dir = overrides.dir ?? tempDir();
  const keyStorage = createKeyStorage({
    keychain: keytar.store,
    safeStorage: encryptingSafeStorage(),
    dir,
    ...overrides,
  });
  return { keytar, dir, keyStorage };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const UNLOCK = /^Unlock your login keyring/;
const CANNOT_REACH =
  /could not reach the system keychain \(Secret Service\)\. Install and start gnome-keyring or KWallet/;

describe('the default backend: the OS keychain', () => {
  it('stores keys in the keychain and reports it, with no problem while the keychain works', async () => {
    const { keytar, dir, keyStorage } = storage();
    await keyStorage.set('workspace-1', 'sk-live-abc');
    expect(keytar.entries.get('workspace-1')).toBe('sk-live-abc');
    expect(await keyStorage.get('workspace-1')).toBe('sk-live-abc');

    const status = await keyStorage.status();
    expect(status).toEqual({
      backend: 'keychain',
      description: 'System keychain (Secret Service)',
      keychainProblem: null,
      safeStorage: { available: true, weak: false, backendName: 'gnome_libsecret' },
    });
    // The probe wrote and removed its entry; nothing but the key is left, and no file was written.
    expect([...keytar.entries.keys()]).toEqual(['workspace-1']);
    expect(existsSync(join(dir, SECRETS_FILE_NAME))).toBe(false);
    expect(existsSync(join(dir, KEY_STORAGE_FILE_NAME))).toBe(false);

    expect(await keyStorage.delete('workspace-1')).toBe(true);
    expect(keytar.entries.has('workspace-1')).toBe(false);
  });

  it('reports a locked keyring with the unlock instruction (a write fails, as libsecret does)', async () => {
    const { keytar, keyStorage } = storage();
    keytar.state.failWith = LOCKED_COLLECTION;
    const status = await keyStorage.status();
    expect(status.backend).toBe('keychain');
    expect(status.keychainProblem).toEqual({ problem: 'locked', message: textMatching(UNLOCK) });
  });

  it('reports an unreachable Secret Service with what to install', async () => {
    const { keytar, keyStorage } = storage();
    keytar.state.failWith = 'Could not connect: No such file or directory';
    expect((await keyStorage.status()).keychainProblem).toEqual({
      problem: 'unavailable',
      message: textMatching(CANNOT_REACH),
    });
  });

  it('reports keytar that cannot be loaded as not_loaded, and get fails with an ApiError, not a crash', async () => {
    const keyStorage = createKeyStorage({
      keychain: createKeytarStore({
        loadKeytar: () => {
          throw new Error('was compiled against a different Node.js version using NODE_MODULE_VERSION 115');
        },
      }),
      safeStorage: null,
      dir: tempDir(),
    });
    const status = await keyStorage.status();
    expect(status.keychainProblem).toEqual({
      problem: 'not_loaded',
      message: textMatching(/^The keychain module could not be loaded.*Reinstall Voice Review/),
    });
    expect(status.safeStorage).toBeNull();
    const error = await rejection(keyStorage.get('workspace-1'));
    expect(error.kind).toBe('keychain');
  });
});

describe('the keychain probe: caching, timeouts and input checks', () => {
  it('probes at most once per cache period, and again at once after a keychain call failed', async () => {
    let clockMs = 1_000_000;
    const { keytar, keyStorage } = storage({ now: () => clockMs, probeCacheMs: 10_000 });
    expect((await keyStorage.status()).keychainProblem).toBeNull();
    expect((await keyStorage.status()).keychainProblem).toBeNull();
    expect(keytar.state.setCalls).toBe(1);

    // The keyring gets locked: the cached answer stands until a keychain call fails...
    keytar.state.failWith = LOCKED_COLLECTION;
    expect((await keyStorage.status()).keychainProblem).toBeNull();
    const error = await rejection(keyStorage.set('workspace-1', 'sk-live-abc'));
    expect(error.message).toMatch(UNLOCK);
    // ...which makes the next status probe again, without waiting for the cache to expire.
    expect((await keyStorage.status()).keychainProblem?.problem).toBe('locked');

    // Unlocked again: seen once the cache period is over.
    keytar.state.failWith = null;
    clockMs += 10_001;
    expect((await keyStorage.status()).keychainProblem).toBeNull();
  });

  it('reports a keychain that does not answer the probe in time, instead of hanging the settings view', async () => {
    const { keytar, keyStorage } = storage({ probeTimeoutMs: 50 });
    keytar.state.hang = true;
    const status = await keyStorage.status();
    expect(status.keychainProblem).toEqual({
      problem: 'unavailable',
      message: textMatching(/did not answer within .* If a keychain prompt is open, answer it/),
    });
  });

  it('refuses an empty account or key as bad_input before touching any storage', async () => {
    const { keytar, keyStorage } = storage();
    expect((await rejection(keyStorage.get(''))).kind).toBe('bad_input');
    expect((await rejection(keyStorage.set('workspace-1', '  '))).kind).toBe('bad_input');
    expect(keytar.state.setCalls).toBe(0);
  });
});

describe('safeStorage as reported in status', () => {
  it('is null when there is no safeStorage (end-to-end harness)', async () => {
    const { keyStorage } = storage({ safeStorage: null });
    expect((await keyStorage.status()).safeStorage).toBeNull();
  });

  it('is reported weak with basic_text, and available because the user may still confirm it', async () => {
    const { keyStorage } = storage({ safeStorage: basicTextSafeStorage().safeStorage });
    expect((await keyStorage.status()).safeStorage).toEqual({ available: true, weak: true, backendName: 'basic_text' });
  });

  it('is reported not available when it cannot encrypt', async () => {
    const safeStorage = { ...encryptingSafeStorage('kwallet5'), isEncryptionAvailable: () => false };
    const { keyStorage } = storage({ safeStorage });
    expect((await keyStorage.status()).safeStorage).toEqual({ available: false, weak: false, backendName: 'kwallet5' });
  });
});

describe('switching to safeStorage', () => {
  it('refuses when there is no safeStorage, saying why, and keeps the keychain', async () => {
    const { dir, keyStorage } = storage({ safeStorage: null });
    const error = await rejection(keyStorage.useSafeStorage(true));
    expect(error).toMatchObject({
      kind: 'bad_input',
      message: textMatching(/^Electron safeStorage is not available/),
    });
    expect((await keyStorage.status()).backend).toBe('keychain');
    expect(existsSync(join(dir, KEY_STORAGE_FILE_NAME))).toBe(false);
  });

  it('refuses when safeStorage cannot encrypt here', async () => {
    const safeStorage = { ...encryptingSafeStorage('kwallet5'), isEncryptionAvailable: () => false };
    const { keyStorage } = storage({ safeStorage });
    const error = await rejection(keyStorage.useSafeStorage(false));
    expect(error).toMatchObject({
      kind: 'bad_input',
      message: textMatching(/cannot encrypt on this system.*Unlock or install a keyring/),
    });
    expect((await keyStorage.status()).backend).toBe('keychain');
  });

  it('refuses the weak basic_text backend without a second confirmation, and accepts it with one', async () => {
    const basic = basicTextSafeStorage();
    const { keytar, dir, keyStorage } = storage({ safeStorage: basic.safeStorage });
    const refused = await rejection(keyStorage.useSafeStorage(false));
    expect(refused.kind).toBe('bad_input');
    expect(refused.message).toMatch(/only obfuscate the key with a fixed password \(basic_text\)/);
    expect(refused.message).toMatch(/Confirm again to use it anyway, or unlock\/install a keyring/);
    expect((await keyStorage.status()).backend).toBe('keychain');
    expect(basic.state.plainText).toBe(false);

    await keyStorage.useSafeStorage(true);
    const status = await keyStorage.status();
    expect(status.backend).toBe('safe_storage');
    expect(status.description).toMatch(/basic_text\): NOT protected/);
    expect(status.safeStorage).toEqual({ available: true, weak: true, backendName: 'basic_text' });

    await keyStorage.set('workspace-1', 'sk-live-weak');
    expect(keytar.entries.has('workspace-1')).toBe(false);
    expect(readFileSync(join(dir, SECRETS_FILE_NAME)).includes('sk-live-weak')).toBe(false);

    // After a restart Electron starts with plain-text encryption off again; the saved confirmation
    // turns it back on, so the key can still be read.
    const restarted = basicTextSafeStorage();
    const again = createKeyStorage({ keychain: fakeKeytar().store, safeStorage: restarted.safeStorage, dir });
    expect(await again.get('workspace-1')).toBe('sk-live-weak');
    expect(restarted.state.plainText).toBe(true);
  });
});

describe('the encrypted file after switching to safeStorage', () => {
  it('keeps keys in an encrypted file after the switch: round trip, no plaintext, mode 0600, keychain untouched', async () => {
    const { keytar, dir, keyStorage } = storage();
    keytar.state.failWith = LOCKED_COLLECTION;
    expect((await keyStorage.status()).keychainProblem?.problem).toBe('locked');

    await keyStorage.useSafeStorage(false);
    const status = await keyStorage.status();
    expect(status.backend).toBe('safe_storage');
    expect(status.description).toBe(
      'Encrypted file in the user-data folder (Electron safeStorage, backend gnome_libsecret)',
    );
    // The keychain is still locked, and settings keep saying so.
    expect(status.keychainProblem?.problem).toBe('locked');

    const secret = 'sk-live-5f0c1e2d-ключ-🔑';
    await keyStorage.set('workspace-1', secret);
    await keyStorage.set('__proto__', 'sk-live-odd-id');
    expect(await keyStorage.get('workspace-1')).toBe(secret);
    expect(await keyStorage.get('__proto__')).toBe('sk-live-odd-id');
    expect(await keyStorage.get('workspace-2')).toBeNull();
    expect(keytar.entries.size).toBe(0);

    const path = join(dir, SECRETS_FILE_NAME);
    const bytes = readFileSync(path);
    for (const needle of [secret, 'sk-live-5f0c1e2d', 'sk-live-odd-id', Buffer.from(secret).toString('base64')]) {
      expect(bytes.includes(Buffer.from(needle)), `the file contains ${needle}`).toBe(false);
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // No temp files left behind by the atomic writes.
    expect(readdirSync(dir).sort()).toEqual([KEY_STORAGE_FILE_NAME, SECRETS_FILE_NAME]);
  });

  it('remembers the choice: a new key storage over the same folder uses the encrypted file', async () => {
    const { dir, keyStorage } = storage();
    await keyStorage.useSafeStorage(false);
    await keyStorage.set('workspace-1', 'sk-live-kept');
    expect(JSON.parse(readFileSync(join(dir, KEY_STORAGE_FILE_NAME), 'utf8'))).toEqual({
      version: 1,
      backend: 'safe_storage',
      weakConfirmed: false,
    });

    const keytar = fakeKeytar();
    const restarted = createKeyStorage({ keychain: keytar.store, safeStorage: encryptingSafeStorage(), dir });
    expect((await restarted.status()).backend).toBe('safe_storage');
    expect(await restarted.get('workspace-1')).toBe('sk-live-kept');
    expect(keytar.entries.has('workspace-1')).toBe(false);
  });

  it('treats a damaged choice file as the default (keychain), without failing', async () => {
    const { dir } = storage();
    writeFileSync(join(dir, KEY_STORAGE_FILE_NAME), '{"version":1,"backend":"saf');
    const keytar = fakeKeytar();
    const keyStorage = createKeyStorage({ keychain: keytar.store, safeStorage: encryptingSafeStorage(), dir });
    expect((await keyStorage.status()).backend).toBe('keychain');
    await keyStorage.set('workspace-1', 'sk-live-abc');
    expect(keytar.entries.get('workspace-1')).toBe('sk-live-abc');
  });

  it('deletes an entry: true the first time, false after, other workspaces kept', async () => {
    const { keyStorage } = storage();
    await keyStorage.useSafeStorage(false);
    await keyStorage.set('workspace-1', 'sk-one');
    await keyStorage.set('workspace-2', 'sk-two');
    expect(await keyStorage.delete('workspace-1')).toBe(true);
    expect(await keyStorage.get('workspace-1')).toBeNull();
    expect(await keyStorage.delete('workspace-1')).toBe(false);
    expect(await keyStorage.get('workspace-2')).toBe('sk-two');
  });

  it('keeps concurrent writes to the file apart (no lost update)', async () => {
    const { keyStorage } = storage();
    await keyStorage.useSafeStorage(false);
    await Promise.all(Array.from({ length: 8 }, (_, i) => keyStorage.set(`workspace-${i}`, `sk-${i}`)));
    for (let i = 0; i < 8; i++) expect(await keyStorage.get(`workspace-${i}`)).toBe(`sk-${i}`);
  });
});

describe('the encrypted file when something is wrong', () => {
  it('explains a damaged file and recovers when the key is entered again, keeping the damaged copy', async () => {
    const { dir, keyStorage } = storage();
    await keyStorage.useSafeStorage(false);
    await keyStorage.set('workspace-1', 'sk-before');
    const path = join(dir, SECRETS_FILE_NAME);
    writeFileSync(path, '{"version":1,"secrets":{"workspace-1":{"encr');

    const error = await rejection(keyStorage.get('workspace-1'));
    expect(error.kind).toBe('keychain');
    expect(error.message).toMatch(/is damaged, so the API keys in it cannot be read\. Enter the API key again/);

    await keyStorage.set('workspace-1', 'sk-after');
    expect(await keyStorage.get('workspace-1')).toBe('sk-after');
    const kept = readdirSync(dir).filter((name) => name.startsWith(`${SECRETS_FILE_NAME}.corrupt-`));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]!), 'utf8')).toContain('"encr');
  });

  it('says to enter the key again when an entry cannot be decrypted (another machine key)', async () => {
    const { dir, keyStorage } = storage();
    await keyStorage.useSafeStorage(false);
    await keyStorage.set('workspace-1', 'sk-elsewhere');
    const otherMachine = createKeyStorage({
      keychain: fakeKeytar().store,
      safeStorage: encryptingSafeStorage('kwallet5', randomBytes(32)),
      dir,
    });
    const error = await rejection(otherMachine.get('workspace-1'));
    expect(error.kind).toBe('keychain');
    expect(error.message).toMatch(
      /could not be decrypted\. It was encrypted with backend gnome_libsecret; safeStorage now uses kwallet5\. Enter the API key again/,
    );
    expect(error.message).not.toContain('sk-elsewhere');
  });

  it('fails with an ApiError, not a crash, when the file backend is chosen but safeStorage is gone', async () => {
    const { dir, keyStorage } = storage();
    await keyStorage.useSafeStorage(false);
    await keyStorage.set('workspace-1', 'sk-live-abc');
    const harness = createKeyStorage({ keychain: fakeKeytar().store, safeStorage: null, dir });
    const status: SecretStorageStatus = await harness.status();
    expect(status.backend).toBe('safe_storage');
    expect(status.description).toMatch(/not available in this run/);
    const error = await rejection(harness.get('workspace-1'));
    expect(error).toMatchObject({
      kind: 'keychain',
      message: textMatching(/safeStorage is not available in this run/),
    });
  });
});

// ---- the real Secret Service (gnome-keyring) --------------------------------------------------

if (!onPrivateBus) console.warn(`Skipping the in-process real-keychain status test: ${NO_BUS_REASON}`);
if (missingBusTools.length > 0) console.warn(`Skipping the private-bus key storage tests: ${NO_TOOLS_REASON}`);

interface StatusLine {
  status?: SecretStorageStatus;
  probeLeftBehind?: boolean;
  error?: string;
}

describe.skipIf(!onPrivateBus)(
  `status against the real Secret Service of this test run${onPrivateBus ? '' : ` (skipped: ${NO_BUS_REASON})`}`,
  () => {
    it('reports no problem for the unlocked keyring, stores in it, and leaves no probe entry', async () => {
      const keyStorage = createKeyStorage({ keychain: createKeytarStore(), safeStorage: null, dir: tempDir() });
      const keytar = createRequire(import.meta.url)('keytar') as KeytarLike;
      const account = `vitest-key-storage-${randomUUID()}`;
      try {
        const status = await keyStorage.status();
        expect(status).toMatchObject({
          backend: 'keychain',
          description: 'System keychain (Secret Service)',
          keychainProblem: null,
        });
        await keyStorage.set(account, 'sk-real-keyring');
        expect(await keytar.getPassword(KEYCHAIN_SERVICE, account)).toBe('sk-real-keyring');
        expect(await keytar.getPassword(KEYCHAIN_SERVICE, KEYCHAIN_PROBE_ACCOUNT)).toBeNull();
      } finally {
        await keytar.deletePassword(KEYCHAIN_SERVICE, account);
      }
    });
  },
);

describe('status with a real keytar in a child process', () => {
  it('reports unavailable, with what to install, when the bus address points nowhere', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', STATUS_PROBE, tempDir()], {
      cwd: REPO_ROOT,
      env: isolatedEnv({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(jsonLines<StatusLine>(result)).toEqual([
      {
        status: objectWith<SecretStorageStatus>({
          backend: 'keychain',
          keychainProblem: { problem: 'unavailable', message: textMatching(CANNOT_REACH) },
        }),
        probeLeftBehind: false,
      },
    ]);
  }, 40_000);

  it.skipIf(missingBusTools.length > 0)(
    `reports no problem on an unlocked gnome-keyring, then "locked" with the unlock instruction once it is locked${missingBusTools.length > 0 ? ` (skipped: ${NO_TOOLS_REASON})` : ''}`,
    () => {
      const home = tempDir();
      const probe = `"${process.execPath}" --import tsx "${STATUS_PROBE}" "${join(home, 'user-data')}"`;
      // A fresh keyring in a throw-away HOME on a private bus. Locking it through the Secret Service
      // API works headless; unlocking again would need the prompt, so the bus is simply thrown away.
      const script = [
        'printf %s pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
        probe,
        `gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets --method org.freedesktop.Secret.Service.Lock "[objectpath '/org/freedesktop/secrets/collection/login']" >/dev/null`,
        probe,
      ].join(' && ');
      const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], {
        cwd: REPO_ROOT,
        env: isolatedEnv({ HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home }),
        encoding: 'utf8',
        timeout: 60_000,
      });
      const [unlocked, locked] = jsonLines<StatusLine>(result);
      expect(unlocked).toEqual({
        status: objectWith<SecretStorageStatus>({
          backend: 'keychain',
          description: 'System keychain (Secret Service)',
          keychainProblem: null,
        }),
        probeLeftBehind: false,
      });
      expect(locked?.status?.keychainProblem).toEqual({ problem: 'locked', message: textMatching(UNLOCK) });
    },
    70_000,
  );
});
