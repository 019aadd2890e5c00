/**
 * Decoded PCM as the peaks decoder passes it around, what every format's decoder looks like, and
 * the caps every decoder applies (channels, duration, bytes read) so a hostile or broken file is
 * refused in words instead of exhausting memory or keeping the worker busy forever.
 */
import { ApiError } from '$shared/errors';
import { MAX_CHANNELS, MAX_DURATION_SECONDS, MAX_SAMPLE_RATE } from '$shared/peaks-decoding';
// The recording size cap, shared with the download: past it a stream is treated as endless.
import { MAX_RECORDING_BYTES } from '../api/recording-errors';

export { MAX_CHANNELS, MAX_DURATION_SECONDS, MAX_SAMPLE_RATE };

/**
 * Checks a stream's announced layout against the caps.
 * @throws ApiError kind 'invalid_response' naming the cap when there are more than
 *   {@link MAX_CHANNELS} channels or the sample rate is above {@link MAX_SAMPLE_RATE}.
 */
export function checkLayout(channels: number, sampleRate: number): void {
  if (channels > MAX_CHANNELS) {
    throw capError(`it announces ${channels} audio channels (at most ${MAX_CHANNELS} are drawn)`);
  }
  if (sampleRate > MAX_SAMPLE_RATE) {
    throw capError(`it announces ${sampleRate} samples per second (at most ${MAX_SAMPLE_RATE} are drawn)`);
  }
}

/**
 * Checks a duration (announced by a header or reached while decoding) against the cap.
 * @throws ApiError kind 'invalid_response' when `seconds` exceeds {@link MAX_DURATION_SECONDS}.
 */
export function checkDuration(seconds: number): void {
  if (seconds > MAX_DURATION_SECONDS) {
    throw capError(`it is longer than ${MAX_DURATION_SECONDS / 3600} hours`);
  }
}

/**
 * Checks the bytes read so far against the cap.
 * @throws ApiError kind 'invalid_response' past {@link MAX_RECORDING_BYTES} (an endless stream).
 */
export function checkBytesRead(bytes: number): void {
  if (bytes > MAX_RECORDING_BYTES) {
    throw capError(`it is larger than ${MAX_RECORDING_BYTES / 1024 ** 3} GiB or never ends`);
  }
}

/** The worded refusal of a recording over a decoding cap; `why` completes "... because ...". */
function capError(why: string): ApiError {
  return new ApiError({
    kind: 'invalid_response',
    message: `The waveform is not drawn for this recording because ${why}; it may still play.`,
  });
}

/** Decoded PCM of one chunk: planar Float32 in [-1, 1], one array per channel. */
export interface PcmChunk {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
}

/** The shape shared by the wasm-audio-decoders results (`sampleRate`/`channelData` are junk when nothing was decoded). */
export interface WasmDecoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
}

/** A wasm-audio-decoders result as a {@link PcmChunk}, or null when it holds no samples. */
export function pcmOf(result: WasmDecoded): PcmChunk | null {
  return result.samplesDecoded > 0
    ? { channelData: result.channelData, samplesDecoded: result.samplesDecoded, sampleRate: result.sampleRate }
    : null;
}

/** What every format's decoder looks like to decodeToPeaks (decode.ts). */
export interface ChunkDecoder {
  decode(bytes: Uint8Array): Promise<PcmChunk | null> | PcmChunk | null;
  /**
   * Decodes `bytes` and hands each stretch of PCM to `sink` as it is decoded, in arrays that are
   * valid only during that call (views of the decoder's own buffer: no copies). Used instead of
   * {@link decode} when present.
   */
  decodeInto?(bytes: Uint8Array, sink: (pcm: PcmChunk) => void): void;
  /** Decodes what the decoder still buffers, at the end of the stream. */
  flush(): Promise<PcmChunk | null> | PcmChunk | null;
  free(): void;
  /** True when every decoded sample had equal left and right (MP3 decodes mono as two equal channels). */
  readonly channelsIdentical?: boolean;
  /** Sample rate to report when it differs from the rate decoded at (Opus). */
  readonly reportedSampleRate?: number;
  /** Bytes per decode call (default: the decoder's slice size in decode.ts). */
  readonly sliceBytes?: number;
}

/** `a` then `b`, in a new array. */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Joins chunks decoded from one input into one (same rate and channels by construction). */
export function merge(chunks: PcmChunk[]): PcmChunk | null {
  const [first, ...rest] = chunks;
  if (!first) return null;
  if (rest.length === 0) return first;
  const samples = chunks.reduce((n, c) => n + c.samplesDecoded, 0);
  const channelData = first.channelData.map((_, ch) => {
    const joined = new Float32Array(samples);
    let at = 0;
    for (const c of chunks) {
      const data = c.channelData[ch];
      if (data) joined.set(data.subarray(0, c.samplesDecoded), at);
      at += c.samplesDecoded;
    }
    return joined;
  });
  return { channelData, samplesDecoded: samples, sampleRate: first.sampleRate };
}
