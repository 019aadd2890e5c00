/**
 * Streaming decode of a recording into peaks (issue 5 "Peaks off the renderer"): bytes go in
 * chunk by chunk, each chunk is decoded and reduced by a {@link PeakAccumulator} at once, so
 * neither the file nor its PCM is ever held whole.
 *
 * Formats, told apart by their first bytes (never by URL or Content-Type):
 * - WAV (RIFF/RF64): PCM 8/16/24/32-bit, 32/64-bit float, A-law, mu-law (via `alawmulaw`), any
 *   channel count; parsed by the small RIFF reader below.
 * - MP3 (MPEG layer I/II/III, with or without an ID3v2 tag): `mpg123-decoder`.
 * - Ogg/Opus: `ogg-opus-decoder`, decoded at 16 kHz for speed; reported as 48 kHz, the rate
 *   Opus always plays at (the duration is exact either way: Opus frames are whole 16 kHz samples).
 * - Ogg/Vorbis: `@wasm-audio-decoders/ogg-vorbis`.
 * - FLAC and Ogg/FLAC: `@wasm-audio-decoders/flac`.
 * WebM, MP4/AAC, ADTS AAC, AIFF and anything else are refused as `invalid_response` (Chromium
 * may still play them; the view then shows the recording without a waveform).
 *
 * The decoder packages are ESM-only; main is built as CommonJS, so they are loaded with a
 * dynamic `import()` (supported from CommonJS by Node 20 and Electron).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ApiError } from '../../shared/errors';
import { PeakAccumulator, type ComputedPeaks } from './reduce';

/** Message of the `invalid_response` error for audio that cannot be reduced to peaks. */
export const UNDECODABLE_MESSAGE =
  "The recording's audio format could not be decoded for the waveform; it may still play.";

/** A container/codec this module decodes. */
export type AudioFormat = 'wav' | 'mp3' | 'ogg-opus' | 'ogg-vorbis' | 'ogg-flac' | 'flac';

/** Result of {@link detectFormat}. */
export type FormatGuess =
  | { kind: 'format'; format: AudioFormat }
  /** Recognised but not decoded here (e.g. "WebM"), or `name` null when not recognised at all. */
  | { kind: 'unsupported'; name: string | null }
  /** The bytes so far are a prefix of a known signature: read more. */
  | { kind: 'need-more' };

/** Bytes after which an unrecognised start is declared unknown. */
const DETECT_MAX_BYTES = 512;
/**
 * Largest slice handed to a decoder at once; the event loop (IPC in main) gets a turn between
 * slices. 16 KiB of compressed audio is 4 to 16 s of a call and decodes in a few milliseconds;
 * PCM converts much faster per byte, so WAV takes bigger slices.
 */
const SLICE_BYTES = 16 * 1024;
const WAV_SLICE_BYTES = 256 * 1024;

