/**
 * The shell's security rules (electron/main/security.ts). Each test would fail if the rule
 * regressed; the Electron wiring itself is covered by the real-Electron smoke test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, isAppUrl, isExternalLinkAllowed, secureWebPreferences } from '../../electron/main/security';

const APP = 'file:///opt/voice-review/resources/app/out/renderer/index.html';

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

describe('content security policy', () => {
  it('allows only the app itself and the recording protocol', () => {
    const d = directives(CONTENT_SECURITY_POLICY);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('connect-src')).toEqual(["'self'", 'vr-recording:']);
    expect(d.get('media-src')).toContain('vr-recording:');
    expect(d.get('object-src')).toEqual(["'none'"]);
    for (const values of d.values()) {
      expect(values).not.toContain("'unsafe-eval'");
      expect(values).not.toContain('*');
      expect(values.some((v) => v.startsWith('http'))).toBe(false);
    }
  });

  it('is the same policy as the one in the page itself', () => {
    const html = readFileSync(join(__dirname, '../../renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    const page = directives(meta);
    const header = directives(CONTENT_SECURITY_POLICY);
    for (const name of ['default-src', 'script-src', 'connect-src', 'media-src', 'object-src']) {
      expect(page.get(name), name).toEqual(header.get(name));
    }
  });
});

describe('navigation and IPC senders', () => {
  it('accepts the built renderer page', () => {
    expect(isAppUrl(APP, APP)).toBe(true);
    expect(isAppUrl(`${APP}#/phones`, APP)).toBe(true);
  });

  it('refuses other files, other schemes and look-alike prefixes', () => {
    expect(isAppUrl('file:///etc/passwd', APP)).toBe(false);
    expect(isAppUrl('file:///opt/voice-review/resources/app/out/renderer/index.html.evil', APP)).toBe(false);
    expect(isAppUrl('https://evil.example/index.html', APP)).toBe(false);
    expect(isAppUrl('javascript:alert(1)', APP)).toBe(false);
    expect(isAppUrl('not a url', APP)).toBe(false);
  });

  it('compares the dev server by parsed origin, not by string prefix', () => {
    const dev = 'http://localhost:5173';
    expect(isAppUrl('http://localhost:5173/index.html', APP, dev)).toBe(true);
    expect(isAppUrl('http://localhost:5173.evil.example/', APP, dev)).toBe(false);
    expect(isAppUrl('http://localhost:51730/', APP, dev)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', APP, undefined)).toBe(false);
  });

  it('hands only http(s) links to the system browser', () => {
    expect(isExternalLinkAllowed('https://docs.example.com/page')).toBe(true);
    expect(isExternalLinkAllowed('http://example.com')).toBe(true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'vr-recording://local/x', 'garbage']) {
      expect(isExternalLinkAllowed(url), url).toBe(false);
    }
  });
});

describe('window web preferences', () => {
  it('isolates and sandboxes the renderer without Node', () => {
    expect(secureWebPreferences('/app/out/preload/index.js')).toMatchObject({
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

  it('the Electron entry uses these preferences', () => {
    const entry = readFileSync(join(__dirname, '../../electron/main/index.ts'), 'utf8');
    expect(entry).toContain('webPreferences: secureWebPreferences(');
    expect(entry).toContain("setWindowOpenHandler");
    expect(entry).toContain("return { action: 'deny' }");
    expect(entry).toContain('setPermissionRequestHandler((_wc, _permission, callback) => callback(false))');
  });
});
