/**
 * What main trusts for TLS, for the API, recordings and updates alike: Node's bundled roots,
 * the operating system's trust store where Node can read it, and the CAs the user imported.
 * Passing a `ca` list to a TLS connection replaces Node's default roots, so the list always
 * holds all three.
 */
import * as nodeTls from 'node:tls';
import type { CaStore } from './ca-store';

/** The parts of `node:tls` read (a stand-in in tests). */
export interface TlsRootSource {
  /** Node's bundled Mozilla roots, PEM. */
  readonly rootCertificates: readonly string[];
  /** Node 22.15+/Electron 45: `getCACertificates('system')` gives the OS store's roots, PEM. */
  getCACertificates?: (type: 'system') => string[];
}

/** Counts for Diagnostics. */
export interface TrustSummary {
  bundled: number;
  /** Roots read from the OS store, or null when this Node cannot read it. */
  system: number | null;
  imported: number;
}

/** The current trust. */
export interface TrustStore {
  /** Every trusted root, PEM, without duplicates: the `ca` of every TLS connection main makes. */
  certificates(): readonly string[];
  summary(): TrustSummary;
  /** Counts up each time the list changes (a dispatcher built for an older version is replaced). */
  readonly version: number;
  /** Reads the imported CAs again (after an import or removal). Rejects with the store's file error. */
  reload(): Promise<void>;
}

/**
 * The OS store's roots, or null where Node cannot read them (`tls.getCACertificates` is missing,
 * as on Node 20, or throws).
 */
export function systemCertificates(tls: TlsRootSource): string[] | null {
  if (typeof tls.getCACertificates !== 'function') return null;
  try {
    return tls.getCACertificates('system');
  } catch {
    return null;
  }
}

/**
 * A trust store over `caStore`. Call {@link TrustStore.reload} once before the first request
 * (until then only the bundled and system roots count).
 */
export function createTrustStore(caStore: CaStore, tls: TlsRootSource = nodeTls): TrustStore {
  const bundled = [...tls.rootCertificates];
  const system = systemCertificates(tls);
  let imported: string[] = [];
  let version = 0;
  let all = combine(bundled, system ?? [], imported);
  return {
    certificates: () => all,
    summary: () => ({ bundled: bundled.length, system: system?.length ?? null, imported: imported.length }),
    get version() {
      return version;
    },
    async reload() {
      const next = (await caStore.list()).map((c) => c.pem);
      if (next.join('') === imported.join('') && version > 0) return;
      imported = next;
      all = combine(bundled, system ?? [], imported);
      version++;
    },
  };
}

function combine(...lists: (readonly string[])[]): readonly string[] {
  const seen = new Set<string>();
  for (const pem of lists.flat()) seen.add(pem.replace(/\r\n/g, '\n').trim() + '\n');
  return [...seen];
}