/** Rate Opus is decoded at for peaks: 10 ms buckets need no more, and it is about twice as fast as 48 kHz. */
const OPUS_PEAKS_RATE = 16_000;
/** Rate reported for Opus: the rate Opus always decodes at for playback (RFC 7845, 48 kHz). */
const OPUS_PLAYBACK_RATE = 48_000;

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** True when `b` starts with a plausible MPEG audio frame header (layer I-III, valid rate fields). */
function isMpegFrameHeader(b: Uint8Array): boolean {
  if (b.length < 4 || b[0] !== 0xff || (b[1]! & 0xe0) !== 0xe0) return false;
  const version = (b[1]! >> 3) & 3;
  const layer = (b[1]! >> 1) & 3;
  const bitrate = b[2]! >> 4;
  const rate = (b[2]! >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3;
}

/**
 * Tells the format from the first bytes of a recording. `ended` says the stream has no more
 * bytes (so a short prefix cannot become a known signature any more).
 */
export function detectFormat(head: Uint8Array, ended: boolean): FormatGuess {
  const more = (needed: number): boolean => head.length < needed && !ended;
  if (more(4)) return { kind: 'need-more' };
  const magic = ascii(head, 0, 4);

  if (magic === 'RIFF' || magic === 'RF64') {
    if (more(12)) return { kind: 'need-more' };
    return ascii(head, 8, 4) === 'WAVE'
      ? { kind: 'format', format: 'wav' }
      : { kind: 'unsupported', name: `RIFF ${ascii(head, 8, 4)}` };
  }
  if (magic === 'fLaC') return { kind: 'format', format: 'flac' };
  if (magic === 'OggS') {
    // First page: 27-byte header, segment table, then the first packet names the codec.
    if (more(27)) return { kind: 'need-more' };
    const packetAt = 27 + (head[26] ?? 0);
    if (more(packetAt + 8)) return { kind: 'need-more' };
    const packet = head.subarray(packetAt, packetAt + 8);
    if (ascii(packet, 0, 8) === 'OpusHead') return { kind: 'format', format: 'ogg-opus' };
    if (packet[0] === 1 && ascii(packet, 1, 6) === 'vorbis') return { kind: 'format', format: 'ogg-vorbis' };
    if (packet[0] === 0x7f && ascii(packet, 1, 4) === 'FLAC') return { kind: 'format', format: 'ogg-flac' };
    return { kind: 'unsupported', name: 'Ogg (codec other than Opus, Vorbis or FLAC)' };
  }
  if (magic.startsWith('ID3') || isMpegFrameHeader(head)) return { kind: 'format', format: 'mp3' };
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
    return { kind: 'unsupported', name: 'WebM/Matroska' };
  if (head[0] === 0xff && (head[1]! & 0xf6) === 0xf0) return { kind: 'unsupported', name: 'AAC (ADTS)' };
  if (magic === 'FORM') return { kind: 'unsupported', name: 'AIFF' };
  if (more(8)) return { kind: 'need-more' };
  if (ascii(head, 4, 4) === 'ftyp') return { kind: 'unsupported', name: 'MP4/M4A' };
  return { kind: 'unsupported', name: null };
}

/** Decoded PCM of one chunk: planar Float32 in [-1, 1], one array per channel. */
interface PcmChunk {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
}

/** What every format's decoder looks like to {@link decodeToPeaks}. */
interface ChunkDecoder {
  decode(bytes: Uint8Array): Promise<PcmChunk | null>;
  /** Decodes what the decoder still buffers, at the end of the stream. */
  flush(): Promise<PcmChunk | null>;
  free(): void;
  /** True when every decoded sample had equal left and right (MP3 decodes mono as two equal channels). */
  readonly channelsIdentical?: boolean;
  /** Sample rate to report when it differs from the rate decoded at (Opus). */
  readonly reportedSampleRate?: number;
  /** Bytes per decode call (see {@link SLICE_BYTES}). */
  readonly sliceBytes?: number;
}

/** The shape shared by the wasm-audio-decoders results (`sampleRate`/`channelData` are junk when nothing was decoded). */
interface WasmDecoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
}

function pcmOf(result: WasmDecoded): PcmChunk | null {
  return result.samplesDecoded > 0
    ? { channelData: result.channelData, samplesDecoded: result.samplesDecoded, sampleRate: result.sampleRate }
    : null;
}

/** A wasm-audio-decoders instance as used here (sync or async `decode`, optional `flush`). */
interface WasmDecoder {
  ready: Promise<void>;
  decode(data: Uint8Array): WasmDecoded | Promise<WasmDecoded>;
  flush?: () => Promise<WasmDecoded>;
  free(): void | Promise<void>;
}

async function wasmDecoder(decoder: WasmDecoder): Promise<ChunkDecoder> {
  await decoder.ready;
  return {
    decode: async (bytes) => pcmOf(await decoder.decode(bytes)),
    flush: async () => (decoder.flush ? pcmOf(await decoder.flush()) : null),
    free: () => void decoder.free(),
  };
}

/** mpg123 always outputs two channels; this remembers whether they ever differed (if not, the file is mono). */
async function mp3Decoder(): Promise<ChunkDecoder> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const inner = await wasmDecoder(new MPEGDecoder());
  let identical = true;
  return {
    get channelsIdentical() {
      return identical;
    },
    async decode(bytes) {
      const pcm = await inner.decode(bytes);
      if (pcm && identical && pcm.channelData.length >= 2) {
        const [left, right] = pcm.channelData as [Float32Array, Float32Array];
        for (let i = 0; i < pcm.samplesDecoded; i++) {
          if (left[i] !== right[i]) {
            identical = false;
            break;
          }
        }
      }
      return pcm;
    },
    flush: () => inner.flush(),
    free: () => inner.free(),
  };
}

