/**
 * The certificate authorities the user imported, kept in the settings folder as one PEM bundle
 * that only this user may read (mode 0600), written atomically (write-file-atomic: a temporary
 * file, fsync, rename), so a crash leaves the old list or the new one.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { describe, type CaCertificate } from './ca-certificate';

/** File name of the bundle inside the settings folder. */
export const CA_BUNDLE_FILE = 'trusted-certificate-authorities.pem';

/** The imported CAs. Every method rejects only with a file-system error (permissions, disk full). */
export interface CaStore {
  /** The imported CAs, oldest first; an unreadable block in the file is skipped. */
  list(): Promise<CaCertificate[]>;
  /**
   * Keeps `cert` (one that {@link readCaFile} accepted). Resolves with false when a certificate
   * with the same SHA-256 fingerprint is already kept (nothing is written).
   */
  add(cert: CaCertificate): Promise<boolean>;
  /** Drops the CA with this fingerprint; resolves with false when none had it. */
  remove(fingerprint256: string): Promise<boolean>;
}

/**
 * The store in file `path` (normally `<settings folder>/trusted-certificate-authorities.pem`).
 * A missing file is an empty list. Writes are serialized, so two imports never lose one another.
 */
export function createCaStore(path: string): CaStore {
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const list = async (): Promise<CaCertificate[]> => parseBundle(await readOrEmpty(path));
  const save = async (certs: readonly CaCertificate[]): Promise<void> => {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, certs.map((c) => c.pem).join(''), { mode: 0o600, fsync: true, encoding: 'utf8' });
  };
  return {
    list: () => serialized(list),
    add: (cert) =>
      serialized(async () => {
        const kept = await list();
        if (kept.some((c) => c.fingerprint256 === cert.fingerprint256)) return false;
        await save([...kept, cert]);
        return true;
      }),
    remove: (fingerprint256) =>
      serialized(async () => {
        const kept = await list();
        const rest = kept.filter((c) => c.fingerprint256 !== fingerprint256);
        if (rest.length === kept.length) return false;
        await save(rest);
        return true;
      }),
  };
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

function parseBundle(text: string): CaCertificate[] {
  const found: CaCertificate[] = [];
  for (const pem of text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
    try {
      found.push(describe(new X509Certificate(pem)));
    } catch {
      // A block damaged by hand is skipped; the others still count.
    }
  }
  return found;
}
