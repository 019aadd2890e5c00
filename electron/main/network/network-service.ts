/**
 * The network's side of the IPC contract: the proxy sign-in sheet (main asks the page, the page
 * answers), proxy credentials kept in the key store per proxy origin, and Settings → Network
 * (import a CA through main's open dialog and main's confirmation dialog, list, remove).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type {
  CaCertificateInfo,
  CaImportResult,
  NetworkSettings,
  ProxyCredentialsInput,
  ProxySignInPush,
} from '$shared/contract';
import { ApiError } from '$shared/errors';
import type { SecretStore } from '../keys/keychain';
import { CaImportError, readCaFile, type CaCertificate } from './ca-certificate';
import type { MainNetwork } from './main-network';
import { describeProxyChoice, type BasicCredentials } from './proxy-choice';
import type { ProxyCredentials, ProxySignInPrompt } from './proxy-routes';

/** Sends the sign-in ask to the page; false when there is no window to ask in. */
export type SignInPush = (push: ProxySignInPush) => boolean;

/** The sheet's two ends: the prompt the proxy router calls, and the page's answer. */
export interface SignInBroker {
  prompt: ProxySignInPrompt;
  /** The page's answer to ask `id`; an unknown or already answered id is ignored. */
  answer(id: string, credentials: ProxyCredentialsInput | null): void;
}

/**
 * The sign-in sheet over `push`: each ask gets an id, waits for the page's answer, and resolves
 * with null (cancelled) when no window can be asked. `push` may be set later (the window opens
 * after main is built): it is read at each ask.
 */
export function createSignInBroker(push: () => SignInPush | null): SignInBroker {
  const waiting = new Map<string, (credentials: BasicCredentials | null) => void>();
  return {
    prompt: (request) =>
      new Promise((resolve) => {
        const id = randomUUID();
        waiting.set(id, resolve);
        const send = push();
        const sent =
          send?.({
            id,
            proxyHost: request.proxyHost,
            realm: request.realm,
            rejected: request.rejected,
            username: request.username,
          }) ?? false;
        if (!sent) {
          waiting.delete(id);
          resolve(null);
        }
      }),
    answer: (id, credentials) => {
      const resolve = waiting.get(id);
      waiting.delete(id);
      resolve?.(credentials ? { username: credentials.username, password: credentials.password } : null);
    },
  };
}

/** The key-store account of a proxy's sign-in. */
function accountOf(proxyOrigin: string): string {
  return `proxy ${proxyOrigin}`;
}

/**
 * Proxy credentials in the key store (the keychain in the app), one entry per proxy origin,
 * beside the workspaces' API keys. A value that cannot be read counts as none.
 */
export function keyStoreProxyCredentials(store: SecretStore): ProxyCredentials {
  return {
    async get(origin) {
      const text = await store.get(accountOf(origin));
      if (!text) return null;
      try {
        const value = JSON.parse(text) as { username?: unknown; password?: unknown };
        return typeof value.username === 'string' && typeof value.password === 'string'
          ? { username: value.username, password: value.password }
          : null;
      } catch {
        return null;
      }
    },
    set: (origin, credentials) =>
      store.set(accountOf(origin), JSON.stringify({ username: credentials.username, password: credentials.password })),
    forget: async (origin) => {
      await store.delete(accountOf(origin));
    },
  };
}

/** Main's open dialog: resolves with the chosen file's path, or null when cancelled. */
export type OpenPathChooser = (request: {
  title: string;
  filters: { name: string; extensions: string[] }[];
}) => Promise<string | null>;

/** Main's confirmation dialog: resolves true when the user chose `confirmLabel`. */
export type ConfirmInMain = (request: {
  title: string;
  message: string;
  detail: string;
  confirmLabel: string;
}) => Promise<boolean>;

