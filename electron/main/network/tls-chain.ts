/**
 * The certificate chain a server presents, read by a diagnostic TLS handshake: through the same
 * route as the request (direct, or a CONNECT tunnel through the same proxy with the same
 * sign-in), with `rejectUnauthorized: false` so the chain can be read even when it is not
 * trusted. Nothing is sent but the handshake: the socket is closed as soon as it is read.
 *
 * Used to name the issuer a failed request did not trust (tls-errors.ts), and by Diagnostics
 * ("TLS chain seen").
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { displayName } from './ca-certificate';
import { basicToken } from './dispatchers';
import type { BasicCredentials } from './proxy-choice';
import { parseChallenges, ProxyAuthRequiredError, ProxyProblem, hostOf } from './proxy-errors';

/** One certificate of the chain, as shown. */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  /** ISO 8601 (UTC). */
  validFrom: string;
  validTo: string;
  fingerprint256: string;
  /** The subject alternative names (`DNS:api.example.com, IP Address:1.2.3.4`), or null. */
  altNames: string | null;
}

/** What the handshake showed. */
export interface TlsChainReport {
  /** `host:port` asked for. */
  target: string;
  /** Negotiated protocol, `TLSv1.3`; null when unknown. */
  protocol: string | null;
  /** True when the chain verifies against the trust given (host name not checked). */
  trusted: boolean;
  /** OpenSSL's verdict when not trusted (`UNABLE_TO_GET_ISSUER_CERT_LOCALLY`), else null. */
  verifyError: string | null;
  /** Leaf first; the last is the root when the server sent it or the trust store completed it. */
  certificates: CertificateSummary[];
}

/** How to reach the server for the diagnostic handshake. */
export interface ChainProbeTarget {
  /** An https URL; only its host and port are used. */
  url: string;
  /** The proxy the request used (origin, `http://proxy.corp:3128`), or null for direct. */
  proxyUrl: string | null;
  /** The proxy credentials the request used, if any. */
  proxyCredentials?: BasicCredentials | null;
  /** The trust store's roots (for the verdict and for an HTTPS proxy). */
  ca: readonly string[];
  /** Longest wait for the whole probe, in milliseconds; default 10 000. */
  timeoutMs?: number;
}

/**
 * Opens a TLS handshake to `target.url` along its route and reads the chain.
 * @throws ProxyAuthRequiredError when the proxy wants a sign-in; ProxyProblem `proxy_refused` when
 *   it refuses the tunnel; a Node network error (refused, timeout) otherwise
 */
export async function inspectTlsChain(target: ChainProbeTarget): Promise<TlsChainReport> {
  const url = new URL(target.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || 443;
  const timeoutMs = target.timeoutMs ?? 10_000;
  const cleanup: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(
        Object.assign(new Error(`No TLS answer from ${host}:${port} within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([probe(target, host, port, cleanup), timeout]);
  } finally {
    clearTimeout(timer);
    // Outermost first: the TLS socket before the socket it wraps (the other order crashes Node 20
    // with a segmentation fault once the peer closes the wrapped socket).
    for (const close of cleanup.reverse()) close();
  }
}

async function probe(target: ChainProbeTarget, host: string, port: number, cleanup: (() => void)[]) {
  const raw = target.proxyUrl
    ? await tunnel(target.proxyUrl, target.proxyCredentials ?? null, `${formatHost(host)}:${port}`, target.ca, cleanup)
    : await direct(host, port, cleanup);
  const socket = await handshake(raw, host, target.ca, cleanup);
  return report(socket, `${formatHost(host)}:${port}`);
}

function formatHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

function direct(host: string, port: number, cleanup: (() => void)[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port });
    cleanup.push(() => socket.destroy());
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A CONNECT tunnel through the proxy to `authority`. */
function tunnel(
  proxyUrl: string,
  credentials: BasicCredentials | null,
  authority: string,
  ca: readonly string[],
  cleanup: (() => void)[],
): Promise<Socket> {
  const proxy = new URL(proxyUrl);
  const headers: Record<string, string> = { Host: authority };
  if (credentials) headers['Proxy-Authorization'] = basicToken(credentials);
  const options = {
    host: proxy.hostname.replace(/^\[|\]$/g, ''),
    port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
    method: 'CONNECT',
    path: authority,
    headers,
    agent: false as const,
  };
  return new Promise((resolve, reject) => {
    const req: ClientRequest =
      proxy.protocol === 'https:' ? httpsRequest({ ...options, ca: [...ca] }) : httpRequest(options);
    cleanup.push(() => req.destroy());
    req.once('connect', (res: IncomingMessage, socket: Socket) => {
      cleanup.push(() => socket.destroy());
      if (res.statusCode === 200) {
        resolve(socket);
        return;
      }
      socket.destroy();
      if (res.statusCode === 407) {
        reject(new ProxyAuthRequiredError(proxyUrl, parseChallenges(res.headers['proxy-authenticate'])));
        return;
      }
      reject(
        new ProxyProblem(
          'proxy_refused',
          `The proxy ${hostOf(proxyUrl)} would not connect to ${authority} (HTTP ${res.statusCode ?? 0}).`,
          hostOf(proxyUrl),
        ),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

function handshake(socket: Socket, host: string, ca: readonly string[], cleanup: (() => void)[]): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({
      socket,
      ...(isIP(host) ? {} : { servername: host }),
      ca: [...ca],
      // Only to read the chain: nothing but the handshake is sent, and the socket is closed next.
      rejectUnauthorized: false,
    });
    cleanup.push(() => tls.destroy());
    tls.once('secureConnect', () => resolve(tls));
    tls.once('error', reject);
  });
}

function report(socket: TLSSocket, target: string): TlsChainReport {
  const certificates: CertificateSummary[] = [];
  const seen = new Set<string>();
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (cert && Object.keys(cert).length > 0 && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    certificates.push(summary(cert));
    cert = issuerOf(cert);
  }
  const verifyError = socket.authorizationError as unknown;
  return {
    target,
    protocol: socket.getProtocol(),
    trusted: socket.authorized,
    verifyError: socket.authorized ? null : errorCode(verifyError),
    certificates,
  };
}

/** The next certificate up; Node's types say it is always there, but it is absent when the chain ends unverified. */
function issuerOf(cert: DetailedPeerCertificate): DetailedPeerCertificate | undefined {
  return (cert as { issuerCertificate?: DetailedPeerCertificate }).issuerCertificate;
}

/** Node gives `authorizationError` as an Error or a string code, depending on the version. */
function errorCode(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return (value as NodeJS.ErrnoException).code ?? value.message;
  return null;
}

function summary(cert: DetailedPeerCertificate): CertificateSummary {
  return {
    subject: displayName(cert.subject),
    issuer: displayName(cert.issuer),
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: new Date(cert.valid_to).toISOString(),
    fingerprint256: cert.fingerprint256,
    altNames: cert.subjectaltname ?? null,
  };
}
