/**
 * Reading a certificate authority the user imports in Settings → Network (a desk whose network
 * re-signs TLS with its own CA): PEM or DER, parsed by Node's `crypto.X509Certificate`. Only a
 * CA certificate (basicConstraints CA:TRUE) that is valid today is accepted; there is no way to
 * trust anything else ("trust anyway" does not exist).
 */
import { X509Certificate } from 'node:crypto';

/** An imported CA, as Settings → Network shows it. */
export interface CaCertificate {
  /** The certificate, PEM-encoded (one `BEGIN CERTIFICATE` block, `\n` line ends). */
  pem: string;
  /** The subject's common name (else organisation, else the whole subject): "Desk Inspection CA". */
  subject: string;
  /** The issuer's name, the same way; equal to `subject` for a root. */
  issuer: string;
  /** SHA-256 fingerprint, upper-case hex pairs joined by `:` (what IT compares against). */
  fingerprint256: string;
  /** Start and end of validity, ISO 8601 (UTC). */
  validFrom: string;
  validTo: string;
}

/** Why a file cannot be imported. */
export type CaImportProblem = 'unreadable' | 'private_key' | 'not_a_ca' | 'expired' | 'not_yet_valid';

/** A refused import; `message` says why and what to do. */
export class CaImportError extends Error {
  constructor(
    readonly problem: CaImportProblem,
    message: string,
  ) {
    super(message);
    this.name = 'CaImportError';
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The CA certificates in a file's bytes: every `BEGIN CERTIFICATE` block of a PEM file (a bundle
 * of a root and its intermediates is fine), or one DER certificate.
 * @param now the date validity is checked against
 * @throws CaImportError `unreadable` (not a certificate, PKCS#7 or PKCS#12), `private_key`,
 *   `not_a_ca` (no basicConstraints CA:TRUE), `expired` or `not_yet_valid`; for a bundle, the
 *   first certificate that fails names itself in the message, and nothing is imported
 */
export function readCaFile(bytes: Uint8Array, now: Date = new Date()): CaCertificate[] {
  const text = Buffer.from(bytes).toString('latin1');
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    throw new CaImportError(
      'private_key',
      'This file holds a private key, which must never leave the place it belongs to. Choose the CA certificate file (.pem, .crt or .cer) instead.',
    );
  }
  const blocks = text.match(PEM_BLOCK);
  const parsed = blocks ? blocks.map((pem) => parseOne(Buffer.from(pem, 'latin1'))) : [parseOne(Buffer.from(bytes))];
  return parsed.map((cert) => checked(cert, now));
}

function parseOne(bytes: Buffer): X509Certificate {
  try {
    return new X509Certificate(bytes);
  } catch {
    throw new CaImportError(
      'unreadable',
      'This file is not a certificate Voice Review can read. Choose a CA certificate in PEM (BEGIN CERTIFICATE) or DER form (.pem, .crt, .cer); a .p7b or .pfx file must be exported as one of those first.',
    );
  }
}

function checked(cert: X509Certificate, now: Date): CaCertificate {
  const info = describe(cert);
  if (!cert.ca) {
    throw new CaImportError(
      'not_a_ca',
      `“${info.subject}” is not a certificate authority (it is not marked CA:TRUE), so it cannot vouch for other certificates. Ask IT for the CA certificate that issued it.`,
    );
  }
  if (new Date(info.validTo).getTime() < now.getTime()) {
    throw new CaImportError(
      'expired',
      `“${info.subject}” expired on ${info.validTo.slice(0, 10)}. Ask IT for the current CA certificate.`,
    );
  }
  if (new Date(info.validFrom).getTime() > now.getTime()) {
    throw new CaImportError(
      'not_yet_valid',
      `“${info.subject}” is not valid until ${info.validFrom.slice(0, 10)}. Check this computer's date, or ask IT for the current CA certificate.`,
    );
  }
  return info;
}

/** The fields shown for a parsed certificate (no validity checks). */
export function describe(cert: X509Certificate): CaCertificate {
  return {
    pem: cert.toString().replace(/\r\n/g, '\n').trim() + '\n',
    subject: displayName(cert.subject),
    issuer: displayName(cert.issuer),
    fingerprint256: cert.fingerprint256,
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: new Date(cert.validTo).toISOString(),
  };
}

/**
 * The name a person knows a certificate by: the CN of a distinguished name as Node writes it
 * (`"C=GB\nO=Desk Ltd\nCN=Desk Inspection CA"`, or a TLS peer's `{ CN, O }` object), else its O,
 * else the whole name on one line.
 */
export function displayName(name: string | Readonly<Record<string, string | string[] | undefined>>): string {
  const fields: Record<string, string> = {};
  if (typeof name === 'string') {
    for (const line of name.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) fields[line.slice(0, eq)] ??= line.slice(eq + 1);
    }
  } else {
    for (const [key, value] of Object.entries(name)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (first !== undefined) fields[key] = first;
    }
  }
  const whole =
    typeof name === 'string'
      ? name.split('\n').join(', ')
      : Object.entries(fields)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ');
  return fields.CN ?? fields.O ?? (whole || 'an unnamed certificate');
}
