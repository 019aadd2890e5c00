/**
 * Diagnostics for IT (Help → Diagnostics, `harness --diagnose`): what Voice Review runs on and
 * how it reaches the active workspace, as sections of rows for the view and as the "Copy for IT"
 * text. Pure: the caller gathers the facts (versions, the proxy choice, a TLS chain report, the
 * time of a light request) and passes them in.
 *
 * Every value is scrubbed before it is shown or copied: no API key (nor any registered secret),
 * no credentials or query strings in URLs, no SIDs or other identifiers.
 */
import { describeProxyChoice, type ProxyChoice } from './proxy-choice';
import type { TlsChainReport } from './tls-chain';
import type { TrustSummary } from './trust-store';
import type { UpdatePolicy } from './update-policy';

/** The facts gathered for the report. */
export interface DiagnosticsInput {
  /** When the report was made (shown in UTC). */
  generatedAt: Date;
  app: { name: string; version: string };
  /** `process.versions` parts; electron and chrome are null under plain Node (the harness). */
  versions: { electron: string | null; chrome: string | null; node: string };
  os: { platform: string; release: string; arch: string };
  /** Where API keys are kept, in words ("the system keychain (Secret Service)"). */
  keyStorage: string;
  updatePolicy: UpdatePolicy;
  /** The update's status in words ("Downloaded 1.2.0, waiting for a restart"), or null. */
  updateStatus: string | null;
  trust: TrustSummary;
  /** The main log's folder. */
  logsFolder: string;
  /** The active workspace, or null when none is connected. */
  workspace: WorkspaceDiagnostics | null;
}

/** How the active workspace is reached. */
export interface WorkspaceDiagnostics {
  baseUrl: string;
  /** The proxy chosen for the base URL. */
  proxy: ProxyChoice;
  /** The chain seen on the base URL (tls-chain.ts), the reason it could not be read, or null for http. */
  tls: TlsChainReport | { error: string } | null;
  /** One light request (the connection test's GET /phones): time to the answer, and the outcome in words. */
  lightRequest: { elapsedMs: number | null; outcome: string } | null;
  /** `recording_url` of the last call reviewed (only its host is shown), or null. */
  lastRecordingUrl: string | null;
}

/** One line of a section. */
export interface DiagnosticsRow {
  label: string;
  value: string;
}

/** A titled group of rows. */
export interface DiagnosticsSection {
  title: string;
  rows: DiagnosticsRow[];
}

/**
 * The report's sections, every value scrubbed with {@link scrubForIt}.
 * @param secrets the values that must never appear (the log's registered secrets: API keys, proxy passwords)
 */
export function buildDiagnostics(input: DiagnosticsInput, secrets: Iterable<string>): DiagnosticsSection[] {
  const known = [...secrets];
  const row = (label: string, value: string): DiagnosticsRow => ({ label, value: scrubForIt(value, known) });
  const sections: DiagnosticsSection[] = [
    {
      title: 'This computer',
      rows: [
        row('App', `${input.app.name} ${input.app.version}`),
        row(
          'Runtime',
          [
            input.versions.electron ? `Electron ${input.versions.electron}` : 'Electron: not running (plain Node)',
            input.versions.chrome ? `Chromium ${input.versions.chrome}` : null,
            `Node ${input.versions.node}`,
          ]
            .filter(Boolean)
            .join(', '),
        ),
        row('Operating system', `${input.os.platform} ${input.os.release} (${input.os.arch})`),
        row('Key storage', input.keyStorage),
        row(
          'Updates',
          `${input.updatePolicy.updatesAllowed ? 'Allowed' : 'Off'}: ${input.updatePolicy.detail}${
            input.updateStatus ? ` ${input.updateStatus}` : ''
          }${input.updatePolicy.warnings.length > 0 ? ` (${input.updatePolicy.warnings.join(' ')})` : ''}`,
        ),
        row('Trusted certificate authorities', trustWords(input.trust)),
        row('Logs folder', input.logsFolder),
      ],
    },
  ];
  const ws = input.workspace;
  sections.push({
    title: 'Active workspace',
    rows: ws
      ? [
          row('Base URL', ws.baseUrl),
          row('Proxy for the base URL', describeProxyChoice(ws.proxy)),
          ...tlsRows(ws.tls).map((r) => row(r.label, r.value)),
          row(
            'Light request (GET /phones)',
            ws.lightRequest
              ? `${ws.lightRequest.elapsedMs === null ? 'No answer' : `Answered in ${ws.lightRequest.elapsedMs} ms`}: ${ws.lightRequest.outcome}`
              : 'Not made',
          ),
          row(
            'Recording host of the last call',
            ws.lastRecordingUrl ? hostOfUrl(ws.lastRecordingUrl) : 'No call reviewed yet',
          ),
        ]
      : [row('Workspace', 'None connected')],
  });
  return sections;
}

