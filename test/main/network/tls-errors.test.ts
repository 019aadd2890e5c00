import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectTlsChain, type TlsChainReport } from '../../../electron/main/network/tls-chain';
import { describeTlsProblem, explainTlsFailure, tlsErrorCode } from '../../../electron/main/network/tls-errors';
import { createPrivateCa, issueServerCertificate, selfSigned, type KeyAndCertificate } from './fixtures/private-ca';

/** A TLS server on 127.0.0.1 with `cert`; answers 200. */
async function tlsServer(cert: KeyAndCertificate, chain: string[] = []): Promise<{ server: Server; port: number }> {
  const server = createServer({ key: cert.key, cert: [cert.cert, ...chain].join('\n') }, (_req, res) => res.end('ok'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The failure of a direct GET of `url` trusting `ca`. */
async function failureOf(url: string, ca: readonly string[]): Promise<unknown> {
  const agent = new Agent({ connect: { ca: [...ca] } });
  try {
    await undiciFetch(url, { dispatcher: agent });
    return null;
  } catch (err) {
    return err;
  } finally {
    await agent.close();
  }
}

const servers: Server[] = [];
let ca: KeyAndCertificate;

beforeAll(() => {
  ca = createPrivateCa('Desk Inspection CA');
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
});

async function explain(url: string, trust: readonly string[]) {
  const host = new URL(url).host;
  const failure = await failureOf(url, trust);
  return explainTlsFailure(failure, host, () => inspectTlsChain({ url, proxyUrl: null, ca: trust }));
}

describe('TLS failures of real connections, in words', () => {
  it('names the untrusted root a server sends with its chain', async () => {
    const leaf = issueServerCertificate(ca, ['127.0.0.1']);
    const { server, port } = await tlsServer(leaf, [ca.cert]);
    servers.push(server);
    const problem = await explain(`https://127.0.0.1:${port}/`, rootCertificates);
    expect(problem).toMatchObject({ kind: 'untrusted_issuer', code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    expect(problem?.message).toBe(
      `The connection to 127.0.0.1:${port} is signed by “Desk Inspection CA”, which Voice Review does not trust. If your network inspects encrypted traffic, import your organisation's CA certificate in Settings → Network, or ask IT.`,
    );
  });

  it('tells a self-signed server apart', async () => {
    const own = selfSigned('qa-box.local', ['subjectAltName=IP:127.0.0.1']);
    const { server, port } = await tlsServer(own);
    servers.push(server);
    const problem = await explain(`https://127.0.0.1:${port}/`, rootCertificates);
    expect(problem).toMatchObject({ kind: 'self_signed', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(problem?.message).toMatch(/^127\.0\.0\.1:\d+ presented a self-signed certificate \(“qa-box.local”\)/);
  });

  it('names the host names a certificate for another host is for', async () => {
    const leaf = issueServerCertificate(ca, ['api.desk.test', 'media.desk.test']);
    const { server, port } = await tlsServer(leaf);
    servers.push(server);
    const problem = await explain(`https://localhost:${port}/`, [...rootCertificates, ca.cert]);
    expect(problem).toEqual({
      kind: 'wrong_host',
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      message: `The certificate presented for localhost:${port} is for api.desk.test and media.desk.test, not for localhost:${port}. Check the base URL; if it is right, something on the network is answering in its place: ask IT.`,
    });
  });

  it('gives no TLS words for a failure that is not TLS', async () => {
    const refused = await failureOf('https://127.0.0.1:1/', rootCertificates);
    expect(tlsErrorCode(refused)).toBeNull();
    expect(await explainTlsFailure(refused, '127.0.0.1:1', () => Promise.reject(new Error('not called')))).toBeNull();
  });

  it('falls back to general words when the diagnostic handshake fails', async () => {
    const err = new TypeError('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' }),
    });
    const problem = await explainTlsFailure(err, 'api.example.com', () => Promise.reject(new Error('refused')));
    expect(problem?.message).toMatch(
      /^The connection to api.example.com is signed by a certificate authority that Voice Review does not trust\./,
    );
  });
});

describe('expired and not-yet-valid certificates', () => {
  const chain = (validFrom: string, validTo: string, caTo = '2030-01-01T00:00:00.000Z'): TlsChainReport => ({
    target: 'api.example.com:443',
    protocol: 'TLSv1.3',
    trusted: false,
    verifyError: 'CERT_HAS_EXPIRED',
    certificates: [
      { subject: 'api.example.com', issuer: 'Example CA', validFrom, validTo, fingerprint256: 'AA', altNames: null },
      {
        subject: 'Example CA',
        issuer: 'Example CA',
        validFrom: '2020-01-01T00:00:00.000Z',
        validTo: caTo,
        fingerprint256: 'BB',
        altNames: null,
      },
    ],
  });
  const now = new Date('2026-06-01T12:00:00Z');

  it('says which certificate expired and when, and to check the date', () => {
    const problem = describeTlsProblem(
      'CERT_HAS_EXPIRED',
      'api.example.com',
      chain('2025-01-01T00:00:00Z', '2026-05-01T00:00:00Z'),
      null,
      now,
    );
    expect(problem).toEqual({
      kind: 'expired',
      code: 'CERT_HAS_EXPIRED',
      message:
        "The certificate of api.example.com expired on 2026-05-01. If this computer's date is right (2026-06-01), ask the service's administrator to renew it.",
    });
  });

  it('names an expired CA in the chain', () => {
    const problem = describeTlsProblem(
      'CERT_HAS_EXPIRED',
      'api.example.com',
      chain('2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z', '2026-03-03T00:00:00Z'),
      null,
      now,
    );
    expect(problem.message).toMatch(
      /^The certificate authority “Example CA” in the chain of api.example.com expired on 2026-03-03\./,
    );
  });

  it('points at the clock for a certificate not valid yet', () => {
    const problem = describeTlsProblem(
      'CERT_NOT_YET_VALID',
      'api.example.com',
      chain('2026-07-01T00:00:00Z', '2027-01-01T00:00:00Z'),
      null,
      now,
    );
    expect(problem).toMatchObject({ kind: 'not_yet_valid' });
    expect(problem.message).toBe(
      "The certificate of api.example.com is not valid until 2026-07-01. Check this computer's date and time (it says 2026-06-01).",
    );
  });

  it('words a handshake failure with its code', () => {
    expect(describeTlsProblem('ERR_SSL_WRONG_VERSION_NUMBER', 'api.example.com', null).message).toMatch(
      /handshake \(ERR_SSL_WRONG_VERSION_NUMBER\)\. Check that the base URL uses https on the right port/,
    );
  });
});
