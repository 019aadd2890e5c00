/**
 * `npm run harness -- --base-url URL --api-key KEY --sid SID [--play SECONDS] [--screenshot FILE]
 *   [--ca FILE] [--diagnose]`
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
 *
 * On a company network: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) choose the proxy as in
 * the app on a desk without a desktop proxy; a proxy that asks for a password gets the one in the
 * proxy URL (`HTTPS_PROXY=http://user:password@host:port`), as nobody can answer the sign-in sheet
 * here. `--ca FILE` trusts a CA certificate (PEM or DER) for this run, as importing it in
 * Settings → Network does. `--diagnose` prints Diagnostics' "Copy for IT" text instead of the
 * JSON line (`--sid` is then optional).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { ensureBuilt } from './build';
import { startHarness, type Harness } from './harness';
import { CaImportError, readCaFile } from '../../electron/main/network/ca-certificate';
import { checkInteraction, NotShownError, wordsOf } from './interaction-check';

const USAGE =
  'Usage: npm run harness -- --base-url https://host/v1 --api-key KEY --sid interaction_<uuid> [--play SECONDS] [--screenshot FILE] [--ca FILE] [--diagnose]\n' +
  'The key may come from VOICE_REVIEW_API_KEY instead of --api-key. The proxy comes from HTTPS_PROXY/HTTP_PROXY/NO_PROXY.';

/** The command line, checked. */
interface CliArgs {
  baseUrl: string;
  apiKey: string;
  /** The call to check; absent with --diagnose alone. */
  sid: string | undefined;
  playSeconds?: number;
  screenshot?: string;
  /** A CA certificate file to trust for this run. */
  ca?: string;
  diagnose: boolean;
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
        ca: { type: 'string' },
        diagnose: { type: 'boolean' },
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
  const diagnose = values.diagnose === true;
  if (values.help || !baseUrl || !apiKey || (!sid && !diagnose) || (playSeconds !== undefined && !(playSeconds >= 0))) {
    console.error(USAGE);
    return null;
  }
  const screenshot = text('screenshot');
  const ca = text('ca');
  return {
    baseUrl,
    apiKey,
    sid,
    playSeconds,
    diagnose,
    ...(screenshot ? { screenshot: resolve(screenshot) } : {}),
    ...(ca ? { ca: resolve(ca) } : {}),
  };
}

/**
 * Trusts the CA certificate in `path` for this run (the same checks as Settings → Network).
 * @throws NotShownError with the reason when the file cannot be read or is not a current CA
 */
async function trustCa(h: Harness, path: string): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    throw new NotShownError(`The CA certificate file ${path} could not be read.`);
  }
  try {
    for (const cert of readCaFile(bytes)) await h.stack.network.caStore.add(cert);
  } catch (err) {
    throw err instanceof CaImportError ? new NotShownError(err.message) : err;
  }
  await h.stack.network.trust.reload();
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
  const h = await startHarness({ proxyEnv: process.env });
  // Nobody answers a sign-in sheet here: a proxy's password comes from the proxy URL.
  h.setSignInPush(null);
  try {
    if (args.ca) await trustCa(h, args.ca);
    await connect(h.page, args.baseUrl, args.apiKey);
    if (args.diagnose && !args.sid) {
      const diagnostics = await h.handlers.getDiagnostics([]);
      if (!diagnostics.ok) throw new NotShownError(diagnostics.error.message);
      process.stdout.write((diagnostics.value as { text: string }).text);
      return 0;
    }
    const report = await checkInteraction(
      h.page,
      args.sid ?? '',
      args.playSeconds === undefined ? {} : { playSeconds: args.playSeconds },
    );
    if (args.diagnose) {
      const diagnostics = await h.handlers.getDiagnostics([]);
      if (diagnostics.ok) process.stderr.write((diagnostics.value as { text: string }).text);
    }
    if (args.screenshot) {
      mkdirSync(dirname(args.screenshot), { recursive: true });
      await h.page.screenshot({ path: args.screenshot });
    }
    console.log(JSON.stringify(report));
    return 0;
  } catch (err) {
    if (!(err instanceof NotShownError)) throw err;
    console.error(`The interaction could not be shown: ${err.message}`);
    if (/proxy/i.test(err.message) && /sign/i.test(err.message)) {
      console.error(
        "Give the proxy's user name and password in the proxy URL: HTTPS_PROXY=http://user:password@host:port",
      );
    }
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
