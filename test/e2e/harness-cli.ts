/**
 * `npm run harness -- --base-url URL --api-key KEY --sid SID [--play SECONDS] [--screenshot FILE]`
 *
 * Checks one interaction in the built renderer (headless Chromium, real handlers) against any
 * server implementing the v1 interface, and prints ONE JSON line on stdout (interaction-check.ts
 * `InteractionReport`): `{"sid", "transcriptEntries", "recording": {"state", "words"},
 * "waveformSeconds", ...}`, with `--play` also `"positionSeconds"` and `"highlightedEntry"`.
 *
 * Exit codes: 0 whenever the interaction is shown, also when its recording is unavailable (the
 * JSON says so, in the app's words); 1 only when the call itself cannot be shown (connecting
 * failed, unknown SID, ...), with the app's own words on stderr, never a bare timeout; 2 on bad
 * arguments. A screenshot is saved when --screenshot is given.
 * The key is read from --api-key or, better (it stays out of shell history), VOICE_REVIEW_API_KEY.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { ensureBuilt } from './build';
import { startHarness } from './harness';
import { checkInteraction, NotShownError, wordsOf } from './interaction-check';

const USAGE =
  'Usage: npm run harness -- --base-url https://host/v1 --api-key KEY --sid interaction_<uuid> [--play SECONDS] [--screenshot FILE]\n' +
  'The key may come from VOICE_REVIEW_API_KEY instead of --api-key.';

/** The command line, checked. */
interface CliArgs {
  baseUrl: string;
  apiKey: string;
  sid: string;
  playSeconds?: number;
  screenshot?: string;
}

/** Reads the arguments; null (after printing why and the usage) when they are not usable. */
function readArgs(): CliArgs | null {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        sid: { type: 'string' },
        play: { type: 'string' },
        screenshot: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return null;
  }
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  const baseUrl = text('base-url');
  const apiKey = text('api-key') ?? process.env.VOICE_REVIEW_API_KEY;
  const sid = text('sid');
  const play = text('play');
  const playSeconds = play === undefined ? undefined : Number(play);
  if (values.help || !baseUrl || !apiKey || !sid || (playSeconds !== undefined && !(playSeconds >= 0))) {
    console.error(USAGE);
    return null;
  }
  const screenshot = text('screenshot');
  return { baseUrl, apiKey, sid, playSeconds, ...(screenshot ? { screenshot: resolve(screenshot) } : {}) };
}

/**
 * Connects a workspace through the Connect screen, as a person would.
 * @throws NotShownError with the screen's words when connecting fails
 */
async function connect(page: Page, baseUrl: string, apiKey: string): Promise<void> {
  await page.getByLabel('Workspace name').fill('Harness');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Connect' }).click();
  const connected = page.getByLabel('Interaction SID');
  const failed = page.getByRole('alert');
  const answered = await connected
    .or(failed)
    .first()
    .waitFor({ timeout: 30_000 })
    .then(() => true)
    .catch(() => false);
  if (!answered) throw new NotShownError('Connecting did not finish within 30 s.');
  if ((await failed.count()) > 0) throw new NotShownError(await wordsOf(failed));
  if ((await page.getByRole('button', { name: 'Connect' }).count()) > 0) {
    throw new NotShownError(await wordsOf(page.locator('#base-url-help')));
  }
}

async function main(): Promise<number> {
  const args = readArgs();
  if (!args) return 2;
  ensureBuilt();
  const h = await startHarness();
  try {
    await connect(h.page, args.baseUrl, args.apiKey);
    const report = await checkInteraction(
      h.page,
      args.sid,
      args.playSeconds === undefined ? {} : { playSeconds: args.playSeconds },
    );
    if (args.screenshot) {
      mkdirSync(dirname(args.screenshot), { recursive: true });
      await h.page.screenshot({ path: args.screenshot });
    }
    console.log(JSON.stringify(report));
    return 0;
  } catch (err) {
    if (!(err instanceof NotShownError)) throw err;
    console.error(`The interaction could not be shown: ${err.message}`);
    return 1;
  } finally {
    await h.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`The harness failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
