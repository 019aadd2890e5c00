/**
 * On a company network, end to end in Chromium: a real forward proxy (proxy-chain) that asks for
 * Basic sign-in and is the only route to `api.desk.test` (it resolves that name; this computer's
 * DNS knows nothing of it), and in front of the demo service a TLS endpoint whose certificate
 * comes from the desk's private inspection CA, made now with openssl. Main is the app's own stack,
 * its proxy chosen from HTTPS_PROXY/NO_PROXY as on a desk without a desktop proxy.
 */
import { execFile } from 'node:child_process';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { request as httpRequest } from 'node:http';
import { lookup } from 'node:dns/promises';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as ProxyServer } from 'proxy-chain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../electron/main/demo/server';
import { DEMO_GONE_SID, DEMO_REDIRECTED_SID } from '../../electron/main/demo/signed-storage';
import { readCaFile } from '../../electron/main/network/ca-certificate';
import { PUSH_CHANNELS } from '../../electron/shared/contract';
import { pushToRenderer } from '../fixtures/preload-bridge';
import { createPrivateCa, issueServerCertificate, type KeyAndCertificate } from '../main/network/fixtures/private-ca';
import { ensureBuilt } from './build';
import { ARTIFACTS_DIR, playerTimeSeconds, ROOT, showInteraction, startHarness, type Harness } from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { waitForWaveform, waveformDrawn } from './review-helpers';

/** The name only the proxy resolves. */
const DESK_HOST = 'api.desk.test';
const PROXY_USER = { username: 'desk\\agent', password: 'p@ss:w0rd-9f3e' };
/** A finished call of the demo seed, with its recording beside the API. */
const SEEDED_CALL = 'interaction_a11be33b-a3c4-45fc-8bb4-fa63399cb100';

let demo: DemoServer;
let ca: KeyAndCertificate;
let front: HttpsServer;
let frontPort: number;
let proxy: ProxyServer;
let proxyUrl: string;
/** CONNECT targets the proxy received (signed in or not). */
const connects: string[] = [];
let files: string;
/** This computer's own name when it resolves here (the NO_PROXY case), else null. */
let localName: string | null = null;
let h: Harness | undefined;

checkPageErrorsEachTest(() => h);

beforeAll(async () => {
  ensureBuilt();
  demo = await startDemoServer({ resourcesDir: join(ROOT, 'resources') });
  ca = createPrivateCa('Desk Inspection CA');
  localName = await lookup(hostname())
    .then((found) => (found.address === '127.0.0.1' ? hostname().toLowerCase() : null))
    .catch(() => null);
  const serverCert = issueServerCertificate(ca, [DESK_HOST, ...(localName ? [localName] : [])]);
  front = tlsFront(serverCert, new URL(demo.baseUrl));
  await new Promise<void>((done) => front.listen(0, '127.0.0.1', done));
  frontPort = (front.address() as AddressInfo).port;

  proxy = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    authRealm: 'Desk Proxy',
    prepareRequestFunction: ({ username, password, hostname: target, port }) => {
      connects.push(`${target}:${port}`);
      const signedIn = username === PROXY_USER.username && password === PROXY_USER.password;
      return {
        requestAuthentication: !signedIn,
        // The desk's egress resolves its own names.
        dnsLookup: ((name: string, options: unknown, callback: (...args: unknown[]) => void) => {
          const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
          if (name !== DESK_HOST)
            callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' }));
          else if (all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
          else callback(null, '127.0.0.1', 4);
        }) as never,
      };
    },
  });
  await proxy.listen();
  proxyUrl = `http://127.0.0.1:${proxy.port}`;
  files = mkdtempSync(join(tmpdir(), 'vr-desk-files-'));
  writeFileSync(join(files, 'desk-ca.pem'), ca.cert);
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
}, 120_000);

afterEach(async () => {
  await h?.close();
  h = undefined;
  connects.length = 0;
});

afterAll(async () => {
  await proxy.close(true);
  front.closeAllConnections();
  await new Promise<void>((done) => front.close(() => done()));
  await demo.close();
  rmSync(files, { recursive: true, force: true });
});

/**
 * The TLS endpoint of the service: forwards each request to the demo service and writes its own
 * origin (the name and port the request came to) where the demo names its loopback address.
 */
function tlsFront(cert: KeyAndCertificate, upstream: URL): HttpsServer {
  return createHttpsServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    const ownOrigin = `https://${req.headers.host ?? `${DESK_HOST}:443`}`;
    const headers = { ...req.headers, host: upstream.host };
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        const type = answer.headers['content-type'] ?? '';
        if (!type.includes('json')) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8').split(upstream.origin).join(ownOrigin);
          const { 'content-length': _length, ...rest } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
}

