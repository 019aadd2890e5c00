/**
 * How long the seekable variant of a 40-minute MP3 takes to make (recordings/seekable-variants.ts)
 * and how long it holds main's event loop: the remux in the built worker thread
 * (out/main/mp3-remux-worker.js, as main runs it) against the same remux in this thread, on the
 * long-call fixture's VBR MP3s (with and without a Xing header). A measurement, not a test: run it
 * alone on a quiet machine.
 *
 *   npx tsx test/e2e/mp3-remux-measure.ts [runs]
 *
 * Prints, per file and way, the median and range of the remux's wall-clock milliseconds and of
 * the longest stall of this thread's event loop during it (a 1 ms timer's longest gap).
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remuxMp3ToMp4, type Mp3Remuxer } from '../../electron/main/recordings/mp3-remux';
import { createWorkerRemuxer } from '../../electron/main/recordings/mp3-remux-worker-client';
import { generateLongToneCall } from '../fixtures/long-tone-call';
import { ensureBuilt } from './build';
import { MP3_REMUX_WORKER } from './harness';

/** Wall-clock milliseconds of one remux and the event loop's longest stall meanwhile. */
async function timed(remux: Mp3Remuxer, mp3: string, mp4: string): Promise<{ wallMs: number; stallMs: number }> {
  let stallMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await remux(mp3, mp4);
  const wallMs = performance.now() - started;
  clearInterval(timer);
  // A stall still running when the remux ended counts too.
  return { wallMs, stallMs: Math.max(stallMs, performance.now() - last) };
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  return `${String(Math.round(median))} (${String(Math.round(sorted[0] ?? NaN))}–${String(Math.round(sorted.at(-1) ?? NaN))})`;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  ensureBuilt();
  const long = await generateLongToneCall();
  const dir = fs.mkdtempSync(join(tmpdir(), 'vr-remux-measure-'));
  const ways: Array<[string, Mp3Remuxer]> = [
    ['worker thread', createWorkerRemuxer(MP3_REMUX_WORKER)],
    ['this thread', (mp3, mp4) => remuxMp3ToMp4(mp3, mp4)],
  ];
  try {
    console.info(`40:51 VBR MP3 at 22.05 kHz, ${String(runs)} runs each: median (range), ms`);
    for (const [name, file] of [
      ['Xing header', long.vbrXing],
      ['no Xing header', long.vbrNoXing],
    ] as const) {
      const megabytes = (fs.statSync(file).size / 1e6).toFixed(1);
      for (const [way, remux] of ways) {
        const results = [];
        for (let run = 0; run < runs; run++) results.push(await timed(remux, file, join(dir, 'out.m4a')));
        console.info(
          `${`${name} (${megabytes} MB), ${way}:`.padEnd(40)} remux ${summary(results.map((r) => r.wallMs))}, ` +
            `longest event-loop stall ${summary(results.map((r) => r.stallMs))}`,
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
