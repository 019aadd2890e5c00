/**
 * Requests through a real authenticating proxy to a service signed by a private CA: the proxy
 * choice, the dispatchers, the sign-in, the trust store and the TLS words working together.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCaFile } from '../../../electron/main/network/ca-certificate';
import { createCaStore } from '../../../electron/main/network/ca-store';
import { createDispatchers, type Dispatchers } from '../../../electron/main/network/dispatchers';
import type { BasicCredentials, ProxyEnvironment } from '../../../electron/main/network/proxy-choice';
import { ProxyProblem, proxyFailureProblem } from '../../../electron/main/network/proxy-errors';
import { createProxyResolver } from '../../../electron/main/network/proxy-resolver';
import {
  createProxyRoutes,
  memoryProxyCredentials,
  type ProxyCredentials,
  type ProxySignInRequest,
  type Route,
} from '../../../electron/main/network/proxy-routes';
import { inspectTlsChain } from '../../../electron/main/network/tls-chain';
import { explainTlsFailure } from '../../../electron/main/network/tls-errors';
import { createTrustStore, type TrustStore } from '../../../electron/main/network/trust-store';
import { BLOCKED_HOST, startDeskNetwork, type DeskNetwork } from './fixtures/desk-network';

let desk: DeskNetwork;
let dir: string;

beforeAll(async () => {
  desk = await startDeskNetwork();
  dir = mkdtempSync(path.join(tmpdir(), 'vr-desk-'));
});

afterAll(async () => {
  await desk.close();
  rmSync(dir, { recursive: true, force: true });
});

const opened: Dispatchers[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

let storeCount = 0;

/** The app's network parts for one test: a fresh CA store (with the desk CA imported or not). */
async function network(options: {
  importCa: boolean;
  env?: ProxyEnvironment;
  answers?: (BasicCredentials | null)[];
  credentials?: ProxyCredentials;
}) {
  const store = createCaStore(path.join(dir, `cas-${storeCount++}.pem`));
  if (options.importCa) await store.add(readCaFile(Buffer.from(desk.ca.cert))[0]!);
  const trust: TrustStore = createTrustStore(store);
  await trust.reload();
  const dispatchers = createDispatchers({ trust });
  opened.push(dispatchers);
  const asked: ProxySignInRequest[] = [];
  const answers = [...(options.answers ?? [])];
  const secrets: string[] = [];
  const routes = createProxyRoutes({
    resolver: createProxyResolver({ env: options.env ?? { HTTPS_PROXY: desk.proxyUrl } }),
    dispatchers,
    credentials: options.credentials ?? memoryProxyCredentials(),
    prompt: (request) => {
      asked.push(request);
      return Promise.resolve(answers.shift() ?? null);
    },
    registerSecret: (s) => secrets.push(s),
  });
  /** GET `url` along its route; resolves with the status and body text. */
  const get = (url: string) =>
    routes.withRoute(url, async ({ dispatcher }: Route) => {
      const response = await undiciFetch(url, { dispatcher });
      return { status: response.status, text: await response.text() };
    });
  return { routes, trust, asked, secrets, get };
}

