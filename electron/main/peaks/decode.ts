/**
 * Streaming decode of a recording into peaks: bytes go in chunk by chunk, each chunk is decoded
 * and reduced by a {@link PeakAccumulator} at once, so neither the file nor its PCM is ever held
 * whole.
 *
 * Formats are told apart by their first bytes (detect-format.ts): WAV (wav-decoder.ts), AIFF and
 * AIFF-C (aiff-decoder.ts), MP3 (mp3-decoder.ts), Ogg/Opus, Ogg/Vorbis, FLAC and Ogg/FLAC
 * (codec-decoders.ts). WebM, MP4/AAC, ADTS AAC and anything else are refused as `invalid_response`; a format that is recognised
 * but not read here carries `detail: 'unsupported_format'`, so the page decodes it with Chromium's
 * decoders instead (a file recognised as nothing is refused without it).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ApiError } from '$shared/errors';
import { UNDECODABLE_MESSAGE } from '$shared/peaks-decoding';
import { createDecoder } from './codec-decoders';
import { detectFormat } from './detect-format';
import { checkBytesRead, checkDuration, checkLayout, concat, type ChunkDecoder, type PcmChunk } from './pcm';
import { PeakAccumulator, type ComputedPeaks } from '$shared/peaks-reducer';

export { UNDECODABLE_MESSAGE };

/** Bytes after which an unrecognised start is declared unknown. */
const DETECT_MAX_BYTES = 512;
/**
 * Largest slice handed to a decoder at once (unless it asks for another size); the event loop
 * (IPC in main) gets a turn between slices. 16 KiB of compressed audio is 4 to 16 s of a call
 * and decodes in a few milliseconds.
 */
const SLICE_BYTES = 16 * 1024;

/** Options of {@link decodeToPeaks}. */
export interface DecodeOptions {
  /** Called before each slice is decoded; lets the caller give the event loop a turn (default: `setImmediate`). */
  pause?: () => Promise<unknown>;
  /**
   * Called with the peaks of the audio decoded so far (`durationSeconds` = the seconds covered),
   * at most once per {@link progressEveryMs}, the first time as soon as audio is decoded. Audio
   * decoded within an interval is reported when the interval is over even if no more bytes come
   * (a download held part-way shows all that arrived, not what was decoded an interval before);
   * never after {@link decodeToPeaks} settles.
   */
  onProgress?: (peaks: ComputedPeaks) => void;
  /** Least wall time between two {@link onProgress} calls, in ms (default 250). */
  progressEveryMs?: number;
}

/** Default least time between two progress snapshots, in ms: a few per second at most. */
const PROGRESS_EVERY_MS = 250;

/**
 * Reads `chunks` (the recording's bytes, in order) to the end and returns its peaks and exact
 * duration. Errors thrown by `chunks` itself (a failed download) pass through unchanged. An
 * endless stream ends at the duration or byte cap (pcm.ts): the loop stops reading then.
 * @throws ApiError kind 'invalid_response' ({@link UNDECODABLE_MESSAGE}) when the format is not
 *   recognised, or the decoder fails or yields no audio; the same kind naming the format, with
 *   `detail: 'unsupported_format'`, for a format recognised but not decoded here (WebM, MP4/M4A,
 *   ADTS AAC); the same kind with the cap in words for more than 8 channels, more than 6
 *   hours or more than 1 GiB.
 */
export async function decodeToPeaks(
  chunks: AsyncIterable<Uint8Array>,
  options: DecodeOptions = {},
): Promise<ComputedPeaks> {
  const pause = options.pause ?? (() => yieldToEventLoop());
  const run = new PeaksRun(pause, options.onProgress ?? null, options.progressEveryMs ?? PROGRESS_EVERY_MS);
  try {
    for await (const chunk of chunks) await run.push(chunk);
    return await run.end();
  } finally {
    run.free();
  }
}

/** State of one {@link decodeToPeaks} call: format detection, then decoding into the accumulator. */
class PeaksRun {
  /** Bytes read before the format is known. */
  private head: Uint8Array = new Uint8Array(0);
  private decoder: ChunkDecoder | null = null;
  private accumulator: PeakAccumulator | null = null;
  /** Recording bytes received so far. */
  private bytesRead = 0;

