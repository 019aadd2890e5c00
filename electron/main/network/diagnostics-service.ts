/**
 * Diagnostics for IT (Help → Diagnostics, `npm run harness -- --diagnose`): gathers the facts
 * diagnostics-report.ts words (versions, key storage, update policy, trust, and for the active
 * workspace the proxy chosen, the TLS chain seen, a light request's time, the last recording
 * host), scrubbed of keys, passwords, query strings and SIDs.
 */
import { arch, platform, release } from 'node:os';
import type { DiagnosticsReport } from '$shared/contract';
import { ApiError } from '$shared/errors';
import type { Session } from '../workspaces/session';
import { buildDiagnostics, diagnosticsText, type WorkspaceDiagnostics } from './diagnostics-report';
import type { MainNetwork } from './main-network';
import type { UpdatePolicy } from './update-policy';

/** What {@link createDiagnostics} reads. */
export interface DiagnosticsOptions {
  network: Pick<MainNetwork, 'resolver' | 'trust' | 'inspectChain'>;
  session: Pick<Session, 'info' | 'testWorkspace'>;
  app: { name: string; version: string };
  /** The main log's folder. */
  logsFolder: string;
  /** The update policy in force. */
  updatePolicy: () => Promise<UpdatePolicy>;
  /** The updater's status in words, or null when it is not running. */
  updateStatus: () => string | null;
  /** `recording_url` of the last call whose recording was asked for, or null. */
  lastRecordingUrl: () => string | null;
  /** Every secret registered with the log (API keys, proxy passwords): never shown. */
  secrets: () => Iterable<string>;
  /** Opens a folder in the file manager (Electron's `shell.openPath`); absent where there is none. */
  openFolder?: ((path: string) => Promise<string>) | undefined;
}

/** Diagnostics for the bridge. */
export interface Diagnostics {
  /** The report now; never rejects for a failed check (each is a row saying what happened). */
  report(): Promise<DiagnosticsReport>;
  /** Opens the logs folder. @throws ApiError `bad_input` where no file manager can be asked, or its failure */
  openLogsFolder(): Promise<void>;
}

/** Creates the diagnostics. */
export function createDiagnostics(options: DiagnosticsOptions): Diagnostics {
  return {
    async report() {
      const generatedAt = new Date();
      // Electron adds its own versions; plain Node (the harness) has none.
      const runtime: Partial<Record<string, string>> = process.versions;
      const info = await options.session.info();
      const workspace = info.workspace ? await workspaceFacts(options, info.workspace) : null;
      const sections = buildDiagnostics(
        {
          generatedAt,
          app: options.app,
          versions: {
            electron: runtime.electron ?? null,
            chrome: runtime.chrome ?? null,
            node: process.versions.node,
          },
          os: { platform: platform(), release: release(), arch: arch() },
          keyStorage: info.secretStorage.description,
          updatePolicy: await options.updatePolicy(),
          updateStatus: options.updateStatus(),
          trust: options.network.trust.summary(),
          logsFolder: options.logsFolder,
          workspace,
        },
        options.secrets(),
      );
      return { sections, text: diagnosticsText(sections, generatedAt) };
    },
    async openLogsFolder() {
      if (!options.openFolder) {
        throw new ApiError({ kind: 'bad_input', message: `Open the logs folder yourself: ${options.logsFolder}` });
      }
      const problem = await options.openFolder(options.logsFolder);
      if (problem) {
        throw new ApiError({
          kind: 'bad_input',
          message: `The logs folder could not be opened (${problem}). It is ${options.logsFolder}`,
        });
      }
    },
  };
}

async function workspaceFacts(
  options: DiagnosticsOptions,
  workspace: { id: string; baseUrl: string },
): Promise<WorkspaceDiagnostics> {
  const { baseUrl } = workspace;
  const secure = baseUrl.startsWith('https:');
  const [proxy, tls, test] = await Promise.all([
    options.network.resolver.resolve(`${baseUrl}/phones`),
    secure
      ? options.network.inspectChain(baseUrl).catch((err: unknown) => ({
          error: err instanceof Error ? err.message : 'unknown error',
        }))
      : Promise.resolve(null),
    options.session.testWorkspace(workspace.id).catch((err: unknown) => ({
      ok: false,
      message: err instanceof Error ? err.message : 'The test could not run.',
      elapsedMs: undefined,
    })),
  ]);
  return {
    baseUrl,
    proxy,
    tls,
    lightRequest: { elapsedMs: test.elapsedMs ?? null, outcome: test.message },
    lastRecordingUrl: options.lastRecordingUrl(),
  };
}
