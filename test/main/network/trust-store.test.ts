import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaImportError, displayName, readCaFile } from '../../../electron/main/network/ca-certificate';
import { CA_BUNDLE_FILE, createCaStore } from '../../../electron/main/network/ca-store';
import { createTrustStore, systemCertificates } from '../../../electron/main/network/trust-store';
import {
  createPrivateCa,
  derOf,
  issueServerCertificate,
  selfSigned,
  type KeyAndCertificate,
} from './fixtures/private-ca';

let ca: KeyAndCertificate;
let second: KeyAndCertificate;
let dir: string;

beforeAll(() => {
  ca = createPrivateCa('Desk Inspection CA');
  second = createPrivateCa('Branch Office CA');
  dir = mkdtempSync(path.join(tmpdir(), 'vr-trust-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const DAY_MS = 24 * 3600_000;

describe('importing a CA certificate', () => {
  it('reads a PEM CA and shows subject, issuer, SHA-256 fingerprint and expiry', () => {
    const [cert] = readCaFile(Buffer.from(ca.cert));
    expect(cert).toMatchObject({ subject: 'Desk Inspection CA', issuer: 'Desk Inspection CA' });
    expect(cert?.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(new Date(cert?.validTo ?? 0).getTime()).toBeGreaterThan(Date.now() + DAY_MS);
  });

  it('reads the same CA from DER, with the same fingerprint', () => {
    const [fromPem] = readCaFile(Buffer.from(ca.cert));
    const [fromDer] = readCaFile(derOf(ca.cert));
    expect(fromDer?.fingerprint256).toBe(fromPem?.fingerprint256);
    expect(fromDer?.pem).toBe(fromPem?.pem);
  });

  it('reads every CA of a PEM bundle', () => {
    expect(readCaFile(Buffer.from(`${ca.cert}\n${second.cert}`)).map((c) => c.subject)).toEqual([
      'Desk Inspection CA',
      'Branch Office CA',
    ]);
  });

  it('refuses a file that is not a certificate, in words', () => {
    const attempt = () => readCaFile(Buffer.from('hello, this is a text file'));
    expect(attempt).toThrow(CaImportError);
    expect(attempt).toThrow(/not a certificate Voice Review can read.*PEM.*DER/);
  });

  it('refuses a private key and says why', () => {
    expect(() => readCaFile(Buffer.from(ca.key))).toThrow(/private key/);
  });

  it('refuses a server certificate: it is not a CA', () => {
    const leaf = issueServerCertificate(ca, ['api.desk.test']);
    try {
      readCaFile(Buffer.from(leaf.cert));
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ problem: 'not_a_ca' });
      expect((err as Error).message).toBe(
        '“api.desk.test” is not a certificate authority (it is not marked CA:TRUE), so it cannot vouch for other certificates. Ask IT for the CA certificate that issued it.',
      );
    }
  });

  it('refuses a self-signed certificate without CA:TRUE', () => {
    const plain = selfSigned('Not A CA', ['basicConstraints=critical,CA:FALSE']);
    expect(() => readCaFile(Buffer.from(plain.cert))).toThrow(expect.objectContaining({ problem: 'not_a_ca' }));
  });

  it('refuses an expired CA and one not valid yet', () => {
    const later = new Date(Date.now() + 3 * DAY_MS);
    expect(() => readCaFile(Buffer.from(ca.cert), later)).toThrow(/Desk Inspection CA” expired on \d{4}-\d\d-\d\d/);
    const earlier = new Date(Date.now() - 2 * DAY_MS);
    expect(() => readCaFile(Buffer.from(ca.cert), earlier)).toThrow(
      expect.objectContaining({ problem: 'not_yet_valid' }),
    );
  });

  it('refuses a whole bundle when one certificate in it fails', () => {
    const leaf = issueServerCertificate(ca, ['api.desk.test']);
    expect(() => readCaFile(Buffer.from(`${ca.cert}${leaf.cert}`))).toThrow(/api.desk.test/);
  });
});

describe('display names', () => {
  it('prefers CN, then O', () => {
    expect(displayName('C=GB\nO=Desk Ltd\nCN=Desk Root')).toBe('Desk Root');
    expect(displayName('C=GB\nO=Desk Ltd')).toBe('Desk Ltd');
    expect(displayName({ O: 'Desk Ltd', CN: ['A', 'B'] })).toBe('A');
    expect(displayName({ C: 'GB' })).toBe('C=GB');
  });
});

describe('the store of imported CAs', () => {
  it('adds, lists, refuses a duplicate and removes, in a 0600 file', async () => {
    const file = path.join(dir, 'settings', CA_BUNDLE_FILE);
    const store = createCaStore(file);
    const [desk] = readCaFile(Buffer.from(ca.cert));
    const [branch] = readCaFile(Buffer.from(second.cert));
    expect(await store.list()).toEqual([]);
    expect(await store.add(desk!)).toBe(true);
    expect(await store.add(branch!)).toBe(true);
    expect(await store.add(desk!)).toBe(false);
    expect((await store.list()).map((c) => c.subject)).toEqual(['Desk Inspection CA', 'Branch Office CA']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await store.remove(desk!.fingerprint256)).toBe(true);
    expect(await store.remove(desk!.fingerprint256)).toBe(false);
    expect((await createCaStore(file).list()).map((c) => c.subject)).toEqual(['Branch Office CA']);
  });

  it('keeps both of two imports made at once', async () => {
    const store = createCaStore(path.join(dir, 'concurrent', CA_BUNDLE_FILE));
    const [desk] = readCaFile(Buffer.from(ca.cert));
    const [branch] = readCaFile(Buffer.from(second.cert));
    await Promise.all([store.add(desk!), store.add(branch!)]);
    expect(await store.list()).toHaveLength(2);
  });

  it('skips a block damaged by hand and keeps the others', async () => {
    const file = path.join(dir, 'damaged.pem');
    writeFileSync(file, `-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n${ca.cert}`);
    expect((await createCaStore(file).list()).map((c) => c.subject)).toEqual(['Desk Inspection CA']);
    expect(readFileSync(file, 'utf8')).toContain('AAAA');
  });
});

describe('the trust store', () => {
  it('holds the bundled roots and the imported CAs, and counts changes', async () => {
    const file = path.join(dir, 'trust', CA_BUNDLE_FILE);
    const store = createCaStore(file);
    const trust = createTrustStore(store);
    await trust.reload();
    const before = trust.version;
    expect(trust.certificates().length).toBeGreaterThanOrEqual(rootCertificates.length);
    await store.add(readCaFile(Buffer.from(ca.cert))[0]!);
    await trust.reload();
    expect(trust.version).toBe(before + 1);
    expect(trust.certificates()).toContain(readCaFile(Buffer.from(ca.cert))[0]!.pem);
    expect(trust.summary()).toMatchObject({ bundled: rootCertificates.length, imported: 1 });
    await trust.reload();
    expect(trust.version).toBe(before + 1);
  });

  it('adds the OS store where Node can read it, and says when it cannot', () => {
    const osRoot = second.cert;
    const withSystem = createTrustStore(createCaStore(path.join(dir, 'none.pem')), {
      rootCertificates: [ca.cert],
      getCACertificates: () => [osRoot, ca.cert],
    });
    expect(withSystem.certificates()).toHaveLength(2);
    expect(withSystem.summary()).toMatchObject({ bundled: 1, system: 2 });
    expect(systemCertificates({ rootCertificates: [] })).toBeNull();
    expect(
      systemCertificates({
        rootCertificates: [],
        getCACertificates: () => {
          throw new Error('not on this platform');
        },
      }),
    ).toBeNull();
  });
});
