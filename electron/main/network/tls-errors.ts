/**
 * TLS failures in words: which certificate problem a failed request hit, naming the host and,
 * for an untrusted chain, the issuer that is not trusted (read by a diagnostic handshake, see
 * tls-chain.ts), and what the person or IT can do. Distinguishes an untrusted issuer (a network
 * that inspects TLS), a self-signed server, an expired or not-yet-valid certificate, a certificate
 * for another host name, and a handshake that failed outright.
 */
import { causeChain } from './proxy-errors';
import type { TlsChainReport } from './tls-chain';

/** Which TLS problem it was. */
export type TlsProblemKind =
  'untrusted_issuer' | 'self_signed' | 'expired' | 'not_yet_valid' | 'wrong_host' | 'revoked' | 'handshake';

/** A TLS failure, worded. */
export interface TlsProblem {
  kind: TlsProblemKind;
  /** The code Node gave (`UNABLE_TO_GET_ISSUER_CERT_LOCALLY`), for the log and Diagnostics. */
  code: string;
  /** One or two sentences naming the host, the certificate, and what to do. */
  message: string;
}

const UNTRUSTED = new Set([
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_UNTRUSTED',
  'CERT_CHAIN_TOO_LONG',
  'CERT_SIGNATURE_FAILURE',
]);
const WRONG_HOST = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);
const KNOWN = new Set([
  ...UNTRUSTED,
  ...WRONG_HOST,
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
]);
/** Other codes of the TLS layer: handshake and protocol failures. */
const HANDSHAKE = /^(ERR_SSL_|ERR_OSSL_|ERR_TLS_)|^EPROTO$|CERT/;

/** The TLS error code among an error's causes (a failed fetch wraps it), or null when the failure is not TLS. */
export function tlsErrorCode(err: unknown): string | null {
  const codes = causeChain(err)
    .map((cause) => (typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined))
    .filter((code): code is string => typeof code === 'string');
  return codes.find((code) => KNOWN.has(code)) ?? codes.find((code) => HANDSHAKE.test(code)) ?? null;
}

/** The names the certificate is for, from a wrong-host error's `cert` (Node puts the peer's certificate there). */
function altNamesOf(err: unknown): string | null {
  for (const cause of causeChain(err)) {
    const cert = typeof cause === 'object' && cause !== null ? (cause as { cert?: unknown }).cert : undefined;
    const names =
      typeof cert === 'object' && cert !== null ? (cert as { subjectaltname?: unknown }).subjectaltname : undefined;
    if (typeof names === 'string') return names;
  }
  return null;
}

const IMPORT_ADVICE =
  "If your network inspects encrypted traffic, import your organisation's CA certificate in Settings → Network, or ask IT.";

/**
 * The words for TLS error `code` on a connection to `host` (`api.example.com`, with `:port` when
 * not 443). `chain` (from a diagnostic handshake along the same route) names the issuer, the
 * expired certificate or the names the certificate is for; without it the message is general.
 * @param altNames the names from the error itself (wrong-host errors carry them)
 * @param now the date an expiry is compared against
 */
