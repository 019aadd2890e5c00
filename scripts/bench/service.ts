/**
 * The far side of the benchmark, in its own process (the voice-agent API is a remote server, so
 * its work must not share an event loop with the app's main or with the driver):
 * - the long-call service of test/fixtures/long-call.ts (the real demo service behind a proxy
 *   that can throttle recording bodies to a link speed);
 * - the reference pages (scripts/bench/reference-pages.ts) on an origin of their own, with what
 *   they are handed: `/bench/recording/<sid>` relays the interaction's recording from the
 *   service (same link, same throttle, Range passed on, CORS open for wavesurfer's fetch),
 *   `/bench/peaks/<sid>.json` the precomputed peaks of its file, `/bench/entries/<sid>.json` its
 *   transcript (wire format), `/bench/wavesurfer.esm.js`, `/bench/warmup.wav`.
 *
 * Run: `node --import tsx scripts/bench/service.ts <options.json>` where the file holds
 * {@link ServiceOptions}. Prints one line `READY <json>` ({@link ServiceReady}) once listening;
 * stops on SIGTERM or when stdin closes (the parent went away).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { startLongCallServer, type LongCallServer, type LongCallServerOptions } from '../../test/fixtures/long-call';
import { BARE_PAGE, LIST_PAGE, silentWav, WAVESURFER_PAGE } from './reference-pages';

/** What the service is started with. */
export interface ServiceOptions {
  longCall: LongCallServerOptions;
  /** wavesurfer.js's ESM bundle (node_modules/wavesurfer.js/dist/wavesurfer.esm.js). */
  wavesurferFile: string;
  /** Precomputed peaks (JSON of {@link ReferencePeaks}) by recording file path. */
  peaksFiles: Record<string, string>;
}

/** The `READY` line's payload. */
export interface ServiceReady {
  /** The API's base URL (ending in /v1) and its key, for `connect`. */
  baseUrl: string;
  apiKey: string;
  /** Interaction SIDs, in the order of `longCall.recordings`. */
  sids: string[];
  /** Origin of the reference pages, `http://127.0.0.1:<port>`. */
  referenceOrigin: string;
}

const WARMUP_WAV = silentWav();

const PAGES: Record<string, string> = {
  '/bench/bare.html': BARE_PAGE,
  '/bench/wavesurfer.html': WAVESURFER_PAGE,
  '/bench/list.html': LIST_PAGE,
};

async function serveReference(
  req: IncomingMessage,
  res: ServerResponse,
  service: LongCallServer,
  options: ServiceOptions,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const page = PAGES[path];
  if (page !== undefined) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(page);
    return;
  }
  if (path === '/bench/warmup.wav') {
    res.writeHead(200, {
      'Content-Type': 'audio/wav',
      'Content-Length': WARMUP_WAV.length,
      'Cache-Control': 'no-store',
    });
    res.end(WARMUP_WAV);
    return;
  }
  if (path === '/bench/wavesurfer.esm.js') {
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    res.end(await readFile(options.wavesurferFile));
    return;
  }
  const match = /^\/bench\/(recording|peaks|entries)\/([^/]+?)(?:\.json)?$/.exec(path);
  const interaction = match ? service.interactions.find((i) => i.sid === match[2]) : undefined;
  if (!match || !interaction) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    return;
  }
  const json = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  if (match[1] === 'entries') {
    res.writeHead(200, json).end(JSON.stringify(interaction.entries));
    return;
  }
  if (match[1] === 'peaks') {
    const index = service.interactions.indexOf(interaction);
    const file = options.peaksFiles[options.longCall.recordings[index]!.file];
    if (!file || !existsSync(file)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('No peaks for this recording');
      return;
    }
    res.writeHead(200, json).end(await readFile(file));
    return;
  }
  await relayRecording(req, res, service, interaction.recordingUrl);
}

/** Passes a recording request on to the service with its key, streaming the answer back. */
async function relayRecording(
  req: IncomingMessage,
  res: ServerResponse,
  service: LongCallServer,
  url: string,
): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const headers: Record<string, string> = { Authorization: `Bearer ${service.apiKey}` };
  if (typeof req.headers.range === 'string') headers.Range = req.headers.range;
  const answer = await fetch(url, { headers, signal: abort.signal });
  const out: Record<string, string> = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' };
  for (const name of ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']) {
    const value = answer.headers.get(name);
    if (value !== null) out[name] = value;
  }
  res.writeHead(answer.status, out);
  if (!answer.body || req.method === 'HEAD') {
    res.end();
    return;
  }
  const body = Readable.fromWeb(answer.body as NodeReadableStream);
  body.on('error', () => res.destroy());
  body.pipe(res);
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('Usage: service.ts <options.json>');
  const options = JSON.parse(readFileSync(file, 'utf8')) as ServiceOptions;
  const service = await startLongCallServer(options.longCall);
  const references = createServer((req, res) => {
    void serveReference(req, res, service, options).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve) => references.listen(0, '127.0.0.1', resolve));
  const address = references.address();
  if (address === null || typeof address === 'string') throw new Error('The reference server has no port.');
  const stop = (): void => {
    references.closeAllConnections();
    references.close();
    void service.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  const ready: ServiceReady = {
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    sids: service.interactions.map((i) => i.sid),
    referenceOrigin: `http://127.0.0.1:${address.port}`,
  };
  process.stdout.write(`READY ${JSON.stringify(ready)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
