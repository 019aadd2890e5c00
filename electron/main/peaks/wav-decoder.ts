/**
 * Streaming RIFF/WAVE (and RF64) decoder for peaks: PCM 8/16/24/32-bit, 32/64-bit float, A-law and
 * mu-law (expanded by `alawmulaw`), up to 8 channels (MAX_CHANNELS in pcm.ts). The header is checked
 * against the decoding caps before anything is allocated for it.
 */
import { ascii } from './detect-format';
import { checkDuration, checkLayout, concat, merge, type ChunkDecoder, type PcmChunk } from './pcm';

/** PCM converts much faster per byte than compressed audio decodes, so WAV takes big slices. */
const WAV_SLICE_BYTES = 256 * 1024;

/** WAVE format codes (`wFormatTag`) read here. */
const WAVE_PCM = 1;
const WAVE_FLOAT = 3;
const WAVE_ALAW = 6;
const WAVE_MULAW = 7;
const WAVE_EXTENSIBLE = 0xfffe;

/** Largest `fmt ` chunk accepted (WAVE_FORMAT_EXTENSIBLE is 40 bytes). */
const MAX_FMT_BYTES = 1024;

/** G.711 expansion from `alawmulaw`: 8-bit codes to 16-bit PCM. */
export interface Companding {
  alaw: (samples: Uint8Array) => Int16Array;
  mulaw: (samples: Uint8Array) => Int16Array;
}

/** The audio layout from a `fmt ` chunk. */
interface WavFormat {
  code: number;
  channels: number;
  sampleRate: number;
  /** Bytes per sample of one channel in the data chunk. */
  bytesPerSample: number;
}

/** Loads `alawmulaw` (a UMD bundle: named exports under `default` when imported from ESM). */
export async function loadCompanding(): Promise<Companding> {
  const mod = (await import('alawmulaw')) as typeof import('alawmulaw') & { default?: typeof import('alawmulaw') };
  const lib = mod.default ?? mod;
  return { alaw: (s) => lib.alaw.decode(s), mulaw: (s) => lib.mulaw.decode(s) };
}

