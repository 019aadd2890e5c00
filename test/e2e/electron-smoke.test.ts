/**
 * Real-Electron smoke test (Playwright's `_electron`). It needs the Electron binary, which this
 * CI machine cannot download; where it is missing the test is skipped and says why. It launches
 * the app from the repository (package.json "main": out/main/index.js), so build into `out`
 * (no VR_OUT_DIR) before running it. test/e2e/main-bundle.test.ts checks the same wiring under
 * Node with a stand-in for Electron.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API_METHODS } from '../../electron/shared/contract';
import { ensureBuilt } from './build';
import { ROOT } from './harness';

const electronInstalled = existsSync(join(ROOT, 'node_modules/electron/path.txt'));
if (!electronInstalled) {
  console.warn(
    '[skipped] electron-smoke: the Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD, or no access to its download); ' +
      'run `npm ci` with Node.js 22.12+ and internet access, then `npm run rebuild:electron && npx vitest run test/e2e/electron-smoke.test.ts`.',
  );
}

describe.skipIf(!electronInstalled)('the packaged shell in real Electron', () => {
  it('opens locked down and reviews a demo call', async () => {
    ensureBuilt();
    const app = await electron.launch({ args: [ROOT], cwd: ROOT });
    try {
      const page = await app.firstWindow();
      expect(await page.title()).toBe('Voice Review');
      // Served through the app protocol, not file://.
      expect(new URL(page.url()).protocol).toBe('app:');
      expect(new URL(page.url()).host).toBe('voice-review');
      const exposure = await page.evaluate(() => {
        const api = (window as unknown as { api: Record<string, unknown> }).api;
        return {
          origin: window.location.origin,
          api: Object.keys(api).sort(),
          nonFunctions: Object.entries(api)
            .filter(([, v]) => typeof v !== 'function')
            .map(([k]) => k),
          apiFrozenOrReadOnly: !Object.getOwnPropertyDescriptor(window, 'api')?.writable || Object.isFrozen(api),
          require: typeof (window as unknown as { require?: unknown }).require,
          process: typeof (window as unknown as { process?: unknown }).process,
          module: typeof (window as unknown as { module?: unknown }).module,
          ipcRenderer: 'ipcRenderer' in window,
          electronLog: '__electronLog' in window,
        };
      });
      // contextIsolation + sandbox: no Node, no Electron internals, only the bridge's functions.
      expect(exposure.origin).toBe('app://voice-review');
      expect(exposure.require).toBe('undefined');
      expect(exposure.process).toBe('undefined');
      expect(exposure.module).toBe('undefined');
      expect(exposure.ipcRenderer).toBe(false);
      expect(exposure.electronLog).toBe(false);
      expect(exposure.api).toEqual([...API_METHODS].sort());
      expect(exposure.nonFunctions).toEqual([]);
      // Main serves both custom schemes.
      const handled = await app.evaluate(({ protocol }) => [
        protocol.isProtocolHandled('app'),
        protocol.isProtocolHandled('vr-recording'),
      ]);
      expect(handled).toEqual([true, true]);
      // The CSP header came with the page: an inline script is refused.
      const inlineRan = await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__inlineRan = true';
        document.head.appendChild(script);
        return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
      });
      expect(inlineRan).toBe(false);
      await page.getByRole('button', { name: 'Open demo workspace' }).click();
      await page.getByRole('combobox', { name: 'Demo calls' }).waitFor();
      const firstSid = await page
        .getByRole('combobox', { name: 'Demo calls' })
        .locator('option')
        .nth(1)
        .getAttribute('value');
      await page.getByLabel('Interaction SID').fill(firstSid!);
      await page.getByRole('button', { name: 'Show call' }).click();
      await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    } finally {
      await app.close();
    }
  });
});