/** The "Copy for IT" text of a report: a heading with the time, then each section's rows. */
export function diagnosticsText(sections: readonly DiagnosticsSection[], generatedAt: Date): string {
  const lines = [`Voice Review diagnostics, ${generatedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`];
  for (const section of sections) {
    lines.push('', section.title);
    for (const { label, value } of section.rows) lines.push(`  ${label}: ${value}`);
  }
  return `${lines.join('\n')}\n`;
}

function trustWords(trust: TrustSummary): string {
  const system =
    trust.system === null ? 'the system store cannot be read by this version' : `${trust.system} from the system store`;
  const imported = trust.imported === 1 ? '1 imported' : `${trust.imported} imported`;
  return `${trust.bundled} bundled, ${system}, ${imported}`;
}

function tlsRows(tls: WorkspaceDiagnostics['tls']): DiagnosticsRow[] {
  if (tls === null) return [{ label: 'TLS', value: 'Not used (http)' }];
  if ('error' in tls) return [{ label: 'TLS', value: `Chain could not be read: ${tls.error}` }];
  const verdict = tls.trusted ? 'trusted' : `not trusted (${tls.verifyError ?? 'unknown reason'})`;
  const rows: DiagnosticsRow[] = [{ label: 'TLS', value: `${tls.protocol ?? 'unknown protocol'}, ${verdict}` }];
  const leaf = tls.certificates[0];
  const root = tls.certificates.length > 1 ? tls.certificates[tls.certificates.length - 1] : undefined;
  if (leaf) {
    rows.push({
      label: 'Leaf certificate',
      value: `${leaf.subject}, issued by ${leaf.issuer}, valid until ${leaf.validTo.slice(0, 10)}`,
    });
  }
  if (root) rows.push({ label: 'Root certificate', value: `${root.subject}, issued by ${root.issuer}` });
  return rows;
}

function hostOfUrl(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'not a valid URL';
  }
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A SID (spec 2: a type prefix, an underscore and a UUID). */
const SID = new RegExp(`\\b[a-z][a-z0-9]*_${UUID}\\b`, 'gi');
const BARE_UUID = new RegExp(`\\b${UUID}\\b`, 'gi');
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
/** `?a=b...` left in a token that was not parsed as a URL. */
const QUERY = /\?[^\s"'<>()]*=[^\s"'<>()]*/g;

/**
 * `text` safe to hand to IT: every known secret (also URL-encoded) removed; URLs reduced to
 * scheme, host and path (no user name, password, query string or fragment); `Bearer`/`Basic`
 * tokens removed; SIDs and other UUIDs replaced; any other `?key=value` removed.
 */
export function scrubForIt(text: string, secrets: readonly string[]): string {
  let out = text;
  const forms = secrets
    .filter((s) => s.trim().length >= 4)
    .flatMap((s) => [s, encodeURIComponent(s)])
    .sort((a, b) => b.length - a.length);
  for (const form of forms) out = out.split(form).join('[removed]');
  out = out.replace(URL_PATTERN, (raw) => {
    try {
      const url = new URL(raw);
      return `${url.protocol}//${url.host}${url.pathname === '/' && !raw.endsWith('/') ? '' : url.pathname}`;
    } catch {
      return raw.replace(/[?#].*$/, '');
    }
  });
  out = out.replace(BEARER, '$1 [removed]');
  out = out.replace(SID, '[SID]').replace(BARE_UUID, '[id]');
  return out.replace(QUERY, '');
}