async function createDecoder(format: AudioFormat): Promise<ChunkDecoder> {
  switch (format) {
    case 'wav':
      return new WavDecoder(await loadCompanding());
    case 'mp3':
      return mp3Decoder();
    case 'ogg-opus': {
      const { OggOpusDecoder } = await import('ogg-opus-decoder');
      // `sampleRate` is documented in the package README but missing from its types.d.ts (1.7.5).
      const opusOptions = { sampleRate: OPUS_PEAKS_RATE } as ConstructorParameters<typeof OggOpusDecoder>[0];
      const decoder = await wasmDecoder(new OggOpusDecoder(opusOptions));
      return { ...decoder, reportedSampleRate: OPUS_PLAYBACK_RATE };
    }
    case 'ogg-vorbis': {
      const { OggVorbisDecoder } = await import('@wasm-audio-decoders/ogg-vorbis');
      return wasmDecoder(new OggVorbisDecoder());
    }
    case 'ogg-flac':
    case 'flac': {
      const { FLACDecoder } = await import('@wasm-audio-decoders/flac');
      return wasmDecoder(new FLACDecoder());
    }
  }
}

/** G.711 expansion from `alawmulaw` (a UMD bundle: named exports under `default` when imported from ESM). */
interface Companding {
  alaw: (samples: Uint8Array) => Int16Array;
  mulaw: (samples: Uint8Array) => Int16Array;
}

async function loadCompanding(): Promise<Companding> {
  const mod = (await import('alawmulaw')) as typeof import('alawmulaw') & { default?: typeof import('alawmulaw') };
  const lib = mod.alaw ? mod : mod.default!;
  return { alaw: (s) => lib.alaw.decode(s), mulaw: (s) => lib.mulaw.decode(s) };
}

/** WAVE format codes (`wFormatTag`) read here. */
const WAVE_PCM = 1;
const WAVE_FLOAT = 3;
const WAVE_ALAW = 6;
const WAVE_MULAW = 7;
const WAVE_EXTENSIBLE = 0xfffe;

/** Largest `fmt ` chunk accepted (WAVE_FORMAT_EXTENSIBLE is 40 bytes). */
const MAX_FMT_BYTES = 1024;

/** The audio layout from a `fmt ` chunk. */
interface WavFormat {
  code: number;
  channels: number;
  sampleRate: number;
  /** Bytes per sample of one channel in the data chunk. */
  bytesPerSample: number;
}

/**
 * Streaming RIFF/WAVE reader: walks the chunks (skipping LIST, fact, etc. without buffering
 * them), reads `fmt `, then converts the `data` chunk to planar Float32 as bytes arrive. A data
 * size of 0 or 0xFFFFFFFF (written by streaming recorders, and by RF64) means "until the end".
 * @throws Error for a malformed header or an encoding it does not decode.
 */
class WavDecoder implements ChunkDecoder {
  readonly sliceBytes = WAV_SLICE_BYTES;
  private pending: Uint8Array = new Uint8Array(0);
  private state: 'riff' | 'chunk' | 'fmt' | 'skip' | 'data' | 'done' = 'riff';
  /** Bytes left in the chunk being read, skipped or decoded (including the pad byte for skips). */
  private left = 0;
  private format: WavFormat | null = null;

  constructor(private readonly companding: Companding) {}

