/**
 * Which decoding path draws a short call's waveform sooner: main's peaks worker (the built
 * out/main/peaks-worker.js, fed by a loopback download as main's recording fetch feeds it, its
 * peaks then crossing IPC as JSON) or the page's worker (Chromium's decoders via WebCodecs, the
 * page fetching the recording from the same loopback server), against the whole file fetched and
 * decoded by `decodeAudioData` as wavesurfer does. Paired back to back, alternating which goes first, on 1- and 3-minute calls in MP3 and WAV (and WebM/Opus and M4A/AAC, which
 * only the page decodes). A measurement, not a test: run it alone on a quiet machine.
 *
 *   npx tsx test/e2e/decode-paths-measure.ts [runs]
 *
 * Prints, per recording, the median and range of milliseconds from asking to having the peaks,
 * cold (each path's first decode: worker start, WebAssembly or module load) and warm.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createWorkerDecoder } from '../../electron/main/peaks/worker-decoder';
import { describeEncoding, encodeWithFfmpeg, type FormatRequest } from '../fixtures/call-formats';
import { generateRecording } from '../fixtures/long-call';
import { ensureBuilt } from './build';
import { startDecoderPage, type DecoderPageRig } from './decoder-page-rig';
import { PEAKS_WORKER } from './harness';

interface Recording {
  name: string;
  file: string;
  mimeType: string;
  mainDecodes: boolean;
}

/** The measured recordings: the long-call fixture's speech, 8 kHz, as a platform stores it. */
async function recordings(): Promise<Recording[]> {
  const out: Recording[] = [];
  for (const seconds of [60, 180]) {
    const mp3 = await generateRecording({ seconds, format: 'mp3' });
    const wav = await generateRecording({ seconds, format: 'wav', channels: 2, wavEncoding: 'mu-law' });
    out.push({ name: `${seconds / 60} min MP3 8 kHz mono`, file: mp3, mimeType: 'audio/mpeg', mainDecodes: true });
    out.push({ name: `${seconds / 60} min WAV µ-law stereo`, file: wav, mimeType: 'audio/wav', mainDecodes: true });
    for (const request of [
      { format: 'webm-opus', sampleRate: 48_000, channels: 2 },
      { format: 'm4a-aac', sampleRate: 16_000, channels: 2 },
    ] satisfies FormatRequest[]) {
      const encoded = describeEncoding(request, `measure-${seconds}s`);
      if (!fs.existsSync(encoded.file)) await encodeWithFfmpeg(wav, request, encoded.file);
      out.push({
        name: `${seconds / 60} min ${request.format}`,
        file: encoded.file,
        mimeType: encoded.mimeType,
        mainDecodes: false,
      });
    }
  }
  return out;
}

/** Main's path: a loopback download of the recording into the worker, the peaks serialised as IPC does. */
async function viaMain(decode: ReturnType<typeof createWorkerDecoder>, url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  if (!response.body) throw new Error(`no body from ${url}`);
  const body = response.body;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) yield chunk;
  }
  const peaks = await decode(chunks());
  JSON.stringify(peaks);
  return performance.now() - started;
}

async function viaPage(rig: DecoderPageRig, url: string): Promise<number> {
  const result = await rig.page.evaluate((u) => window.decoderPage.decode(u), url);
  if (result.error) throw new Error(result.error.message);
  return result.doneMs;
}

async function viaWholeFile(rig: DecoderPageRig, url: string): Promise<number> {
  return (await rig.page.evaluate((u) => window.decoderPage.decodeWhole(u), url)).doneMs;
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${Math.round(median)} ms (${Math.round(sorted[0]!)}–${Math.round(sorted.at(-1)!)})`;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  ensureBuilt();
  const all = await recordings();
  const rig = await startDecoderPage();
  const decode = createWorkerDecoder(PEAKS_WORKER);
  try {
    const first = all[0]!;
    const firstUrl = `${rig.origin}${rig.serve(first.file, first.mimeType)}`;
    // Cold: each path's first decode in this process and this page.
    const coldMain = await viaMain(decode, firstUrl);
    const coldPage = await viaPage(rig, firstUrl);
    console.log(`cold, ${first.name}: main ${Math.round(coldMain)} ms, page ${Math.round(coldPage)} ms`);
    for (const recording of all) {
      const url = `${rig.origin}${rig.serve(recording.file, recording.mimeType)}`;
      const main: number[] = [];
      const page: number[] = [];
      const whole: number[] = [];
      for (let run = 0; run < runs; run++) {
        const order = run % 2 === 0 ? ['main', 'page', 'whole'] : ['whole', 'page', 'main'];
        for (const path of order) {
          if (path === 'main' && recording.mainDecodes) main.push(await viaMain(decode, url));
          if (path === 'page') page.push(await viaPage(rig, url));
          if (path === 'whole') whole.push(await viaWholeFile(rig, url));
        }
      }
      const size = `${(fs.statSync(recording.file).size / 1e6).toFixed(1)} MB`;
      console.log(
        `${recording.name.padEnd(26)} ${size.padStart(8)}  main ${main.length ? summary(main) : '(does not decode it)'}  page worker ${summary(page)}  decodeAudioData ${summary(whole)}`,
      );
    }
  } finally {
    await decode.close();
    await rig.close();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

// Keep the measurement honest about the machine it ran on.
console.log(`CPU cores: ${execFileSync('nproc', { encoding: 'utf8' }).trim()}`);
