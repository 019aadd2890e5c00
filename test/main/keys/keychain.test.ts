import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  classifyKeychainError,
  createKeytarStore,
  createMemoryStore,
  KEYCHAIN_SERVICE,
  KeychainError,
  type KeytarLike,
} from '../../../electron/main/keys/keychain';
import { ApiError } from '../../../electron/shared/errors';
import {
  onPrivateBus,
  isolatedEnv,
  jsonLines,
  missingBusTools,
  NO_BUS_REASON,
  NO_TOOLS_REASON,
} from '../../fixtures/private-bus';
import { textMatching, textContaining } from '../../fixtures/matchers';
import { REPO_ROOT } from '../../fixtures/paths';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const PROBE = fileURLToPath(new URL('../../fixtures/keychain-probe.ts', import.meta.url));

if (!onPrivateBus) console.warn(`Skipping the real-keychain tests: ${NO_BUS_REASON}`);
if (missingBusTools.length > 0) console.warn(`Skipping the private-bus keychain tests: ${NO_TOOLS_REASON}`);

interface ProbeResult {
  ok: boolean;
  value?: unknown;
  kind?: string;
  message?: string;
}

function runProbe(args: string[], env: NodeJS.ProcessEnv): ProbeResult {
  const result = spawnSync(process.execPath, ['--import', 'tsx', PROBE, ...args], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  const lines = jsonLines<ProbeResult>(result);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

const CANNOT_REACH = /could not reach the system keychain \(Secret Service\)/;

/**
 * Writes the config of a session bus with no service directories (so nothing can provide
 * org.freedesktop.secrets) into `dir`, and returns its path.
 */
function writeBusWithoutServices(dir: string): string {
  const config = join(dir, 'bus.conf');
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=${dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
`,
  );
  return config;
}

describe('clear errors when no Secret Service is reachable (child process, real keytar)', () => {
  it('says so when the bus address points nowhere, without crashing', () => {
    const result = runProbe(
      ['get', `vitest-${randomUUID()}`],
      isolatedEnv({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' }),
    );
    expect(result).toEqual({ ok: false, kind: 'keychain', message: textMatching(CANNOT_REACH) });
    expect(result.message).toContain('gnome-keyring or KWallet');
  }, 40_000);

  it('says so when there is no bus at all and no display to autolaunch one', () => {
    const result = runProbe(['set', `vitest-${randomUUID()}`, 'sk-not-stored'], isolatedEnv({}));
    expect(result).toEqual({ ok: false, kind: 'keychain', message: textMatching(CANNOT_REACH) });
    expect(result.message).not.toContain('sk-not-stored');
  }, 40_000);
});

describe.skipIf(missingBusTools.length > 0)(
  `clear keychain errors on a private bus${missingBusTools.length > 0 ? ` (skipped: ${NO_TOOLS_REASON})` : ''}`,
  () => {
    const tempDir = () => temporaryFolder('voice-review-keychain-');

    it('says so when the bus has no keyring daemon installed', () => {
      const dir = tempDir();
      const config = writeBusWithoutServices(dir);
      const result = spawnSync(
        'dbus-run-session',
        [`--config-file=${config}`, '--', process.execPath, '--import', 'tsx', PROBE, 'get', `vitest-${randomUUID()}`],
        { cwd: REPO_ROOT, env: isolatedEnv({ HOME: dir }), encoding: 'utf8', timeout: 30_000 },
      );
      const lines = jsonLines<ProbeResult>(result);
      expect(lines).toEqual([{ ok: false, kind: 'keychain', message: textMatching(CANNOT_REACH) }]);
    }, 40_000);

    it('asks to unlock the login keyring when it is locked (get gives null, set fails, delete gives false)', () => {
      const home = tempDir();
      const account = `vitest-${randomUUID()}`;
      const probe = `"${process.execPath}" --import tsx "${PROBE}"`;
      // Unlocks a fresh keyring in a throwaway HOME, stores a key, locks the login collection, and then
      // tries to use it. With no display the unlock prompt cannot appear, like a cancelled prompt.
      const script = [
        'printf %s pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
        `${probe} set ${account} sk-before-lock`,
        `gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets --method org.freedesktop.Secret.Service.Lock "[objectpath '/org/freedesktop/secrets/collection/login']" >/dev/null`,
        `${probe} get ${account}`,
        `${probe} set ${account} sk-after-lock`,
        `${probe} delete ${account}`,
      ].join(' && ');
      const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], {
        cwd: REPO_ROOT,
        env: isolatedEnv({ HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home }),
        encoding: 'utf8',
        timeout: 60_000,
      });
      const [stored, read, replaced, deleted] = jsonLines<ProbeResult>(result);
      expect(stored).toEqual({ ok: true, value: null });
      expect(read).toEqual({ ok: true, value: null });
      expect(replaced).toEqual({
        ok: false,
        kind: 'keychain',
        message: textMatching(/^Unlock your login keyring/),
      });
      expect(replaced!.message).not.toContain('sk-after-lock');
      expect(deleted).toEqual({ ok: true, value: false });
    }, 70_000);
  },
);

describe('keytar that cannot be loaded', () => {
  it('gives a keychain error that says to reinstall, not a crash', async () => {
    const store = createKeytarStore({
      loadKeytar: () => {
        throw new Error(
          "The module '/app/node_modules/keytar/build/Release/keytar.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 123.",
        );
      },
    });
    const error = await store.get('workspace-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'keychain',
      message: textMatching(/^The keychain module could not be loaded/),
    });
    expect((error as ApiError).message).toMatch(/reinstall/i);
    expect((error as ApiError).message).toContain('NODE_MODULE_VERSION 115');
  });

  it('tries to load again on the next call, so a fixed install works without a restart', async () => {
    let attempts = 0;
    const working: KeytarLike = {
      getPassword: () => Promise.resolve('sk-found'),
      setPassword: () => Promise.resolve(undefined),
      deletePassword: () => Promise.resolve(true),
    };
    const store = createKeytarStore({
      loadKeytar: () => {
        attempts += 1;
        if (attempts === 1) throw new Error('libsecret-1.so.0: cannot open shared object file');
        return working;
      },
    });
    await expect(store.get('workspace-1')).rejects.toMatchObject({ kind: 'keychain' });
    await expect(store.get('workspace-1')).resolves.toBe('sk-found');
  });

  it('does not load keytar at import or creation, only on first use', () => {
    let loaded = false;
    createKeytarStore({
      loadKeytar: () => {
        loaded = true;
        throw new Error('should not be called');
      },
    });
    expect(loaded).toBe(false);
  });
});

describe('which keychain problem an error is (shown in settings)', () => {
  function failingStore(message: string) {
    return createKeytarStore({
      loadKeytar: () => ({
        getPassword: () => Promise.resolve(null),
        setPassword: () => Promise.reject(new Error(message)),
        deletePassword: () => Promise.resolve(false),
      }),
    });
  }

  it.each([
    ['Cannot create an item in a locked collection', 'locked', /^Unlock your login keyring/],
    ['Could not connect: No such file or directory', 'unavailable', /Install and start gnome-keyring or KWallet/],
    [
      'The name org.freedesktop.secrets was not provided by any .service files',
      'unavailable',
      /Install and start gnome-keyring/,
    ],
    ['Timeout was reached', 'unavailable', /did not answer in time/],
    [
      'something nobody has seen before',
      'unavailable',
      /could not store the API key \(something nobody has seen before\)/,
    ],
  ] as const)('libsecret "%s" is %s', async (raw, problem, message) => {
    const error = await failingStore(raw)
      .set('workspace-1', 'sk-x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeychainError);
    expect(error).toMatchObject({ kind: 'keychain', problem, message: textMatching(message) });
    expect(classifyKeychainError(error)).toEqual({ problem, message: (error as ApiError).message });
    // The same answer for the raw error, before the store wrapped it.
    expect(classifyKeychainError(new Error(raw))).toEqual({ problem, message: (error as ApiError).message });
  });

  it('a keytar that cannot be loaded is not_loaded', async () => {
    const error = await createKeytarStore({
      loadKeytar: () => {
        throw new Error('libsecret-1.so.0: cannot open shared object file');
      },
    })
      .get('workspace-1')
      .catch((e: unknown) => e);
    expect(classifyKeychainError(error)).toEqual({
      problem: 'not_loaded',
      message: textMatching(/^The keychain module could not be loaded/),
    });
  });

  it('crosses IPC as a plain ApiError (no extra fields)', () => {
    const error = new KeychainError('locked', 'Unlock your login keyring.');
    expect(error.toData()).toEqual({ kind: 'keychain', message: 'Unlock your login keyring.' });
  });
});

describe('keychain errors never contain the secret', () => {
  it('says the keychain did not answer when GDBus times out (seen with a hung bus)', async () => {
    const store = createKeytarStore({
      loadKeytar: () => ({
        getPassword: () => Promise.reject(new Error('Timeout was reached')),
        setPassword: () => Promise.resolve(undefined),
        deletePassword: () => Promise.resolve(false),
      }),
    });
    await expect(store.get('workspace-1')).rejects.toMatchObject({
      kind: 'keychain',
      message: textMatching(/^The system keychain did not answer in time/),
    });
  });

  it('scrubs the secret from a message it passes through', async () => {
    const secret = 'sk-live-123456';
    const store = createKeytarStore({
      loadKeytar: () => ({
        getPassword: () => Promise.resolve(null),
        setPassword: (_s, _a, password) => Promise.reject(new Error(`weird backend failure while writing ${password}`)),
        deletePassword: () => Promise.resolve(false),
      }),
    });
    const error = (await store.set('workspace-1', secret).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ kind: 'keychain', message: textContaining('could not store the API key') });
    expect(error.message).not.toContain(secret);
  });
});

for (const [name, makeStore] of [
  ['memory store', () => createMemoryStore()],
  [
    'keytar store',
    () =>
      createKeytarStore({
        loadKeytar: () => {
          throw new Error('never loaded for bad input');
        },
      }),
  ],
] as const) {
  describe(`${name} input checks`, () => {
    it('refuses an empty or over-long account and an empty secret as bad_input', async () => {
      const store = makeStore();
      await expect(store.get('')).rejects.toMatchObject({ kind: 'bad_input' });
      await expect(store.delete('x'.repeat(401))).rejects.toMatchObject({ kind: 'bad_input' });
      await expect(store.set('workspace-1', '')).rejects.toMatchObject({ kind: 'bad_input' });
      await expect(store.set('workspace-1', '   ')).rejects.toMatchObject({ kind: 'bad_input' });
    });
  });
}

describe('memory store', () => {
  it('stores, replaces, reads and deletes', async () => {
    const store = createMemoryStore();
    expect(await store.get('demo')).toBeNull();
    await store.set('demo', 'sk-one');
    await store.set('demo', 'sk-two');
    expect(await store.get('demo')).toBe('sk-two');
    expect(await store.delete('demo')).toBe(true);
    expect(await store.delete('demo')).toBe(false);
  });
});

describe.skipIf(!onPrivateBus)(
  `keytar store against the real Secret Service${onPrivateBus ? '' : ` (skipped: ${NO_BUS_REASON})`}`,
  () => {
    const runId = randomUUID();
    const used: string[] = [];
    const store = createKeytarStore();
    const keytar = createRequire(import.meta.url)('keytar') as KeytarLike;

    /** A fresh account name for this run; every one is deleted after the tests. */
    function account(label: string): string {
      const name = `vitest-${label}-${runId}`;
      used.push(name);
      return name;
    }

    afterAll(async () => {
      for (const name of used) await keytar.deletePassword(KEYCHAIN_SERVICE, name);
    });

    it('stores a key and reads it back, under service "Voice Review"', async () => {
      const workspace = account('store');
      await store.set(workspace, 'sk-test-abc');
      expect(await store.get(workspace)).toBe('sk-test-abc');
      expect(await keytar.getPassword(KEYCHAIN_SERVICE, workspace)).toBe('sk-test-abc');
    });

    it('replaces an earlier key', async () => {
      const workspace = account('replace');
      await store.set(workspace, 'sk-old');
      await store.set(workspace, 'sk-new');
      expect(await store.get(workspace)).toBe('sk-new');
    });

    it('deletes a key: true the first time, false after', async () => {
      const workspace = account('delete');
      await store.set(workspace, 'sk-doomed');
      expect(await store.delete(workspace)).toBe(true);
      expect(await store.get(workspace)).toBeNull();
      expect(await store.delete(workspace)).toBe(false);
    });

    it('returns null for an account that has no key', async () => {
      expect(await store.get(account('missing'))).toBeNull();
    });

    it('keeps unicode secrets intact', async () => {
      const workspace = account('unicode');
      const secret = 'ключ-🔑-密钥-é-\u{1F600}';
      await store.set(workspace, secret);
      expect(await store.get(workspace)).toBe(secret);
    });

    it('keeps workspaces apart', async () => {
      const first = account('first');
      const second = account('second');
      await store.set(first, 'sk-first');
      await store.set(second, 'sk-second');
      expect(await store.get(first)).toBe('sk-first');
      expect(await store.get(second)).toBe('sk-second');
    });
  },
);