  async decode(bytes: Uint8Array): Promise<PcmChunk | null> {
    let input = this.pending.length > 0 ? concat(this.pending, bytes) : bytes;
    this.pending = new Uint8Array(0);
    const out: PcmChunk[] = [];
    while (input.length > 0 && this.state !== 'done') {
      switch (this.state) {
        case 'riff':
          if (input.length < 12) return this.keep(input, out);
          this.state = 'chunk';
          input = input.subarray(12);
          break;
        case 'chunk': {
          if (input.length < 8) return this.keep(input, out);
          const id = ascii(input, 0, 4);
          const size = new DataView(input.buffer, input.byteOffset, 8).getUint32(4, true);
          input = input.subarray(8);
          if (id === 'fmt ') {
            if (size < 16 || size > MAX_FMT_BYTES) throw new Error(`fmt chunk of ${size} bytes`);
            this.state = 'fmt';
            this.left = size + (size % 2);
          } else if (id === 'data') {
            if (!this.format) throw new Error('data chunk before fmt chunk');
            this.state = 'data';
            this.left = size === 0 || size === 0xffffffff ? Infinity : size;
          } else {
            this.state = 'skip';
            this.left = size + (size % 2);
          }
          break;
        }
        case 'fmt':
          if (input.length < this.left) return this.keep(input, out);
          this.format = parseFmt(input.subarray(0, this.left));
          input = input.subarray(this.left);
          this.state = 'chunk';
          break;
        case 'skip': {
          const n = Math.min(this.left, input.length);
          input = input.subarray(n);
          this.left -= n;
          if (this.left === 0) this.state = 'chunk';
          break;
        }
        case 'data': {
          const format = this.format!;
          const frameBytes = format.bytesPerSample * format.channels;
          const available = Math.min(this.left, input.length);
          const usable = available - (available % frameBytes);
          if (usable > 0) out.push(this.convert(input.subarray(0, usable), format));
          this.left -= usable;
          input = input.subarray(usable);
          if (this.left === 0 || (this.left < frameBytes && this.left !== Infinity)) this.state = 'done';
          else if (input.length > 0) return this.keep(input, out);
          break;
        }
      }
    }
    return merge(out);
  }

  async flush(): Promise<PcmChunk | null> {
    if (this.state !== 'data' && this.state !== 'done') throw new Error('WAV ended before its data chunk');
    return null;
  }

  free(): void {
    this.pending = new Uint8Array(0);
  }

  /** Keeps `input` for the next call (a header or sample frame split across chunks); returns what was decoded. */
  private keep(input: Uint8Array, out: PcmChunk[]): PcmChunk | null {
    this.pending = input.slice();
    return merge(out);
  }

  private convert(bytes: Uint8Array, format: WavFormat): PcmChunk {
    const { channels, bytesPerSample, code } = format;
    const frames = bytes.length / (bytesPerSample * channels);
    const channelData = Array.from({ length: channels }, () => new Float32Array(frames));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const deinterleave = (read: (index: number) => number): void => {
      let index = 0;
      for (let f = 0; f < frames; f++) {
        for (let c = 0; c < channels; c++) channelData[c]![f] = read(index++);
      }
    };
    if (code === WAVE_ALAW || code === WAVE_MULAW) {
      const pcm = code === WAVE_ALAW ? this.companding.alaw(bytes) : this.companding.mulaw(bytes);
      deinterleave((i) => pcm[i]! / 32768);
    } else if (code === WAVE_FLOAT) {
      if (bytesPerSample === 4) deinterleave((i) => view.getFloat32(i * 4, true));
      else deinterleave((i) => view.getFloat64(i * 8, true));
    } else if (bytesPerSample === 1) {
      deinterleave((i) => (bytes[i]! - 128) / 128);
    } else if (bytesPerSample === 2) {
      deinterleave((i) => view.getInt16(i * 2, true) / 32768);
    } else if (bytesPerSample === 3) {
      deinterleave((i) => {
        const at = i * 3;
        const value = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
        return ((value << 8) >> 8) / 8388608;
      });
    } else {
      deinterleave((i) => view.getInt32(i * 4, true) / 2147483648);
    }
    return { channelData, samplesDecoded: frames, sampleRate: format.sampleRate };
  }
}

