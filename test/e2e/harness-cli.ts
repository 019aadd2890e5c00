/**
 * `npm run harness -- --base-url URL --api-key KEY --sid SID --screenshot FILE`
 *
 * Shows one interaction in the built renderer (headless Chromium, real handlers) against any
 * server implementing the v1 interface, saves a screenshot, and exits 0. Exits 1 with the
 * app's own error text when the interaction cannot be shown, 2 on bad arguments.
 * The key is read from --api-key or, better (it stays out of shell history), VOICE_REVIEW_API_KEY.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt } from './build';
import { showInteraction, startHarness } from './harness';

async function main(): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        sid: { type: 'string' },
        screenshot: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 2;
  }
  const baseUrl = values['base-url'] as string | undefined;
  const apiKey = (values['api-key'] as string | undefined) ?? process.env.VOICE_REVIEW_API_KEY;
  const sid = values.sid as string | undefined;
  const screenshot = resolve((values.screenshot as string | undefined) ?? 'test-artifacts/harness.png');
  if (values.help || !baseUrl || !apiKey || !sid) {
    console.error(
      'Usage: npm run harness -- --base-url https://host/v1 --api-key KEY --sid interaction_<uuid> [--screenshot FILE]',
    );
    console.error('The key may come from VOICE_REVIEW_API_KEY instead of --api-key.');
    return 2;
  }

  ensureBuilt();
  const h = await startHarness();
  try {
    const page = h.page;
    await page.getByLabel('Workspace name').fill('Harness');
    await page.getByLabel('Base URL').fill(baseUrl);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Connect' }).click();
    const connected = page.getByLabel('Interaction SID');
    const failed = page.getByRole('alert');
    await connected.or(failed).first().waitFor({ timeout: 30_000 });
    if (await failed.count()) throw new Error((await failed.first().innerText()).trim());
    if ((await page.getByRole('button', { name: 'Connect' }).count()) > 0) {
      throw new Error((await page.locator('#base-url-help').innerText()).trim());
    }
    await showInteraction(page, sid);
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
    console.log(`Shown ${sid}; screenshot saved to ${screenshot}`);
    return 0;
  } catch (err) {
    console.error(`The interaction could not be shown: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await h.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