/** What {@link createNetworkService} needs. */
export interface NetworkServiceOptions {
  network: Pick<MainNetwork, 'caStore' | 'trust' | 'resolver'>;
  /** The active workspace's base URL (the proxy shown is the one chosen for it), or null. */
  activeBaseUrl: () => string | null;
  /** Main's open dialog; without it, importing is refused with words. */
  chooseOpenPath?: OpenPathChooser | undefined;
  /** Main's confirmation dialog; without it, importing is refused with words. */
  confirm?: ConfirmInMain | undefined;
}

/** Settings → Network. Methods reject with an {@link ApiError}. */
export interface NetworkService {
  settings(): Promise<NetworkSettings>;
  importCa(): Promise<CaImportResult>;
  removeCa(fingerprint256: string): Promise<NetworkSettings>;
}

/** Creates the service. */
export function createNetworkService(options: NetworkServiceOptions): NetworkService {
  const { network } = options;
  const settings = async (): Promise<NetworkSettings> => {
    const certificates = (await storeCall(() => network.caStore.list())).map(info);
    const base = options.activeBaseUrl();
    const proxy = base && /^https?:/.test(base) ? describeProxyChoice(await network.resolver.resolve(base)) : null;
    return { certificates, trust: network.trust.summary(), proxy };
  };
  return {
    settings,
    async importCa() {
      const { chooseOpenPath, confirm } = options;
      if (!chooseOpenPath || !confirm) {
        throw new ApiError({ kind: 'bad_input', message: 'Importing a certificate is not available here.' });
      }
      const path = await chooseOpenPath({
        title: 'Import a CA certificate',
        filters: [
          { name: 'CA certificates', extensions: ['pem', 'crt', 'cer', 'der'] },
          { name: 'All files', extensions: ['*'] },
        ],
      });
      if (path === null) return { imported: null, settings: await settings() };
      const certs = readCertificates(await readChosen(path));
      const ok = await confirm({
        title: 'Trust this certificate authority?',
        message: `Trust “${certs[0]?.subject ?? ''}”${certs.length > 1 ? ` and ${certs.length - 1} more` : ''} for every connection Voice Review makes?`,
        detail: certs.map(confirmText).join('\n\n'),
        confirmLabel: 'Trust',
      });
      if (!ok) return { imported: null, settings: await settings() };
      const added: CaCertificate[] = [];
      for (const cert of certs) if (await storeCall(() => network.caStore.add(cert))) added.push(cert);
      await storeCall(() => network.trust.reload());
      return { imported: added.map(info), settings: await settings() };
    },
    async removeCa(fingerprint256) {
      await storeCall(() => network.caStore.remove(fingerprint256));
      await storeCall(() => network.trust.reload());
      return settings();
    },
  };
}

function readCertificates(bytes: Uint8Array): CaCertificate[] {
  try {
    return readCaFile(bytes);
  } catch (err) {
    if (err instanceof CaImportError) throw new ApiError({ kind: 'bad_input', message: err.message });
    throw err;
  }
}

async function readChosen(path: string): Promise<Buffer> {
  try {
    const bytes = await readFile(path);
    if (bytes.byteLength > 1024 * 1024) {
      throw new ApiError({ kind: 'bad_input', message: 'This file is too large to be a CA certificate (over 1 MB).' });
    }
    return bytes;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError({
      kind: 'bad_input',
      message: 'The file could not be read. Check that it exists and you may open it.',
    });
  }
}

/** A store call whose file-system failure becomes words. */
async function storeCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch {
    throw new ApiError({
      kind: 'server',
      message:
        'The list of imported certificate authorities could not be read or saved in the settings folder. Check the disk, then try again.',
    });
  }
}

function info(cert: CaCertificate): CaCertificateInfo {
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    fingerprint256: cert.fingerprint256,
    validFrom: cert.validFrom,
    validTo: cert.validTo,
  };
}

function confirmText(cert: CaCertificate): string {
  return [
    `Subject: ${cert.subject}`,
    `Issuer: ${cert.issuer}`,
    `SHA-256: ${cert.fingerprint256}`,
    `Expires: ${cert.validTo.slice(0, 10)}`,
    'Compare the fingerprint with the one IT gave you.',
  ].join('\n');
}