/** A WAV decoder, with the G.711 expansion loaded. */
export async function createWavDecoder(): Promise<ChunkDecoder> {
  return new WavDecoder(await loadCompanding());
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

  decode(bytes: Uint8Array): PcmChunk | null {
    let input = this.pending.length > 0 ? concat(this.pending, bytes) : bytes;
    this.pending = new Uint8Array(0);
    const out: PcmChunk[] = [];
    while (input.length > 0 && this.state !== 'done') {
      const rest = this.step(input, out);
      if (rest === null) return this.keep(input, out);
      input = rest;
    }
    return merge(out);
  }

  flush(): null {
    if (this.state !== 'data' && this.state !== 'done') throw new Error('WAV ended before its data chunk');
    return null;
  }

  free(): void {
    this.pending = new Uint8Array(0);
  }

  /** Reads what the current state needs from `input`; returns the rest, or null when more bytes are needed. */
  private step(input: Uint8Array, out: PcmChunk[]): Uint8Array | null {
    switch (this.state) {
      case 'riff':
        if (input.length < 12) return null;
        this.state = 'chunk';
        return input.subarray(12);
      case 'chunk':
        if (input.length < 8) return null;
        this.startChunk(ascii(input, 0, 4), new DataView(input.buffer, input.byteOffset, 8).getUint32(4, true));
        return input.subarray(8);
      case 'fmt': {
        if (input.length < this.left) return null;
        this.format = parseFmt(input.subarray(0, this.left));
        this.state = 'chunk';
        return input.subarray(this.left);
      }
      case 'skip': {
        const n = Math.min(this.left, input.length);
        this.left -= n;
        if (this.left === 0) this.state = 'chunk';
        return input.subarray(n);
      }
      case 'data':
        return this.data(input, out);
      case 'done':
        return input.subarray(input.length);
    }
  }

  /** Enters the chunk with this id and size (from its 8-byte header). */
  private startChunk(id: string, size: number): void {
    if (id === 'fmt ') {
      if (size < 16 || size > MAX_FMT_BYTES) throw new Error(`fmt chunk of ${size} bytes`);
      this.state = 'fmt';
      this.left = size + (size % 2);
    } else if (id === 'data') {
      if (!this.format) throw new Error('data chunk before fmt chunk');
      this.state = 'data';
      this.left = size === 0 || size === 0xffffffff ? Infinity : size;
      const { bytesPerSample, channels, sampleRate } = this.format;
      checkDuration(this.left / (bytesPerSample * channels * sampleRate));
    } else {
      this.state = 'skip';
      this.left = size + (size % 2);
    }
  }

  /** Converts the whole sample frames of `input`; returns the rest (empty once a split frame is kept). */
  private data(input: Uint8Array, out: PcmChunk[]): Uint8Array {
    const format = this.format;
    if (!format) throw new Error('data chunk before fmt chunk');
    const frameBytes = format.bytesPerSample * format.channels;
    const available = Math.min(this.left, input.length);
    const usable = available - (available % frameBytes);
    if (usable > 0) out.push(this.convert(input.subarray(0, usable), format));
    this.left -= usable;
    const rest = input.subarray(usable);
    if (this.left === 0 || (this.left < frameBytes && this.left !== Infinity)) {
      this.state = 'done';
    } else if (rest.length > 0) {
      // A sample frame split across chunks: keep its start for the next call.
      this.pending = rest.slice();
      return rest.subarray(rest.length);
    }
    return rest;
  }

  /** Keeps `input` for the next call (a header or sample frame split across chunks); returns what was decoded. */
  private keep(input: Uint8Array, out: PcmChunk[]): PcmChunk | null {
    this.pending = input.slice();
    return merge(out);
  }

  private convert(bytes: Uint8Array, format: WavFormat): PcmChunk {
    const { channels, sampleRate } = format;
    const frames = bytes.length / (format.bytesPerSample * channels);
    const read = this.sampleReader(bytes, format);
    const channelData = Array.from({ length: channels }, (_, c) => {
      const lane = new Float32Array(frames);
      for (let f = 0; f < frames; f++) lane[f] = read(f * channels + c);
      return lane;
    });
    return { channelData, samplesDecoded: frames, sampleRate };
  }

  /** Reads interleaved sample number `index` of `bytes` as a float in [-1, 1]. */
  private sampleReader(bytes: Uint8Array, format: WavFormat): (index: number) => number {
    const { bytesPerSample, code } = format;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    if (code === WAVE_ALAW || code === WAVE_MULAW) {
      const pcm = code === WAVE_ALAW ? this.companding.alaw(bytes) : this.companding.mulaw(bytes);
      return (i) => (pcm[i] ?? 0) / 32768;
    }
    if (code === WAVE_FLOAT) {
      return bytesPerSample === 4 ? (i) => view.getFloat32(i * 4, true) : (i) => view.getFloat64(i * 8, true);
    }
    if (bytesPerSample === 1) return (i) => ((bytes[i] ?? 128) - 128) / 128;
    if (bytesPerSample === 2) return (i) => view.getInt16(i * 2, true) / 32768;
    if (bytesPerSample === 3) {
      return (i) => {
        const at = i * 3;
        const value = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
        return ((value << 8) >> 8) / 8388608;
      };
    }
    return (i) => view.getInt32(i * 4, true) / 2147483648;
  }
}

/**
 * Reads a `fmt ` chunk body.
 * @throws Error for encodings other than PCM, float, A-law, mu-law; ApiError (see checkLayout)
 *   for a layout over the decoding caps.
 */
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
  checkLayout(channels, sampleRate);
  return { code, channels, sampleRate, bytesPerSample };
}