/** Reads a `fmt ` chunk body. @throws Error for encodings other than PCM, float, A-law, mu-law. */
function parseFmt(body: Uint8Array): WavFormat {
  const view = new DataView(body.buffer, body.byteOffset, body.length);
  let code = view.getUint16(0, true);
  const channels = view.getUint16(2, true);
  const sampleRate = view.getUint32(4, true);
  const bitsPerSample = view.getUint16(14, true);
  if (code === WAVE_EXTENSIBLE) {
    if (body.length < 26) throw new Error('WAVE_FORMAT_EXTENSIBLE without a sub-format');
    code = view.getUint16(24, true); // first two bytes of the sub-format GUID
  }
  const bytesPerSample = Math.ceil(bitsPerSample / 8);
  const supported =
    (code === WAVE_PCM && bytesPerSample >= 1 && bytesPerSample <= 4) ||
    (code === WAVE_FLOAT && (bytesPerSample === 4 || bytesPerSample === 8)) ||
    ((code === WAVE_ALAW || code === WAVE_MULAW) && bytesPerSample === 1);
  if (!supported) throw new Error(`WAVE format ${code} with ${bitsPerSample} bits is not decoded`);
  if (channels < 1 || sampleRate < 1) throw new Error('WAV with no channels or no sample rate');
  return { code, channels, sampleRate, bytesPerSample };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Joins chunks decoded from one input into one (same rate and channels by construction). */
function merge(chunks: PcmChunk[]): PcmChunk | null {
  if (chunks.length === 0) return null;
  if (chunks.length === 1) return chunks[0]!;
  const samples = chunks.reduce((n, c) => n + c.samplesDecoded, 0);
  const channelData = chunks[0]!.channelData.map((_, ch) => {
    const joined = new Float32Array(samples);
    let at = 0;
    for (const c of chunks) {
      joined.set(c.channelData[ch]!.subarray(0, c.samplesDecoded), at);
      at += c.samplesDecoded;
    }
    return joined;
  });
  return { channelData, samplesDecoded: samples, sampleRate: chunks[0]!.sampleRate };
}

/** Options of {@link decodeToPeaks}. */
export interface DecodeOptions {
  /** Called before each slice is decoded; lets the caller give the event loop a turn (default: `setImmediate`). */
  pause?: () => Promise<unknown>;
}

/**
 * Reads `chunks` (the recording's bytes, in order) to the end and returns its peaks and exact
 * duration. Errors thrown by `chunks` itself (a failed download) pass through unchanged.
 * @throws ApiError kind 'invalid_response' ({@link UNDECODABLE_MESSAGE}) when the format is not
 *   recognised or not decoded here, or the decoder fails or yields no audio.
 */
export async function decodeToPeaks(
  chunks: AsyncIterable<Uint8Array>,
  options: DecodeOptions = {},
): Promise<ComputedPeaks> {
  const pause = options.pause ?? (() => yieldToEventLoop());
  const run = new PeaksRun(pause);
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

  constructor(private readonly pause: () => Promise<unknown>) {}

  async push(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return;
    if (this.decoder) return this.decodeSlices(this.decoder, chunk);
    this.head = concat(this.head, chunk);
    await this.start(false);
  }

  async end(): Promise<ComputedPeaks> {
    if (!this.decoder) await this.start(true);
    const decoder = this.decoder;
    if (!decoder) throw undecodable(null);
    this.feed(await guarded(() => decoder.flush()));
    if (!this.accumulator || this.accumulator.samples === 0) throw undecodable(null);
    const peaks = this.accumulator.finish();
    if (decoder.channelsIdentical && peaks.channels.length === 2) peaks.channels.length = 1;
    if (decoder.reportedSampleRate) peaks.sampleRate = decoder.reportedSampleRate;
    return peaks;
  }

  free(): void {
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
      this.feed(await guarded(() => decoder.decode(slice)));
    }
  }

  private feed(pcm: PcmChunk | null): void {
    if (!pcm || pcm.samplesDecoded <= 0) return;
    this.accumulator ??= new PeakAccumulator(pcm.channelData.length, pcm.sampleRate);
    this.accumulator.add(pcm.channelData, pcm.samplesDecoded);
  }
}

/** Runs a decoder step; anything it throws becomes the `invalid_response` error. */
async function guarded<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw undecodable(null);
  }
}

function undecodable(formatName: string | null): ApiError {
  const message = formatName
    ? `The recording's audio format (${formatName}) could not be decoded for the waveform; it may still play.`
    : UNDECODABLE_MESSAGE;
  return new ApiError({ kind: 'invalid_response', message });
}
