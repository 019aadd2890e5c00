/**
 * The weak key storage backend (safeStorage's `basic_text`) needs main's own confirmation: a page
 * sending `useSafeStorage(true)` is not enough. Through main's stack and the real key storage
 * (an in-memory keychain, a safeStorage that reports `basic_text` as Electron does on Linux
 * without a keyring), with the dialog's stand-in answering; and Electron's message box as the
 * app calls it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import {
  createKeyStorage,
  KEY_STORAGE_FILE_NAME,
  type SafeStorageLike,
} from '../../../electron/main/keys/secret-storage';
import {
  electronWeakStorageConfirm,
  WEAK_STORAGE_AGREE,
  type MessageBoxLike,
} from '../../../electron/main/keys/weak-storage-dialog';
import type { IpcResult, SessionInfo } from '../../../electron/shared/contract';
import { createSessionRig } from '../../fixtures/session-rig';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** safeStorage on Linux without a keyring: `basic_text`, usable once plain text is allowed. */
function basicTextSafeStorage(): SafeStorageLike {
  let plainText = false;
  return {
    isEncryptionAvailable: () => plainText,
    getSelectedStorageBackend: () => 'basic_text',
    setUsePlainTextEncryption: (use) => {
      plainText = use;
    },
    encryptString: (text) => Buffer.from(text, 'utf8').reverse(),
    decryptString: (data) => Buffer.from(data).reverse().toString('utf8'),
  };
}

/** Main's stack over a weak key storage; `answers` are the dialog stand-in's replies in turn. */
function weakRig(answers: boolean[] | null) {
  const dir = temporaryFolder('vr-weak-storage-');
  const asked: number[] = [];
  const rig = createSessionRig({
    dir,
    secrets: createKeyStorage({ keychain: createMemoryStore(), safeStorage: basicTextSafeStorage(), dir }),
    ...(answers
      ? {
          confirmWeakKeyStorage: () => {
            asked.push(asked.length + 1);
            return Promise.resolve(answers.shift() ?? false);
          },
        }
      : {}),
  });
  cleanups.push(() => rig.session.close());
  const useSafeStorage = async (confirmWeak: boolean) =>
    (await rig.handlers.useSafeStorage([confirmWeak])) as IpcResult<SessionInfo>;
  return { ...rig, dir, asked, useSafeStorage };
}

describe('switching to the weak key storage backend', () => {
  it('is refused when main’s dialog is refused: nothing saved, the page gets words', async () => {
    const r = weakRig([false]);
    const result = await r.useSafeStorage(true);
    expect(r.asked).toEqual([1]);
    expect(result.ok).toBe(false);
    const error = result.ok ? null : result.error;
    expect(error?.kind).toBe('bad_input');
    expect(error?.message).toMatch(/^Key storage was not changed: storing keys in a file .* was not confirmed/);
    expect(existsSync(join(r.dir, KEY_STORAGE_FILE_NAME))).toBe(false);
    expect((await r.session.info()).secretStorage.backend).toBe('keychain');
  });

  it('is refused without any dialog to ask (the page alone cannot agree)', async () => {
    const r = weakRig(null);
    expect((await r.useSafeStorage(true)).ok).toBe(false);
    expect(existsSync(join(r.dir, KEY_STORAGE_FILE_NAME))).toBe(false);
  });

  it('switches once main’s dialog is agreed to, and does not ask when the page did not confirm', async () => {
    const r = weakRig([true]);
    const unconfirmed = await r.useSafeStorage(false);
    expect(unconfirmed.ok).toBe(false);
    expect(r.asked).toEqual([]);
    const result = await r.useSafeStorage(true);
    expect(r.asked).toEqual([1]);
    expect(result.ok && result.value.secretStorage.backend).toBe('safe_storage');
    expect(existsSync(join(r.dir, KEY_STORAGE_FILE_NAME))).toBe(true);
  });
});

describe("Electron's message box", () => {
  function dialogAnswering(response: number) {
    const shown: Array<Parameters<MessageBoxLike<string>['showMessageBox']>> = [];
    const dialog: MessageBoxLike<string> = {
      showMessageBox: (...args) => {
        shown.push(args);
        return Promise.resolve({ response });
      },
    };
    return { dialog, shown };
  }

  it('agrees only on the button that says so; Escape, Enter and closing keep the keychain', async () => {
    const agree = dialogAnswering(1);
    expect(await electronWeakStorageConfirm(agree.dialog, () => 'window')()).toBe(true);
    const [window, options] = agree.shown[0] ?? [];
    expect(window).toBe('window');
    expect(options?.buttons[1]).toBe(WEAK_STORAGE_AGREE);
    expect(WEAK_STORAGE_AGREE).toBe('Store keys in a file on this computer (not encrypted)');
    expect(options).toMatchObject({ type: 'warning', defaultId: 0, cancelId: 0 });
    expect(await electronWeakStorageConfirm(dialogAnswering(0).dialog, () => 'window')()).toBe(false);
  });
});
