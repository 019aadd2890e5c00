/**
 * The shell's security rules (electron/main/shell/security.ts). Each test would fail if the rule
 * regressed; the Electron wiring itself is covered by the real-Electron smoke test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_METHODS } from '../../../electron/shared/contract';
import type { HandlerTable } from '../../../electron/main/shell/handlers';
import {
  APP_INDEX_URL,
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  createIpcGuard,
  isAppUrl,
  isPermissionAllowed,
  refuseWindowOpen,
  secureWebPreferences,
} from '../../../electron/main/shell/security';
import { REPO_ROOT } from '../../fixtures/paths';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('content security policy', () => {
  it('allows only the app itself and the recording protocol', () => {
    const d = directives(CONTENT_SECURITY_POLICY);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    // The renderer fetches nothing but recordings (for the waveforms it decodes), and never plays blobs.
    expect(d.get('connect-src')).toEqual(["'self'", 'vr-recording:']);
    expect(d.get('media-src')).toEqual(["'self'", 'vr-recording:']);
    expect(d.get('object-src')).toEqual(["'none'"]);
    for (const values of d.values()) {
      expect(values).not.toContain("'unsafe-eval'");
      expect(values).not.toContain('*');
      expect(values.some((v) => v.startsWith('http'))).toBe(false);
    }
  });

  it('is the same policy as the one in the page itself', () => {
    const html = readFileSync(join(REPO_ROOT, 'renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    const page = directives(meta);
    const header = directives(CONTENT_SECURITY_POLICY);
    for (const name of ['default-src', 'script-src', 'connect-src', 'media-src', 'object-src']) {
      expect(page.get(name), name).toEqual(header.get(name));
    }
  });
});

describe('navigation and IPC senders', () => {
  it('accepts pages of the app origin', () => {
    expect(isAppUrl('app://voice-review/index.html')).toBe(true);
    expect(isAppUrl(APP_INDEX_URL)).toBe(true);
    expect(isAppUrl(`${APP_INDEX_URL}#/phones`)).toBe(true);
    expect(isAppUrl(`${APP_ORIGIN}/`)).toBe(true);
  });

  it('refuses file: pages, other schemes, other hosts and look-alikes', () => {
    for (const url of [
      'file:///opt/voice-review/resources/app.asar/out/renderer/index.html',
      'file:///etc/passwd',
      'app://voice-review.evil/index.html',
      'app://evil/voice-review/index.html',
      'app://voice-review:8080/index.html',
      'app://user@voice-review/index.html',
      'apps://voice-review/index.html',
      'https://voice-review/index.html',
      'https://evil.example/index.html',
      'vr-recording://local/recording/x',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'about:blank',
      'not a url',
      '',
    ]) {
      expect(isAppUrl(url), url).toBe(false);
      expect(isAppUrl(url, 'http://localhost:5173'), url).toBe(false);
    }
  });

  it('compares the dev server by parsed origin, not by string prefix', () => {
    const dev = 'http://localhost:5173';
    expect(isAppUrl('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5173.evil.example/', dev)).toBe(false);
    expect(isAppUrl('http://localhost:51730/', dev)).toBe(false);
    expect(isAppUrl('https://localhost:5173/', dev)).toBe(false);
    expect(isAppUrl('http://localhost:5173@evil.example/', dev)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', undefined)).toBe(false);
    // A dev "server" that is not http(s) allows nothing extra.
    expect(isAppUrl('file:///tmp/index.html', 'file:///tmp/index.html')).toBe(false);
  });

  it('denies every new window, http(s) included, and logs only the origin', () => {
    const warnings: string[] = [];
    const log = { warn: (...data: unknown[]) => warnings.push(data.join(' ')) };
    for (const url of [
      'https://docs.example.com/page?token=secret',
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://voice-review/index.html',
      'garbage',
    ]) {
      expect(refuseWindowOpen(url, log), url).toEqual({ action: 'deny' });
    }
    expect(warnings[0]).toBe('Refused to open a new window for https://docs.example.com.');
    expect(warnings.join('\n')).not.toMatch(/secret|passwd|alert/);
  });
});

describe('window web preferences', () => {
  it('isolates and sandboxes the renderer without Node', () => {
    expect(secureWebPreferences('/app/out/preload/index.js', { devTools: false })).toMatchObject({
      preload: '/app/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
  });

  it('sets DevTools from the option: off for the packaged app, on for unpackaged runs', () => {
    expect(secureWebPreferences('/p.js', { devTools: false }).devTools).toBe(false);
    expect(secureWebPreferences('/p.js', { devTools: true }).devTools).toBe(true);
  });
});

describe('permissions', () => {
  it('denies everything except writing to the clipboard from the app itself', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', APP_INDEX_URL)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', APP_ORIGIN)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example')).toBe(false);
    for (const permission of [
      'media',
      'notifications',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'hid',
      'unknown',
    ]) {
      expect(isPermissionAllowed(permission, APP_INDEX_URL), permission).toBe(false);
    }
  });
});

describe('IPC sender check', () => {
  function setup(devServerUrl?: string) {
    const calls: Array<{ method: string; args: unknown[] }> = [];
    const logged: string[] = [];
    const handlers = Object.fromEntries(
      API_METHODS.map((method) => [
        method,
        (args: unknown[]) => {
          calls.push({ method, args });
          return Promise.resolve(
            method === 'listPhones'
              ? {
                  ok: false as const,
                  error: { kind: 'unauthorized' as const, status: 401, message: 'The key was rejected.' },
                }
              : { ok: true as const, value: method },
          );
        },
      ]),
    ) as unknown as HandlerTable;
    const seen: string[] = [];
    const invoke = createIpcGuard({
      handlers,
      devServerUrl,
      log: { info: (...d) => logged.push(`info ${d.join(' ')}`), warn: (...d) => logged.push(`warn ${d.join(' ')}`) },
      beforeCall: (method) => seen.push(method),
    });
    return { invoke, calls, logged, seen };
  }

  it('runs the handler for app pages and refuses every other sender without running it', async () => {
    const { invoke, calls, logged, seen } = setup();
    expect(await invoke('getSession', APP_INDEX_URL, [])).toEqual({ ok: true, value: 'getSession' });
    for (const sender of [
      'https://evil.example/page?token=abc',
      'file:///tmp/x.html',
      'app://voice-review.evil/',
      '',
      null,
      undefined,
    ]) {
      const result = await invoke('connect', sender, [{ name: 'x', baseUrl: 'https://a.test', apiKey: 'k' }]);
      expect(result, String(sender)).toEqual({
        ok: false,
        error: { kind: 'bad_input', message: 'Refused: the request did not come from Voice Review.' },
      });
    }
    expect(calls.map((c) => c.method)).toEqual(['getSession']);
    expect(seen).toEqual(['getSession']);
    expect(logged.filter((l) => l.startsWith('warn Refused IPC call connect'))).toHaveLength(6);
    // The log names the sender's origin, never its path or query.
    expect(logged.join('\n')).toContain('from https://evil.example.');
    expect(logged.join('\n')).not.toContain('token=abc');
  });

  it('accepts the dev server only when one is running', async () => {
    expect((await setup('http://localhost:5173').invoke('getSession', 'http://localhost:5173/', [])).ok).toBe(true);
    expect((await setup().invoke('getSession', 'http://localhost:5173/', [])).ok).toBe(false);
  });

  it('logs failed calls for support', async () => {
    const { invoke, logged } = setup();
    await invoke('listPhones', APP_INDEX_URL, []);
    expect(logged).toContain('warn listPhones failed: unauthorized (HTTP 401): The key was rejected.');
  });
});
