/**
 * The benchmark's loopback server, wired like the end-to-end harness (test/e2e/harness.ts); the
 * page's `window.api` is the built preload, whose IPC reaches main by posting each call to this
 * server (the "http" transport of test/fixtures/preload-bridge.ts):
 * - `/index.html` and assets: the renderer built into `out-bench/renderer`, with the app's CSP;
 * - `/recording/<sid>`: the project's own recording protocol handler (createRecordingHandler from
 *   electron/main/recordings/recording-protocol.ts), the code Electron registers for `vr-recording:`;
 * - `POST /__voice-review-ipc-call`: an IPC call, run by the current run's `ipcMain` stand-in;
 * - `/__voice-review-ipc-result/<ticket>`: a large IPC result (the binding transport's);
 * - `/bench/bare.html`, `/bench/wavesurfer.html`, `/bench/wavesurfer.esm.js`: the two reference
 *   pages (a bare `<audio>` element, and wavesurfer.js's default full-fetch path from node_modules);
 * - `/bench/warmup.wav`: a quarter second of silence played before each measurement.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../electron/main/shell/security';
import { answerWith } from '../../test/fixtures/http-bridge';
import { IPC_CALL_PATH, IPC_RESULT_PATH } from '../../test/fixtures/preload-bridge';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const BARE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bare audio</title></head>
<body><h1>bare &lt;audio&gt;</h1></body></html>`;

const WAVESURFER_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>wavesurfer full fetch</title></head>
<body><h1>wavesurfer.js default path</h1><div id="wave" style="width: 1200px"></div>
<script type="module">import WaveSurfer from '/bench/wavesurfer.esm.js'; window.WaveSurfer = WaveSurfer;</script>
</body></html>`;

/** A quarter second of silence, 8 kHz mono 16-bit WAV (the warm-up sound, see agent.js `warmUp`). */
function silentWav(): Buffer {
  const samples = 2000;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(16000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  return wav;
}
const WARMUP_WAV = silentWav();

/** A running bench server. */
export interface BenchServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

/** Options of {@link startBenchServer}. */
export interface BenchServerOptions {
  /** Folder of the built renderer (with index.html). */
  rendererDir: string;
  /** wavesurfer.js's ESM bundle (node_modules/wavesurfer.js/dist/wavesurfer.esm.js). */
  wavesurferFile: string;
  /** The recording protocol handler (of the current run's stack). */
  recording: (request: Request) => Promise<Response>;
  /** Large IPC results held by the current run's `ipcMain` stand-in (test/fixtures/preload-bridge.ts). */
  ipcResult: (request: Request) => Promise<Response>;
  /** IPC calls posted by the page (the stand-in's "http" transport), to the current run's `ipcMain` stand-in. */
  ipcCall: (request: Request) => Promise<Response>;
}

/** Starts the server on 127.0.0.1 (free port). */
export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const server = createServer((req, res) => {
    void serve(req, res, options).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The bench server has no port.');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, options: BenchServerOptions): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;

  if (path.startsWith('/recording/')) return answerWith(options.recording, req, res);
  if (path.startsWith(IPC_RESULT_PATH)) return answerWith(options.ipcResult, req, res);
  if (path === IPC_CALL_PATH && req.method === 'POST') return answerWith(options.ipcCall, req, res);

  if (path === '/bench/bare.html' || path === '/bench/wavesurfer.html') {
    res.writeHead(200, { 'Content-Type': MIME['.html']!, 'Cache-Control': 'no-store' });
    res.end(path === '/bench/bare.html' ? BARE_PAGE : WAVESURFER_PAGE);
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
    res.writeHead(200, { 'Content-Type': MIME['.js']! });
    res.end(await readFile(options.wavesurferFile));
    return;
  }

  const file = normalize(join(options.rendererDir, path === '/' ? 'index.html' : path));
  if (!file.startsWith(options.rendererDir) || !existsSync(file)) {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('Not found');
    return;
  }
  const headers: Record<string, string> = { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' };
  if (extname(file) === '.html') headers['Content-Security-Policy'] = CONTENT_SECURITY_POLICY;
  res.writeHead(200, headers);
  res.end(await readFile(file));
}
