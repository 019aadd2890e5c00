/**
 * Real-Electron smoke test (Playwright's `_electron`). It needs the Electron binary, which this
 * CI machine cannot download; where it is missing the test is skipped and says why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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
      const exposure = await page.evaluate(() => ({
        api: Object.keys((window as unknown as { api: object }).api).sort(),
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
        ipcRenderer: 'ipcRenderer' in window,
      }));
      expect(exposure.require).toBe('undefined');
      expect(exposure.process).toBe('undefined');
      expect(exposure.ipcRenderer).toBe(false);
      expect(exposure.api).toContain('getInteraction');
      await page.getByRole('button', { name: 'Open demo workspace' }).click();
      await page.getByRole('combobox', { name: 'Demo calls' }).waitFor();
      const firstSid = await page.getByRole('combobox', { name: 'Demo calls' }).locator('option').nth(1).getAttribute('value');
      await page.getByLabel('Interaction SID').fill(firstSid!);
      await page.getByRole('button', { name: 'Show call' }).click();
      await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    } finally {
      await app.close();
    }
  });
});