/** The harness on this desk: HTTPS_PROXY names the proxy (no password in it); main's dialogs stood in. */
async function startOnDesk(env: Record<string, string> = { HTTPS_PROXY: proxyUrl }): Promise<Harness> {
  h = await startHarness({
    proxyEnv: env,
    chooseOpenPath: () => Promise.resolve(join(files, 'desk-ca.pem')),
    confirmInMain: () => Promise.resolve(true),
  });
  return h;
}

/** Fills the Connect form with the desk's service and submits it. */
async function connect(harness: Harness, baseUrl = `https://${DESK_HOST}:${frontPort}/v1`): Promise<void> {
  const { page } = harness;
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('API key').fill(demo.apiKey);
  await page.getByRole('button', { name: 'Connect' }).click();
}

/** Signs in on the sheet with `password`. */
async function signIn(harness: Harness, password: string): Promise<void> {
  const sheet = harness.page.getByRole('dialog', { name: 'Sign in to the proxy' });
  await sheet.waitFor();
  await sheet.getByLabel('User name').fill(PROXY_USER.username);
  await sheet.getByLabel('Password').fill(password);
  await sheet.getByRole('button', { name: 'Sign in' }).click();
}

/** Imports the desk CA through Settings → Network (main's dialogs answer with the CA file and "Trust"). */
async function importDeskCa(harness: Harness): Promise<void> {
  const { page } = harness;
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Import CA certificate…' }).click();
  await page.getByText(/Imported “Desk Inspection CA”/).waitFor();
}

/** A finished demo call whose recording is served beside the API (not from signed storage). */
async function playableSid(harness: Harness): Promise<string> {
  for (const { sid } of demo.interactions) {
    if (sid === DEMO_GONE_SID || sid === DEMO_REDIRECTED_SID) continue;
    const found = await harness.handlers.getInteraction([sid]);
    if (found.ok && (found.value as { recording: { available: boolean } }).recording.available) return sid;
  }
  throw new Error('The demo seed has no playable call.');
}

