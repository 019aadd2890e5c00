/**
 * One link of the benchmark (loopback, or throttled to 16 Mbit/s): the far side
 * (scripts/bench/service.ts: the long-call API and the reference pages) in a child process,
 * serving the benchmark's calls and the interactions of the transcript figures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildTranscript, type LongCallCounters, type WireLogEntry } from '../../test/fixtures/long-call';
import { CALL_NAMES, CALLS, type CallName, type LinkName } from './calls';
import type { ServiceOptions, ServiceReady } from './service';

/** 16 Mbit/s in bytes per second. */
export const SIXTEEN_MBIT = 2_000_000;
/** Interactions per run for the 500-entry paint figure (more samples for the p95). */
export const TRANSCRIPT_500_VIEWS = 6;
/** Interactions per run for the 5,000-entry figures. */
export const TRANSCRIPT_5000_VIEWS = 2;

// The calls and links are data of their own (calls.ts); most of the benchmark imports them from here.
export { CALL_NAMES, CALLS, type CallName, type LinkName } from './calls';

/** One interaction of a link: its SID and the text of its first transcript entry (the paint marker). */
export interface LinkCall {
  sid: string;
  marker: string;
  /** The recording file served for it. */
  file: string;
}

/** A running link; see {@link startLink}. */
export interface BenchLink {
  name: LinkName;
  /** The API's base URL (ending in /v1) and key, for `connect`. */
  service: { baseUrl: string; apiKey: string };
  /** Origin of the reference pages and the recordings they play (`/bench/recording/<sid>`). */
  referenceOrigin: string;
  calls: Record<CallName, LinkCall>;
  /** The transcript figures' interactions (40-minute recording). */
  transcriptCalls: Array<LinkCall & { size: 500 | 5000 }>;
  /**
   * Downloads `call`'s recording once straight from the API (Node's fetch with the key), nothing
   * else on the link. @returns the time to the last byte, ms
   */
  timeDownload(call: CallName): Promise<number>;
  /** PID of the far side's process. */
  pid: number;
  /** The service's running totals: recording bytes sent, GET /interactions/<sid> by SID. */
  counters(): Promise<LongCallCounters>;
  close(): Promise<void>;
}

function tag(entries: WireLogEntry[], label: string): WireLogEntry[] {
  return entries.map((e) => ({ ...e, message: `${e.message} [${label}]` }));
}

/** Starts scripts/bench/service.ts in a child process; resolves with its READY payload. */
async function startService(options: ServiceOptions): Promise<ServiceReady & { pid: number; close(): Promise<void> }> {
  const dir = mkdtempSync(join(os.tmpdir(), 'voice-review-bench-service-'));
  const optionsFile = join(dir, 'options.json');
  writeFileSync(optionsFile, JSON.stringify(options));
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'service.ts'), optionsFile], {
    cwd: join(__dirname, '../..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = await new Promise<ServiceReady>((resolvePromise, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('READY ')) resolvePromise(JSON.parse(line.slice('READY '.length)) as ServiceReady);
    });
    child.once('exit', (code) => reject(new Error(`The bench service exited with code ${String(code)}`)));
  });
  return {
    ...ready,
    pid: child.pid!,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the far side of `link` with the calls' recordings (`files`, by call) and their
 * precomputed peaks (`peaksFiles`, by recording file).
 */
export async function startLink(
  link: LinkName,
  files: Record<CallName, string>,
  peaksFiles: Record<string, string>,
  wavesurferFile: string,
): Promise<BenchLink> {
  const callEntries = CALL_NAMES.map((call) =>
    tag(buildTranscript(CALLS[call].recording.seconds, CALLS[call].entries), `call ${call}`),
  );
  const transcripts = [
    ...Array.from({ length: TRANSCRIPT_500_VIEWS }, (_, k) => ({
      size: 500 as const,
      entries: tag(buildTranscript(2400, 500), `t500 ${k}`),
    })),
    ...Array.from({ length: TRANSCRIPT_5000_VIEWS }, (_, k) => ({
      size: 5000 as const,
      entries: tag(buildTranscript(2400, 5000), `t5000 ${k}`),
    })),
  ];
  const service = await startService({
    wavesurferFile,
    peaksFiles,
    longCall: {
      bytesPerSecond: link === '16 Mbit/s' ? SIXTEEN_MBIT : undefined,
      recordings: [
        ...CALL_NAMES.map((call, i) => ({
          seconds: CALLS[call].recording.seconds,
          file: files[call],
          entries: callEntries[i]!,
        })),
        ...transcripts.map((t) => ({ seconds: 2400, file: files['40 min'], entries: t.entries })),
      ],
    },
  });
  const calls = Object.fromEntries(
    CALL_NAMES.map((call, i) => [
      call,
      { sid: service.sids[i]!, marker: callEntries[i]![0]!.message, file: files[call] },
    ]),
  ) as Record<CallName, LinkCall>;
  const auth = { Authorization: `Bearer ${service.apiKey}` };
  return {
    name: link,
    pid: service.pid,
    service: { baseUrl: service.baseUrl, apiKey: service.apiKey },
    referenceOrigin: service.referenceOrigin,
    calls,
    transcriptCalls: transcripts.map((t, k) => ({
      size: t.size,
      sid: service.sids[CALL_NAMES.length + k]!,
      marker: t.entries[0]!.message,
      file: files['40 min'],
    })),
    timeDownload: async (call) => {
      const answer = await fetch(`${service.baseUrl}/interactions/${calls[call].sid}`, { headers: auth });
      const { interaction } = (await answer.json()) as { interaction: { recording_url: string } };
      const started = performance.now();
      const response = await fetch(interaction.recording_url, { headers: auth });
      await response.arrayBuffer();
      return performance.now() - started;
    },
    counters: async () =>
      (await (await fetch(`${new URL(service.baseUrl).origin}/__counters`)).json()) as LongCallCounters,
    close: () => service.close(),
  };
}
