/**
 * Precomputed peaks for the "waveform when cached" reference: wavesurfer handed `peaks` and
 * `duration`. Computed here from the recording (decoded by sox; WebM and MP4/M4A, which sox does
 * not read, first decoded to a WAV by ffmpeg), independent of the app: per
 * channel, the largest absolute sample of each of `max(8000, 4 per second)` equal buckets, the
 * resolution the app's own peaks have, so both draw the same amount of data.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What the reference page is handed: one array of peaks (0..1) per channel, and the duration in seconds. */
export interface ReferencePeaks {
  durationSeconds: number;
  channels: number[][];
}

/** Peaks per channel for a recording of `seconds` seconds. */
export function peakCount(seconds: number): number {
  return Math.max(8000, Math.ceil(seconds * 4));
}

/** Extensions of the containers sox cannot read here; ffmpeg decodes them for it. */
const FFMPEG_ONLY = new Set(['.webm', '.m4a', '.mp4', '.aac']);

/**
 * Computes the peaks of `recording` once and returns the path of their JSON ({@link ReferencePeaks}),
 * kept next to the recording (generated recordings live in a cache folder).
 * @throws Error when sox (or ffmpeg, for WebM and MP4/M4A) cannot read the file
 */
export async function referencePeaksFile(recording: string): Promise<string> {
  if (!FFMPEG_ONLY.has(extname(recording).toLowerCase())) return peaksOf(recording, recording);
  const work = mkdtempSync(join(os.tmpdir(), 'voice-review-bench-decode-'));
  try {
    const decoded = join(work, 'decoded.wav');
    await run('ffmpeg', ['-v', 'error', '-nostdin', '-y', '-i', recording, '-c:a', 'pcm_f32le', decoded]);
    return await peaksOf(decoded, recording);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The peaks of `readable` (a file sox reads), written next to `recording`; see {@link referencePeaksFile}. */
async function peaksOf(readable: string, recording: string): Promise<string> {
  const samplesPerChannel = Number((await run('soxi', ['-s', readable])).stdout.trim());
  const rate = Number((await run('soxi', ['-r', readable])).stdout.trim());
  const channelCount = Number((await run('soxi', ['-c', readable])).stdout.trim());
  const durationSeconds = samplesPerChannel / rate;
  const count = peakCount(durationSeconds);
  const file = `${recording}.peaks-${count}.json`;
  if (existsSync(file)) return file;

  const channels = Array.from({ length: channelCount }, () => new Float32Array(count));
  const bucketOf = (frame: number) => Math.min(count - 1, Math.floor((frame * count) / samplesPerChannel));
  const sox = spawn('sox', ['-q', readable, '-t', 'raw', '-e', 'floating-point', '-b', '32', '-L', '-'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let frame = 0;
  let channel = 0;
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of sox.stdout as AsyncIterable<Buffer>) {
    const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const whole = data.length - (data.length % 4);
    for (let offset = 0; offset < whole; offset += 4) {
      const value = Math.abs(data.readFloatLE(offset));
      const peaks = channels[channel]!;
      const bucket = bucketOf(frame);
      if (value > peaks[bucket]!) peaks[bucket] = value;
      channel += 1;
      if (channel === channelCount) {
        channel = 0;
        frame += 1;
      }
    }
    rest = data.subarray(whole);
  }
  const code = await new Promise<number | null>((resolve) => {
    if (sox.exitCode !== null) resolve(sox.exitCode);
    else sox.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`sox could not decode ${recording} (exit ${String(code)})`);
  const peaks: ReferencePeaks = {
    durationSeconds,
    channels: channels.map((c) => Array.from(c, (v) => Math.round(Math.min(1, v) * 1e4) / 1e4)),
  };
  writeFileSync(`${file}.tmp`, JSON.stringify(peaks));
  renameSync(`${file}.tmp`, file);
  return file;
}