describe('behind an authenticating proxy', () => {
  it('asks for the proxy sign-in naming the proxy, says when the password is wrong, and keeps no password in the log', async () => {
    const harness = await startOnDesk();
    await connect(harness);
    const sheet = harness.page.getByRole('dialog', { name: 'Sign in to the proxy' });
    await sheet.waitFor();
    await expect.poll(() => sheet.getByText(`127.0.0.1:${proxy.port}`).isVisible()).toBe(true);
    await signIn(harness, 'not-the-password');
    await expect.poll(() => sheet.getByRole('alert').textContent()).toMatch(/refused that user name and password/);
    await harness.page.screenshot({ path: join(ARTIFACTS_DIR, 'company-network-proxy-sign-in.png') });
    await signIn(harness, PROXY_USER.password);
    await expect.poll(() => sheet.isVisible()).toBe(false);
    // Through the proxy, to the name only it resolves.
    expect(connects).toContain(`${DESK_HOST}:${frontPort}`);
    // The password never reached main's log.
    expect(harness.mainLog.join('\n')).not.toContain(PROXY_USER.password);
    expect(harness.mainLog.join('\n')).not.toContain('not-the-password');
  });

  it('names the untrusted issuer of an inspected connection, with what to do', async () => {
    const harness = await startOnDesk();
    await connect(harness);
    await signIn(harness, PROXY_USER.password);
    const failure = harness.page.getByRole('alert').filter({ hasText: 'does not trust' });
    await failure.waitFor();
    const text = await failure.innerText();
    expect(text).toContain(`The connection to ${DESK_HOST}:${frontPort} is signed by “Desk Inspection CA”`);
    expect(text).toContain('Settings → Network');
    await harness.page.screenshot({ path: join(ARTIFACTS_DIR, 'company-network-untrusted-ca.png') });
  });

  it('with the desk CA imported in Settings → Network, reviews and plays a call through the proxy', async () => {
    const harness = await startOnDesk();
    const { page } = harness;
    await importDeskCa(harness);
    const network = page.getByRole('region', { name: 'Network' });
    await expect.poll(() => network.getByText('Desk Inspection CA').first().isVisible()).toBe(true);
    await expect.poll(() => network.getByText(/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/).count()).toBe(1);
    await expect
      .poll(() => network.getByText(/Issued by Desk Inspection CA · expires \d{4}-\d{2}-\d{2}/).count())
      .toBe(1);
    await network.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'company-network-settings-ca.png'), fullPage: true });
    await page.getByRole('button', { name: 'Close settings' }).first().click();

    await connect(harness);
    await signIn(harness, PROXY_USER.password);
    await page.getByLabel('Current workspace').waitFor();
    await showInteraction(page, await playableSid(harness));
    await waitForWaveform(page);
    await expect(waveformDrawn(page)).resolves.toBe(true);
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => playerTimeSeconds(page), { timeout: 15_000 }).toBeGreaterThan(0.3);
    // The API, the recording and the waveform's download all went through the proxy's tunnel.
    expect(connects.every((target) => target === `${DESK_HOST}:${frontPort}`)).toBe(true);
    // Settings → Network names the proxy in use for the workspace.
    const settings = await harness.handlers.getNetworkSettings([]);
    expect(settings.ok ? (settings.value as { proxy: string | null }).proxy : null).toContain(`Through ${proxyUrl}`);
  });

  it('shows Diagnostics for IT: the proxy, the TLS chain and the recording host, with no key or SID in the copy', async () => {
    const harness = await startOnDesk();
    const { page } = harness;
    await importDeskCa(harness);
    await page.getByRole('button', { name: 'Close settings' }).first().click();
    await connect(harness);
    await signIn(harness, PROXY_USER.password);
    await page.getByLabel('Current workspace').waitFor();
    const sid = await playableSid(harness);
    await showInteraction(page, sid);
    await pushToRenderer(page, PUSH_CHANNELS.menuCommand, 'diagnostics');
    const sheet = page.getByRole('dialog', { name: 'Diagnostics' });
    const workspace = sheet.getByRole('region', { name: 'Active workspace' });
    await workspace.waitFor();
    await expect.poll(() => workspace.innerText()).toContain(`Through ${proxyUrl}`);
    const text = await workspace.innerText();
    expect(text).toMatch(/Leaf certificate\s+api\.desk\.test, issued by Desk Inspection CA/);
    expect(text).toMatch(/Answered in \d+ ms/);
    expect(text).toMatch(
      new RegExp(`Recording host of the last call\\s+${DESK_HOST.replace(/\./g, '\\.')}:${frontPort}`),
    );
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'company-network-diagnostics.png') });
    const report = await harness.handlers.getDiagnostics([]);
    const copy = report.ok ? (report.value as { text: string }).text : '';
    expect(copy).toContain('Desk Inspection CA');
    for (const secret of [demo.apiKey, PROXY_USER.password, sid, '?']) expect(copy).not.toContain(secret);
  });

  it('checks a call from a terminal: npm run harness with --ca and the sign-in in HTTPS_PROXY', async () => {
    const signedIn = `http://${encodeURIComponent(PROXY_USER.username)}:${encodeURIComponent(PROXY_USER.password)}@127.0.0.1:${proxy.port}`;
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        join(ROOT, 'node_modules', '.bin', 'tsx'),
        [
          join(ROOT, 'test/e2e/harness-cli.ts'),
          ...['--base-url', `https://${DESK_HOST}:${frontPort}/v1`, '--sid', SEEDED_CALL],
          ...['--ca', join(files, 'desk-ca.pem'), '--diagnose'],
        ],
        {
          cwd: ROOT,
          env: { ...process.env, HTTPS_PROXY: signedIn, VOICE_REVIEW_API_KEY: demo.apiKey },
          timeout: 150_000,
        },
        (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.stderr).not.toContain('could not be shown');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { transcriptEntries?: number };
    expect(report.transcriptEntries).toBeGreaterThan(0);
    // The diagnostics name the proxy and the desk's CA, and never the password.
    expect(run.stderr).toContain(`Through http://127.0.0.1:${proxy.port}`);
    expect(run.stderr).toContain('Desk Inspection CA');
    expect(run.stdout + run.stderr).not.toContain(PROXY_USER.password);
    expect(connects).toContain(`${DESK_HOST}:${frontPort}`);
  });

  it('goes direct to a host NO_PROXY lists, without asking the proxy', async (context) => {
    if (localName === null) {
      console.warn(`Skipped: this computer's name (${hostname()}) does not resolve to 127.0.0.1 here.`);
      context.skip();
      return;
    }
    const harness = await startOnDesk({ HTTPS_PROXY: proxyUrl, NO_PROXY: `.desk.test,${localName}` });
    await harness.stack.network.caStore.add(readCaFile(Buffer.from(ca.cert))[0]!);
    await harness.stack.network.trust.reload();
    await connect(harness, `https://${localName}:${frontPort}/v1`);
    await harness.page.getByLabel('Current workspace').waitFor();
    await showInteraction(harness.page, await playableSid(harness));
    expect(connects).toEqual([]);
    expect(await harness.page.getByRole('dialog', { name: 'Sign in to the proxy' }).count()).toBe(0);
  });
});
