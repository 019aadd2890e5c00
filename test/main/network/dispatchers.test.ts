import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup, RefusedDestinationError } from '../../../electron/main/network/address-class';
import { basicToken, createDispatchers } from '../../../electron/main/network/dispatchers';
import { causeChain } from '../../../electron/main/network/proxy-errors';
import { createPrivateCa, issueServerCertificate, type KeyAndCertificate } from './fixtures/private-ca';

let ca: KeyAndCertificate;
let server: Server;
let port: number;

beforeAll(async () => {
  ca = createPrivateCa();
  const leaf = issueServerCertificate(ca, ['localhost', '127.0.0.1']);
  server = createServer({ key: leaf.key, cert: leaf.cert }, (_req, res) => res.end('ok'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

function trust(certificates: string[]) {
  return { certificates: () => certificates, version: 1 };
}

describe('dispatchers', () => {
  it('keeps one per route and replaces it when the trust or the credentials change', async () => {
    const source = trust([...rootCertificates]);
    const dispatchers = createDispatchers({ trust: source });
    const direct = dispatchers.direct();
    expect(dispatchers.direct()).toBe(direct);
    const alice = dispatchers.proxy('http://proxy.corp:3128', { username: 'alice', password: 'one' });
    expect(dispatchers.proxy('http://proxy.corp:3128', { username: 'alice', password: 'one' })).toBe(alice);
    expect(dispatchers.proxy('http://proxy.corp:3128', { username: 'alice', password: 'two' })).not.toBe(alice);
    expect(dispatchers.proxy('http://other.corp:3128', null)).not.toBe(alice);
    source.version = 2;
    expect(dispatchers.direct()).not.toBe(direct);
    await dispatchers.close();
  });

  it("carries the trust store's CAs to direct connections", async () => {
    const url = `https://127.0.0.1:${port}/`;
    const without = createDispatchers({ trust: trust([...rootCertificates]) });
    await expect(undiciFetch(url, { dispatcher: without.direct() })).rejects.toThrow();
    const withCa = createDispatchers({ trust: trust([...rootCertificates, ca.cert]) });
    expect(await (await undiciFetch(url, { dispatcher: withCa.direct() })).text()).toBe('ok');
    await Promise.all([without.close(), withCa.close()]);
  });

  it('tells the peer address of each direct connection, by origin', async () => {
    const peers: [string, string][] = [];
    const dispatchers = createDispatchers({
      trust: trust([ca.cert]),
      onDirectPeer: (origin, address) => peers.push([origin, address]),
    });
    await (await undiciFetch(`https://localhost:${port}/`, { dispatcher: dispatchers.direct() })).text();
    expect(peers).toEqual([[`https://localhost:${port}`, '127.0.0.1']]);
    await dispatchers.close();
  });

  it('refuses a direct connection whose name resolves to a refused class, before connecting', async () => {
    let connections = 0;
    server.on('connection', () => connections++);
    const dispatchers = createDispatchers({
      trust: trust([ca.cert]),
      directLookup: guardedLookup(() => null),
    });
    const failure = await undiciFetch(`https://localhost:${port}/`, { dispatcher: dispatchers.direct() }).catch(
      (err: unknown) => err,
    );
    expect(causeChain(failure).some((e) => e instanceof RefusedDestinationError)).toBe(true);
    expect(connections).toBe(0);
    await dispatchers.close();
  });

  it('encodes Basic credentials as UTF-8', () => {
    expect(basicToken({ username: 'jö', password: 'p:w' })).toBe(`Basic ${Buffer.from('jö:p:w').toString('base64')}`);
  });
});