export function describeTlsProblem(
  code: string,
  host: string,
  chain: TlsChainReport | null,
  altNames: string | null = null,
  now: Date = new Date(),
): TlsProblem {
  const certs = chain?.certificates ?? [];
  const leaf = certs[0];
  const top = certs[certs.length - 1];
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT') {
    const named = leaf ? ` (“${leaf.subject}”)` : '';
    return {
      kind: 'self_signed',
      code,
      message:
        `${host} presented a self-signed certificate${named}, which Voice Review does not trust. ` +
        "Ask the service's administrator for a certificate from a certificate authority; if it is your organisation's own CA, import that CA in Settings → Network.",
    };
  }
  if (UNTRUSTED.has(code)) {
    // The issuer not trusted: the root the server sent (SELF_SIGNED_CERT_IN_CHAIN), else the issuer of the top of what it sent.
    const issuer = code === 'SELF_SIGNED_CERT_IN_CHAIN' ? top?.subject : top?.issuer;
    const signedBy = issuer ? `“${issuer}”, which` : 'a certificate authority that';
    return {
      kind: 'untrusted_issuer',
      code,
      message: `The connection to ${host} is signed by ${signedBy} Voice Review does not trust. ${IMPORT_ADVICE}`,
    };
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return validityProblem(code, host, certs, now);
  if (WRONG_HOST.has(code)) {
    const names = altNames ?? leaf?.altNames ?? null;
    const list = names ? readableNames(names) : null;
    return {
      kind: 'wrong_host',
      code,
      message:
        `The certificate presented for ${host} is ${list ? `for ${list}` : 'for another name'}, not for ${host}. ` +
        'Check the base URL; if it is right, something on the network is answering in its place: ask IT.',
    };
  }
  if (code === 'CERT_REVOKED') {
    return {
      kind: 'revoked',
      code,
      message: `The certificate of ${host} has been revoked by its issuer. Ask the service's administrator; do not use this address until it is fixed.`,
    };
  }
  return {
    kind: 'handshake',
    code,
    message: `The secure connection to ${host} failed during the handshake (${code}). Check that the base URL uses https on the right port; if it does, ask IT whether something on the network blocks it.`,
  };
}

function validityProblem(
  code: 'CERT_HAS_EXPIRED' | 'CERT_NOT_YET_VALID',
  host: string,
  certs: TlsChainReport['certificates'],
  now: Date,
): TlsProblem {
  const expired = code === 'CERT_HAS_EXPIRED';
  const index = certs.findIndex((c) =>
    expired ? new Date(c.validTo).getTime() < now.getTime() : new Date(c.validFrom).getTime() > now.getTime(),
  );
  const cert = certs[index];
  const whose = !cert
    ? `The certificate of ${host}`
    : index === 0
      ? `The certificate of ${host}`
      : `The certificate authority “${cert.subject}” in the chain of ${host}`;
  const when = cert
    ? ` ${expired ? 'expired on' : 'is not valid until'} ${(expired ? cert.validTo : cert.validFrom).slice(0, 10)}`
    : expired
      ? ' has expired'
      : ' is not valid yet';
  const today = now.toISOString().slice(0, 10);
  return {
    kind: expired ? 'expired' : 'not_yet_valid',
    code,
    message: expired
      ? `${whose}${when}. If this computer's date is right (${today}), ask the service's administrator to renew it.`
      : `${whose}${when}. Check this computer's date and time (it says ${today}).`,
  };
}

/** `DNS:a.example.com, DNS:b.example.com, IP Address:1.2.3.4` -> `a.example.com, b.example.com and 1.2.3.4`. */
function readableNames(altNames: string): string {
  const names = altNames
    .split(/,\s*/)
    .map((n) => n.replace(/^(DNS|IP Address|IP):/i, '').trim())
    .filter(Boolean);
  const shown = names.slice(0, 4);
  if (names.length > 4) shown.push(`${names.length - 4} more`);
  const last = shown.pop();
  if (last === undefined) return altNames;
  return shown.length === 0 ? last : `${shown.join(', ')} and ${last}`;
}

/**
 * The worded problem of a failed request whose cause is TLS, or null when it is not TLS.
 * For an untrusted, self-signed or expired chain, `inspect` (a diagnostic handshake along the
 * same route, see tls-chain.ts) is called once to name the certificates; if it fails the
 * message is general.
 * @param host `host[:port]` as shown
 */
export async function explainTlsFailure(
  err: unknown,
  host: string,
  inspect: () => Promise<TlsChainReport>,
  now: Date = new Date(),
): Promise<TlsProblem | null> {
  const code = tlsErrorCode(err);
  if (code === null) return null;
  const needsChain =
    UNTRUSTED.has(code) ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'CERT_HAS_EXPIRED' ||
    code === 'CERT_NOT_YET_VALID';
  const chain = needsChain ? await inspect().catch(() => null) : null;
  return describeTlsProblem(code, host, chain, altNamesOf(err), now);
}
