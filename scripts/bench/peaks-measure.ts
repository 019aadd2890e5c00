/**
 * Measures the peaks service (peaks computed in main, off the renderer) on 40-minute recordings served
 * over loopback HTTP: time to peaks on first view, time when cached, and the process's peak RSS
 * and heap while computing. Not a test: it prints figures.
 *
 *   npx tsx scripts/bench/peaks-measure.ts [--keep]
 *
 * Recordings are generated with sox into a temporary folder (reused with --keep): a 40-minute
 * 8 kHz mono MP3 at 32 kbit/s (about 9.6 MB, like the 9.8 MB reference call) and a 40-minute 8 kHz
 * 16-bit stereo WAV (77 MB, to show memory does not follow file size), and the MP3's audio as
 * Ogg/Opus (the demo workspace's format).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createPeaksService } from '../../electron/main/peaks/service';
import { createRecordingCache } from '../../electron/main/recordings/recording-cache';
import { createApiClient } from '../../electron/main/api/client';
import { recordingLocation } from '../../electron/main/recordings/recording-location';

const MINUTES = 40;
const SID = 'interaction_00000000-0000-4000-8000-00000000b3c4';
const dir = path.join(os.tmpdir(), 'vr-peaks-bench');
const keep = process.argv.includes('--keep');

interface Recording {
  name: string;
  file: string;
  make: string[];
}

const recordings: Recording[] = [
  {
    name: `${MINUTES}-min 8 kHz mono MP3 (32 kbit/s)`,
    file: path.join(dir, 'call-40min.mp3'),
    // Speech-band noise whose loudness swings every few seconds, like turns in a conversation.
    make: [
      '-n',
      '-r',
      '8000',
      '-c',
      '1',
      '-C',
      '32',
      path.join(dir, 'call-40min.mp3'),
      'synth',
      String(MINUTES * 60),
      'pinknoise',
      'band',
      '1000',
      '800',
      'tremolo',
      '0.2',
      '90',
    ],
  },
  {
    name: `${MINUTES}-min 8 kHz 16-bit stereo WAV`,
    file: path.join(dir, 'call-40min-stereo.wav'),
    make: [
      '-n',
      '-r',
      '8000',
      '-c',
      '2',
      '-b',
      '16',
      path.join(dir, 'call-40min-stereo.wav'),
      'synth',
      String(MINUTES * 60),
      'pinknoise',
      'sine',
      '440',
      'tremolo',
      '0.2',
      '90',
    ],
  },
  {
    name: `${MINUTES}-min mono Ogg/Opus (24 kbit/s; peaks from a 16 kHz decode, reported at 48 kHz)`,
    file: path.join(dir, 'call-40min.opus'),
    make: [], // made from the MP3's audio by opusenc, below
  },
];

/** Serves one file over loopback with ETag and Content-Length, streaming it from disk. */
async function serve(file: string): Promise<{ url: string; close: () => Promise<void> }> {
  const stat = fs.statSync(file);
  const server = http.createServer((req, res) => {
    res.writeHead(200, {
      'Content-Length': stat.size,
      ETag: `"${stat.size}-${stat.mtimeMs}"`,
      'Accept-Ranges': 'bytes',
    });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/recording`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs `task`, sampling RSS and heap every 5 ms; returns the time, the peaks above the starting
 * values, and the longest event-loop stall (how long an IPC message could wait in main).
 */
async function measure<T>(task: () => Promise<T>): Promise<{
  result: T;
  ms: number;
  rssAddedMb: number;
  heapAddedMb: number;
  peakRssMb: number;
  maxLoopDelayMs: number;
}> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  global.gc?.();
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed + start.arrayBuffers;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed + now.arrayBuffers);
  }, 5);
  const t0 = performance.now();
  const result = await task();
  const ms = performance.now() - t0;
  clearInterval(timer);
  loop.disable();
  const end = process.memoryUsage();
  peakRss = Math.max(peakRss, end.rss);
  const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
  return {
    result,
    ms,
    rssAddedMb: mb(peakRss - start.rss),
    heapAddedMb: mb(peakHeap - start.heapUsed - start.arrayBuffers),
    peakRssMb: mb(peakRss),
    maxLoopDelayMs: loop.max / 1e6,
  };
}

async function main(): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  for (const r of recordings) {
    if (!fs.existsSync(r.file)) {
      process.stdout.write(`generating ${r.name} ... `);
      if (r.file.endsWith('.opus')) {
        const wav = path.join(dir, 'opus-source.wav');
        execFileSync('sox', ['-q', recordings[0]!.file, '-b', '16', wav]);
        execFileSync('opusenc', ['--quiet', '--bitrate', '24', wav, r.file]);
        fs.rmSync(wav);
      } else {
        execFileSync('sox', ['-q', ...r.make]);
      }
      console.log('done');
    }
  }
  console.log(
    `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM`,
  );
  // Other work on the machine slows every figure; the 1-minute load average says how busy it was.
  console.log(`load average at start: ${os.loadavg()[0]!.toFixed(2)}\n`);

  for (const r of recordings) {
    const server = await serve(r.file);
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-peaks-bench-cache-'));
    const service = createPeaksService({
      recordings: createRecordingCache(),
      locate: () =>
        Promise.resolve(
          recordingLocation(
            createApiClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'bench' }),
            server.url,
            'bench',
          ),
        ),
      cacheDir,
    });
    const first = await measure(() => service.get(SID));
    const cached = await measure(() => service.get(SID));
    const sizeMb = fs.statSync(r.file).size / 1024 / 1024;
    const p = first.result;
    console.log(r.name);
    console.log(
      `  file ${sizeMb.toFixed(1)} MB; duration ${p.durationSeconds.toFixed(3)} s at ${p.sampleRate} Hz; ${p.channels.length} channel(s) x ${p.length} peaks`,
    );
    console.log(
      `  first view : ${first.ms.toFixed(0)} ms, peak RSS +${first.rssAddedMb} MB (process ${first.peakRssMb} MB), peak heap+buffers +${first.heapAddedMb} MB, longest event-loop stall ${first.maxLoopDelayMs.toFixed(0)} ms`,
    );
    console.log(
      `  cached     : ${cached.ms.toFixed(1)} ms (fromCache ${cached.result.fromCache}), cache file ${(fs.readdirSync(cacheDir).reduce((s, f) => s + fs.statSync(path.join(cacheDir, f)).size, 0) / 1024).toFixed(0)} KB\n`,
    );
    fs.rmSync(cacheDir, { recursive: true, force: true });
    await server.close();
  }
  console.log(`load average at end: ${os.loadavg()[0]!.toFixed(2)}`);
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
