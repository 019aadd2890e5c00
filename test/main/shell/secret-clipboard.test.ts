/**
 * A copied SIP password leaves the clipboard after 30 s if it is still there
 * (electron/main/shell/secret-clipboard.ts), on a fake clock; and `copySecret` through main's
 * guarded IPC entry: the schema, the sender check, and the secret kept out of the log.
 */
import { describe, expect, it } from 'vitest';
import { createMainStack } from '../../../electron/main/main-stack';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import {
  createSecretClipboard,
  SECRET_CLIPBOARD_MS,
  type ClipboardTimers,
} from '../../../electron/main/shell/secret-clipboard';
import { memoryClipboard } from '../../fixtures/memory-clipboard';
import { RESOURCES_DIR } from '../../fixtures/paths';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const PASSWORD = 'sip-trunk-secret-Zq81';

/** A clock that only moves when the test says so. */
function fakeClock() {
  let now = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  let next = 0;
  const timers: ClipboardTimers = {
    setTimeout(run, ms) {
      due.set(++next, { at: now + ms, run });
      return next;
    },
    clearTimeout(handle) {
      due.delete(handle as number);
    },
  };
  async function advance(ms: number) {
    now += ms;
    for (const [id, timer] of [...due].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > now) continue;
      due.delete(id);
      timer.run();
    }
    // Let the clear's clipboard read settle.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { timers, advance };
}

describe('a secret on the clipboard', () => {
  it('is cleared 30 s after the copy, not before', async () => {
    const clipboard = memoryClipboard();
    const clock = fakeClock();
    const secrets = createSecretClipboard(clipboard, { timers: clock.timers });
    await secrets.copy(PASSWORD);
    expect(clipboard.text).toBe(PASSWORD);
    await clock.advance(SECRET_CLIPBOARD_MS - 1);
    expect(clipboard.text).toBe(PASSWORD);
    await clock.advance(1);
    expect(clipboard.text).toBe('');
    expect(SECRET_CLIPBOARD_MS).toBe(30_000);
  });

  it('leaves alone what the user copied since', async () => {
    const clipboard = memoryClipboard();
    const clock = fakeClock();
    await createSecretClipboard(clipboard, { timers: clock.timers }).copy(PASSWORD);
    await clipboard.writeText('+14155550123');
    await clock.advance(SECRET_CLIPBOARD_MS);
    expect(clipboard.text).toBe('+14155550123');
  });

  it('counts from the last copy, and clears at quit if the secret is still there', async () => {
    const clipboard = memoryClipboard();
    const clock = fakeClock();
    const secrets = createSecretClipboard(clipboard, { timers: clock.timers });
    await secrets.copy(PASSWORD);
    await clock.advance(20_000);
    await secrets.copy(PASSWORD);
    await clock.advance(20_000);
    expect(clipboard.text).toBe(PASSWORD);
    await secrets.close();
    expect(clipboard.text).toBe('');
  });
});

describe('copySecret over IPC', () => {
  function stack() {
    const clipboard = memoryClipboard();
    const log: string[] = [];
    const line = (...data: unknown[]) => log.push(data.map(String).join(' '));
    const main = createMainStack({
      userDataDir: temporaryFolder('vr-copy-secret-'),
      secrets: createMemoryStore(),
      resourcesDir: RESOURCES_DIR,
      recordingOrigin: 'vr-recording://local',
      log: { info: line, warn: line, error: line },
      peaksCacheDir: null,
      clipboard,
    });
    return { main, clipboard, log };
  }

  it('copies for the app page, refuses other frames and bad input, and keeps the secret out of the log', async () => {
    const { main, clipboard, log } = stack();
    expect(await main.invoke('copySecret', 'app://voice-review/index.html', [PASSWORD])).toEqual({
      ok: true,
      value: undefined,
    });
    expect(clipboard.text).toBe(PASSWORD);

    clipboard.text = '';
    const refused = await main.invoke('copySecret', 'https://evil.example/', ['stolen?']);
    expect(refused.ok).toBe(false);
    expect(clipboard.text).toBe('');
    for (const args of [[], [''], [42], ['x'.repeat(501)]]) {
      const result = await main.invoke('copySecret', 'app://voice-review/index.html', args);
      expect(result.ok ? null : result.error.kind, JSON.stringify(args)).toBe('bad_input');
    }
    expect(log.join('\n')).not.toContain(PASSWORD);
    // Quitting within the 30 s takes the password off the clipboard too.
    await main.invoke('copySecret', 'app://voice-review/index.html', [PASSWORD]);
    expect(clipboard.text).toBe(PASSWORD);
    await main.close();
    expect(clipboard.text).toBe('');
  });
});