  /** Wall time of the last progress snapshot (ms); none yet, so the first comes at once. */
  private lastProgressAt = -Infinity;
  /** The timer that reports audio decoded since the last snapshot once its interval is over. */
  private pendingProgress: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly pause: () => Promise<unknown>,
    private readonly onProgress: ((peaks: ComputedPeaks) => void) | null,
    private readonly progressEveryMs: number,
  ) {}

  async push(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return;
    this.bytesRead += chunk.length;
    checkBytesRead(this.bytesRead);
    if (this.decoder) return this.decodeSlices(this.decoder, chunk);
    this.head = concat(this.head, chunk);
    await this.start(false);
  }

  async end(): Promise<ComputedPeaks> {
    if (!this.decoder) await this.start(true);
    const decoder = this.decoder;
    if (!decoder) throw undecodable(null);
    this.feed(await guarded(() => decoder.flush()));
    this.cancelPendingProgress();
    if (!this.accumulator || this.accumulator.samples === 0) throw undecodable(null);
    return this.asReported(this.accumulator.finish());
  }

  /** Applies what the decoder says of the stream: one lane for identical channels, its sample rate. */
  private asReported(peaks: ComputedPeaks): ComputedPeaks {
    const decoder = this.decoder;
    if (decoder?.channelsIdentical && peaks.channels.length === 2) peaks.channels.length = 1;
    if (decoder?.reportedSampleRate) peaks.sampleRate = decoder.reportedSampleRate;
    return peaks;
  }

  /**
   * Hands a snapshot to the progress callback when the last one is old enough; otherwise makes
   * sure one follows when the interval is over, so the last audio decoded before the bytes stop
   * coming (a held or slow download) is reported too.
   */
  private report(accumulator: PeakAccumulator): void {
    const onProgress = this.onProgress;
    if (!onProgress) return;
    const sinceLast = Date.now() - this.lastProgressAt;
    if (sinceLast >= this.progressEveryMs) {
      this.cancelPendingProgress();
      this.lastProgressAt = Date.now();
      onProgress(this.asReported(accumulator.snapshot()));
      return;
    }
    if (this.pendingProgress) return;
    this.pendingProgress = setTimeout(() => {
      this.pendingProgress = null;
      this.lastProgressAt = Date.now();
      onProgress(this.asReported(accumulator.snapshot()));
    }, this.progressEveryMs - sinceLast);
  }

  private cancelPendingProgress(): void {
    if (this.pendingProgress) clearTimeout(this.pendingProgress);
    this.pendingProgress = null;
  }

  free(): void {
    this.cancelPendingProgress();
    this.decoder?.free();
    this.decoder = null;
  }

  /** Picks the decoder once the first bytes tell the format. */
  private async start(ended: boolean): Promise<void> {
    const guess = detectFormat(this.head, ended);
    if (guess.kind === 'need-more' && this.head.length < DETECT_MAX_BYTES && !ended) return;
    if (guess.kind !== 'format') throw undecodable(guess.kind === 'unsupported' ? guess.name : null);
    const decoder = await guarded(() => createDecoder(guess.format));
    this.decoder = decoder;
    const first = this.head;
    this.head = new Uint8Array(0);
    await this.decodeSlices(decoder, first);
  }

  private async decodeSlices(decoder: ChunkDecoder, bytes: Uint8Array): Promise<void> {
    const size = decoder.sliceBytes ?? SLICE_BYTES;
    for (let at = 0; at < bytes.length; at += size) {
      await this.pause();
      const slice = bytes.subarray(at, at + size);
      if (decoder.decodeInto) {
        const into = decoder.decodeInto.bind(decoder);
        await guarded(() => into(slice, (pcm) => this.feed(pcm)));
      } else this.feed(await guarded(() => decoder.decode(slice)));
    }
  }

  private feed(pcm: PcmChunk | null): void {
    if (!pcm || pcm.samplesDecoded <= 0) return;
    if (!this.accumulator) {
      checkLayout(pcm.channelData.length, pcm.sampleRate);
      this.accumulator = new PeakAccumulator(pcm.channelData.length, pcm.sampleRate);
    }
    checkDuration((this.accumulator.samples + pcm.samplesDecoded) / this.accumulator.sampleRate);
    this.accumulator.add(pcm.channelData, pcm.samplesDecoded);
    this.report(this.accumulator);
  }
}

/** Runs a decoder step; anything it throws becomes the `invalid_response` error. */
async function guarded<T>(step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw undecodable(null);
  }
}

/** The refusal of a recording; `formatName` names a format recognised but not read here. */
function undecodable(formatName: string | null): ApiError {
  if (formatName === null) return new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE });
  return new ApiError({
    kind: 'invalid_response',
    message: `The recording's audio format (${formatName}) could not be decoded for the waveform; it may still play.`,
    detail: 'unsupported_format',
  });
}
