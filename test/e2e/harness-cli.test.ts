/**
 * `npm run harness` as a checker, run as a child process the way a person runs it: against the
 * demo service on loopback it prints one JSON line and exits 0 whenever the call is shown (also
 * when its recording is missing or its link is dead, in the app's words), and exits 1 with the
 * app's words, never a bare timeout, only when the call itself cannot be shown.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../electron/main/demo/server';
import { ensureBuilt } from './build';
import { ROOT } from './harness';
import type { InteractionReport } from './interaction-check';

const SEEDED_CALL = 'interaction_a11be33b-a3c4-45fc-8bb4-fa63399cb100';
const SEEDED_CALL_ENTRIES = 26;
const IN_PROGRESS_CALL = 'interaction_ce620b66-e2a0-4c13-8abe-08b82f3a7b18';
const DEAD_LINK_CALL = 'interaction_0d7e9a51-1b2c-4d3e-8f40-5a6b7c8d9e0f';
const DEAD_LINK_KEY = 'vr_test_dead_link_key_0001';

let demo: DemoServer;
let deadLinkServer: Server;
let deadLinkBaseUrl: string;

/** What one run of the CLI gave. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run harness -- <args>` (tsx on harness-cli.ts) with this build folder. */
function harness(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      [join(ROOT, 'test/e2e/harness-cli.ts'), ...args],
      { cwd: ROOT, env: process.env, timeout: 150_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The JSON lines of a run's stdout. (A build the child finds stale is rebuilt first, and
 * electron-vite's log also goes to stdout; none of its lines is JSON.)
 */
function jsonLines(run: Run): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('{'));
}

/** The JSON line of a run (the last line of stdout). */
function reportOf(run: Run): InteractionReport {
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as InteractionReport;
}

/**
 * A small API on loopback with one call whose recording link answers 404 (an expired link),
 * and the phones list Connect reads.
 */
async function startDeadLinkServer(): Promise<void> {
  deadLinkServer = createServer((req, res) => {
    const [status, body] = deadLinkAnswer(req.url ?? '/', req.headers.authorization);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((ok) => deadLinkServer.listen(0, '127.0.0.1', ok));
  deadLinkBaseUrl = `http://127.0.0.1:${(deadLinkServer.address() as AddressInfo).port}/v1`;
}

/** The dead-link server's answer (status and JSON body) to a GET of `path`. */
function deadLinkAnswer(path: string, authorization: string | undefined): [number, unknown] {
  if (path.startsWith('/recordings/')) return [404, { status: 'error', message: 'Not found' }];
  if (authorization !== `Bearer ${DEAD_LINK_KEY}`) return [401, { status: 'error', message: 'Invalid API key' }];
  if (path === '/v1/phones') return [200, { status: 'success', phones: [] }];
  if (path !== `/v1/interactions/${DEAD_LINK_CALL}`)
    return [404, { status: 'error', message: 'Interaction not found' }];
  const interaction = {
    sid: DEAD_LINK_CALL,
    status: 'completed',
    started_at: 1_714_555_800,
    ended_at: 1_714_555_830,
    recording_url: `${deadLinkBaseUrl.replace(/\/v1$/, '')}/recordings/expired.ogg`,
    log: [
      { role: 'agent', message: 'Hello', timestamp: 0 },
      { role: 'user', message: 'Hi', timestamp: 2 },
    ],
  };
  return [200, { status: 'success', interaction }];
}

beforeAll(async () => {
  ensureBuilt();
  demo = await startDemoServer({ resourcesDir: join(ROOT, 'resources') });
  await startDeadLinkServer();
}, 300_000);

afterAll(async () => {
  await demo.close();
  await new Promise<void>((ok) => deadLinkServer.close(() => ok()));
});

describe('npm run harness', () => {
  it('reports a shown call with its recording ready, the waveform time, and where playing reached', async () => {
    const run = await harness([
      '--base-url',
      demo.baseUrl,
      '--api-key',
      demo.apiKey,
      '--sid',
      SEEDED_CALL,
      '--play',
      '2',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run)).toHaveLength(1);
    const report = reportOf(run);
    expect(report).toMatchObject({ sid: SEEDED_CALL, transcriptEntries: SEEDED_CALL_ENTRIES });
    expect(report.recording.state).toBe('ready');
    expect(report.waveformSeconds).toBeGreaterThan(0);
    expect(report.positionSeconds).toBeGreaterThanOrEqual(2);
    expect(report.highlightedEntry?.index).toBeGreaterThanOrEqual(0);
    expect(report.highlightedEntry?.label).toMatch(/^\w+ \d+:\d\d: /);
    expect(run.stdout + run.stderr).not.toContain(demo.apiKey);
  }, 180_000);

  it('exits 0 for a call without a recording, saying so in the app words', async () => {
    const run = await harness(['--base-url', demo.baseUrl, '--api-key', demo.apiKey, '--sid', IN_PROGRESS_CALL]);
    expect(run.code, run.stderr).toBe(0);
    const report = reportOf(run);
    expect(report.recording.state).toBe('unavailable');
    expect(report.recording.words).toMatch(/no recording/i);
    expect(report.transcriptEntries).toBeGreaterThan(0);
    expect(report.waveformSeconds).toBeNull();
  }, 180_000);

  it('exits 0 for a call whose recording link is dead, with the words the Recording region shows', async () => {
    const run = await harness([
      '--base-url',
      deadLinkBaseUrl,
      '--api-key',
      DEAD_LINK_KEY,
      '--sid',
      DEAD_LINK_CALL,
      '--play',
      '1',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = reportOf(run);
    expect(report).toMatchObject({ sid: DEAD_LINK_CALL, transcriptEntries: 2, waveformSeconds: null });
    expect(report.recording.state).toBe('unavailable');
    expect(report.recording.words.length).toBeGreaterThan(10);
    expect(report).toMatchObject({ positionSeconds: null, highlightedEntry: null });
  }, 180_000);

  it('exits 1 with the app words when the SID does not exist (never a bare timeout)', async () => {
    const unknown = 'interaction_00000000-0000-4000-8000-000000000000';
    const run = await harness(['--base-url', demo.baseUrl, '--api-key', demo.apiKey, '--sid', unknown]);
    expect(run.code, run.stderr).toBe(1);
    expect(jsonLines(run)).toEqual([]);
    expect(run.stderr, run.stderr).toMatch(
      /The interaction could not be shown: The call could not be shown .*not found/i,
    );
    expect(run.stderr).not.toMatch(/Timeout|exceeded/i);
  }, 180_000);

  it('exits 1 with the Connect screen words when the key is refused', async () => {
    const run = await harness([
      '--base-url',
      deadLinkBaseUrl,
      '--api-key',
      'vr_wrong_key_000000000000',
      '--sid',
      DEAD_LINK_CALL,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr, run.stderr).toMatch(/The interaction could not be shown: .*key/i);
    expect(run.stderr).not.toContain('vr_wrong_key_000000000000');
  }, 180_000);

  it('exits 2 with the usage on missing arguments', async () => {
    const run = await harness(['--sid', SEEDED_CALL]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: npm run harness');
  }, 60_000);
});
