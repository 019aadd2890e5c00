import { describe, expect, it } from 'vitest';
import {
  buildDiagnostics,
  diagnosticsText,
  scrubForIt,
  type DiagnosticsInput,
} from '../../../electron/main/network/diagnostics-report';

const KEY = 'vr_live_8f3e2a9c1b7d4e6f0a5b';
const PROXY_PASSWORD = 'p@ss:w0rd-9f3e';
const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';

function input(overrides: Partial<DiagnosticsInput> = {}): DiagnosticsInput {
  return {
    generatedAt: new Date('2026-11-28T02:30:00Z'),
    app: { name: 'Voice Review', version: '0.1.0' },
    versions: { electron: '45.4.1', chrome: '142.0.7444.52', node: '24.11.0' },
    os: { platform: 'win32', release: '10.0.22631', arch: 'x64' },
    keyStorage: 'the system keychain (Windows Credential Manager)',
    updatePolicy: { updatesAllowed: true, source: 'none', detail: 'No policy turns updates off.', warnings: [] },
    updateStatus: 'Up to date (checked 02:10).',
    trust: { bundled: 146, system: 38, imported: 1 },
    logsFolder: 'C:\\Users\\agent\\AppData\\Roaming\\Voice Review\\logs',
    workspace: {
      baseUrl: 'https://api.example.com/v1',
      proxy: {
        kind: 'proxy',
        source: 'system',
        proxyUrl: 'http://proxy.corp:3128',
        credentials: null,
        reason: "The system's proxy settings name PROXY proxy.corp:3128.",
      },
      tls: {
        target: 'api.example.com:443',
        protocol: 'TLSv1.3',
        trusted: true,
        verifyError: null,
        certificates: [
          {
            subject: 'api.example.com',
            issuer: 'Desk Inspection CA',
            validFrom: '2026-01-01T00:00:00.000Z',
            validTo: '2027-01-01T00:00:00.000Z',
            fingerprint256: 'AA',
            altNames: 'DNS:api.example.com',
          },
          {
            subject: 'Desk Inspection CA',
            issuer: 'Desk Inspection CA',
            validFrom: '2020-01-01T00:00:00.000Z',
            validTo: '2035-01-01T00:00:00.000Z',
            fingerprint256: 'BB',
            altNames: null,
          },
        ],
      },
      lightRequest: { elapsedMs: 184, outcome: 'Connected to api.example.com: the key works (3 phone numbers).' },
      lastRecordingUrl: `https://media.example.com/rec/${SID}.wav?X-Amz-Signature=abc123&X-Amz-Credential=AKIA`,
    },
    ...overrides,
  };
}

describe('the diagnostics report', () => {
  it('says what IT needs: versions, OS, key storage, updates, trust, proxy, TLS chain, timing, recording host', () => {
    const text = diagnosticsText(buildDiagnostics(input(), [KEY]), new Date('2026-11-28T02:30:00Z'));
    expect(text).toBe(
      [
        'Voice Review diagnostics, 2026-11-28 02:30 UTC',
        '',
        'This computer',
        '  App: Voice Review 0.1.0',
        '  Runtime: Electron 45.4.1, Chromium 142.0.7444.52, Node 24.11.0',
        '  Operating system: win32 10.0.22631 (x64)',
        '  Key storage: the system keychain (Windows Credential Manager)',
        '  Updates: Allowed: No policy turns updates off. Up to date (checked 02:10).',
        '  Trusted certificate authorities: 146 bundled, 38 from the system store, 1 imported',
        '  Logs folder: C:\\Users\\agent\\AppData\\Roaming\\Voice Review\\logs',
        '',
        'Active workspace',
        '  Base URL: https://api.example.com/v1',
        "  Proxy for the base URL: Through http://proxy.corp:3128. The system's proxy settings name PROXY proxy.corp:3128.",
        '  TLS: TLSv1.3, trusted',
        '  Leaf certificate: api.example.com, issued by Desk Inspection CA, valid until 2027-01-01',
        '  Root certificate: Desk Inspection CA, issued by Desk Inspection CA',
        '  Light request (GET /phones): Answered in 184 ms: Connected to api.example.com: the key works (3 phone numbers).',
        '  Recording host of the last call: media.example.com',
        '',
      ].join('\n'),
    );
  });

  it('copies no key, no credentials, no query strings and no SIDs from poisoned facts', () => {
    const poisoned = input({
      keyStorage: `an encrypted file (last key ${KEY})`,
      updateStatus: `Error: GET https://updates.example.com/latest.yml?token=${KEY} failed for ${SID}`,
      workspace: {
        ...input().workspace!,
        baseUrl: `https://user:${PROXY_PASSWORD}@api.example.com/v1?api_key=${KEY}#${SID}`,
        proxy: {
          kind: 'proxy',
          source: 'environment',
          proxyUrl: `http://desk:${encodeURIComponent(PROXY_PASSWORD)}@proxy.corp:3128`,
          credentials: { username: 'desk', password: PROXY_PASSWORD },
          reason: `HTTPS_PROXY names proxy.corp:3128 (password ${PROXY_PASSWORD}).`,
        },
        tls: { error: `Authorization: Bearer ${KEY} refused for /v1/interactions/${SID}?page=2` },
        lightRequest: {
          elapsedMs: null,
          outcome: `401 for key ${KEY.toUpperCase().slice(0, 3)}…; webhook 0016d3cc-2fa1-11d2-883f-0016d3cca427`,
        },
        lastRecordingUrl: `https://${KEY}.storage.example.com/${SID}.wav?sig=1`,
      },
    });
    const text = diagnosticsText(buildDiagnostics(poisoned, [KEY, PROXY_PASSWORD]), new Date());
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(PROXY_PASSWORD);
    expect(text).not.toContain(encodeURIComponent(PROXY_PASSWORD));
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/i);
    expect(text).not.toMatch(/\?[^ ]*=/);
    expect(text).not.toMatch(/token=|api_key=|sig=|page=/);
    expect(text).toContain('Base URL: https://api.example.com/v1');
    expect(text).toContain(
      'Chain could not be read: Authorization: Bearer [removed] refused for /v1/interactions/[SID]',
    );
    expect(text).toContain('Recording host of the last call: [removed].storage.example.com');
  });

  it('says when there is no workspace, no Electron and no system store', () => {
    const text = diagnosticsText(
      buildDiagnostics(
        input({
          workspace: null,
          versions: { electron: null, chrome: null, node: '20.20.2' },
          trust: { bundled: 146, system: null, imported: 0 },
          updatePolicy: {
            updatesAllowed: false,
            source: 'environment',
            detail: 'Updates are turned off by VOICE_REVIEW_DISABLE_UPDATES=1.',
            warnings: [],
          },
          updateStatus: null,
        }),
        [],
      ),
      new Date(),
    );
    expect(text).toContain('Runtime: Electron: not running (plain Node), Node 20.20.2');
    expect(text).toContain('146 bundled, the system store cannot be read by this version, 0 imported');
    expect(text).toContain('Updates: Off: Updates are turned off by VOICE_REVIEW_DISABLE_UPDATES=1.\n');
    expect(text).toContain('Active workspace\n  Workspace: None connected');
  });
});

describe('scrubbing for IT', () => {
  it('keeps scheme, host and path of a URL', () => {
    expect(scrubForIt('see https://a.example.com/v1/phones?x=1#frag now', [])).toBe(
      'see https://a.example.com/v1/phones now',
    );
  });

  it('removes a query string that is not part of a URL', () => {
    expect(scrubForIt('GET /v1/phones?api_key=zzz done', [])).toBe('GET /v1/phones done');
  });
});