/** A port nothing listens on: one just opened and closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

const apiUrl = () => `https://api.desk.test:${desk.servicePort}/v1/phones`;

describe('through the desk proxy with Basic sign-in', () => {
  it('signs in once, then reaches a name only the proxy resolves, with the CA imported', async () => {
    const { get, asked, secrets } = await network({ importCa: true, answers: [desk.proxyUser] });
    expect(await get(apiUrl())).toEqual({ status: 200, text: '{"status":"success","phones":[]}' });
    expect(asked).toEqual([
      {
        proxyOrigin: desk.proxyUrl,
        proxyHost: new URL(desk.proxyUrl).host,
        realm: 'Desk Proxy',
        rejected: false,
        username: null,
      },
    ]);
    expect(await get(apiUrl())).toMatchObject({ status: 200 });
    expect(asked).toHaveLength(1);
    expect(secrets).toContain(desk.proxyUser.password);
    expect(desk.connects).toContain(`api.desk.test:${desk.servicePort}`);
  });

  it('asks again, saying so, after a wrong password, and keeps what worked', async () => {
    const credentials = memoryProxyCredentials();
    const wrong = { username: desk.proxyUser.username, password: 'not-it-at-all' };
    const { get, asked } = await network({ importCa: true, answers: [wrong, desk.proxyUser], credentials });
    expect(await get(apiUrl())).toMatchObject({ status: 200 });
    expect(asked.map((a) => [a.rejected, a.username])).toEqual([
      [false, null],
      [true, desk.proxyUser.username],
    ]);
    expect(await credentials.get(desk.proxyUrl)).toEqual(desk.proxyUser);
  });

  it('opens one sign-in sheet for requests that meet the 407 together', async () => {
    const { get, asked } = await network({ importCa: true, answers: [desk.proxyUser] });
    const results = await Promise.all([get(apiUrl()), get(apiUrl()), get(apiUrl())]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(asked).toHaveLength(1);
  });

  it('uses credentials from the proxy URL without asking', async () => {
    const proxy = new URL(desk.proxyUrl);
    proxy.username = encodeURIComponent(desk.proxyUser.username);
    proxy.password = encodeURIComponent(desk.proxyUser.password);
    const { get, asked } = await network({ importCa: true, env: { HTTPS_PROXY: proxy.href } });
    expect(await get(apiUrl())).toMatchObject({ status: 200 });
    expect(asked).toEqual([]);
  });

  it('says the sign-in was cancelled when the sheet is closed', async () => {
    const { get } = await network({ importCa: true, answers: [null] });
    await expect(get(apiUrl())).rejects.toMatchObject({
      kind: 'sign_in_cancelled',
      message: `Sign-in to the proxy ${new URL(desk.proxyUrl).host} was cancelled, so Voice Review cannot reach api.desk.test:${desk.servicePort}. Try again to sign in.`,
    });
  });

  it('fails with the untrusted issuer named when the CA is not imported', async () => {
    const { get, routes, trust } = await network({ importCa: false, answers: [desk.proxyUser] });
    const failure = await get(apiUrl()).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).not.toBeNull();
    const route = await routes.route(apiUrl());
    const host = `api.desk.test:${desk.servicePort}`;
    const problem = await explainTlsFailure(failure, host, () =>
      inspectTlsChain({
        url: apiUrl(),
        proxyUrl: route.choice.kind === 'proxy' ? route.choice.proxyUrl : null,
        proxyCredentials: desk.proxyUser,
        ca: trust.certificates(),
      }),
    );
    expect(problem).toEqual({
      kind: 'untrusted_issuer',
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      message: `The connection to ${host} is signed by “Desk Inspection CA”, which Voice Review does not trust. If your network inspects encrypted traffic, import your organisation's CA certificate in Settings → Network, or ask IT.`,
    });
  });

  it('reads the chain through the proxy: leaf and root, protocol, trusted with the CA', async () => {
    const { trust } = await network({ importCa: true });
    const report = await inspectTlsChain({
      url: apiUrl(),
      proxyUrl: desk.proxyUrl,
      proxyCredentials: desk.proxyUser,
      ca: trust.certificates(),
    });
    expect(report).toMatchObject({ trusted: true, verifyError: null, protocol: 'TLSv1.3' });
    expect(report.certificates.map((c) => [c.subject, c.issuer])).toEqual([
      ['api.desk.test', 'Desk Inspection CA'],
      ['Desk Inspection CA', 'Desk Inspection CA'],
    ]);
  });

  it("words the proxy's policy refusal", async () => {
    const { get } = await network({ importCa: true, answers: [desk.proxyUser] });
    const failure = await get(`https://${BLOCKED_HOST}/v1`).then(
      () => null,
      (err: unknown) => err,
    );
    expect(proxyFailureProblem(failure, desk.proxyUrl, BLOCKED_HOST)).toMatchObject({
      kind: 'proxy_refused',
      message: `To reach ${BLOCKED_HOST}, the proxy ${new URL(desk.proxyUrl).host} refused the connection (HTTP 403: the network's policy blocks it). Ask IT to allow ${BLOCKED_HOST} for Voice Review.`,
    });
  });

  it('words a proxy that cannot be reached', async () => {
    const closed = await closedPort();
    const proxyUrl = `http://127.0.0.1:${closed}`;
    const { get } = await network({ importCa: true, env: { HTTPS_PROXY: proxyUrl } });
    const failure = await get(apiUrl()).then(
      () => null,
      (err: unknown) => err,
    );
    expect(proxyFailureProblem(failure, proxyUrl, 'api.desk.test')?.message).toBe(
      `Voice Review could not reach the proxy 127.0.0.1:${closed} (the connection was refused). Check the proxy settings, or ask IT.`,
    );
  });
});

describe('NO_PROXY', () => {
  it('goes direct to a listed host: the proxy sees nothing', async () => {
    const { get, asked } = await network({
      importCa: true,
      env: { HTTPS_PROXY: desk.proxyUrl, NO_PROXY: 'localhost,127.0.0.0/8' },
    });
    const before = desk.connects.length;
    // 127.0.0.1 is listed by CIDR (loopback is direct anyway); the certificate names it too.
    expect(await get(`https://127.0.0.1:${desk.servicePort}/v1/phones`)).toMatchObject({ status: 200 });
    expect(desk.connects.length).toBe(before);
    expect(asked).toEqual([]);
  });

  it('goes direct for a listed name, which then does not resolve on the desk', async () => {
    const { get } = await network({ importCa: true, env: { HTTPS_PROXY: desk.proxyUrl, no_proxy: '.desk.test' } });
    const before = desk.connects.length;
    const failure = await get(apiUrl()).then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect((failure?.cause as { code?: string } | undefined)?.code).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(desk.connects.length).toBe(before);
  });
});

describe('a proxy that asks only for Windows sign-in', () => {
  let negotiating: Server;
  let url: string;

  beforeAll(async () => {
    negotiating = createServer((socket) => {
      socket.once('data', () => {
        socket.end(
          'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Negotiate\r\nProxy-Authenticate: NTLM\r\nContent-Length: 0\r\n\r\n',
        );
      });
    });
    await new Promise<void>((done) => negotiating.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(negotiating.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((done) => negotiating.close(() => done()));
  });

  it('is refused in words naming the schemes and what IT can do, without asking', async () => {
    const { get, asked } = await network({ importCa: true, env: { HTTPS_PROXY: url } });
    const failure = await get(apiUrl()).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ProxyProblem);
    expect(failure).toMatchObject({ kind: 'sign_in_scheme' });
    expect((failure as Error).message).toBe(
      `The proxy ${new URL(url).host} asks Voice Review to sign in with Windows sign-in (Negotiate/Kerberos) or Windows sign-in (NTLM), which Voice Review cannot do (it signs in to proxies with a user name and password only). Ask IT to let Voice Review reach api.desk.test:${desk.servicePort} through the proxy without sign-in (an exception for that address), or to allow Basic sign-in for it.`,
    );
    expect(asked).toEqual([]);
  });
});
