/**
 * Streaming AIFF and AIFF-C decoder for peaks: big-endian PCM of 8 to 32 bits (AIFF, and AIFF-C
 * `NONE`/`twos`), little-endian PCM (`sowt`), 32/64-bit float (`fl32`, `fl64`), and G.711
 * (`ulaw`, `alaw`, expanded by `alawmulaw`), up to 8 channels (MAX_CHANNELS in pcm.ts). The layout
 * is checked against the decoding caps before anything is allocated for it. Chromium neither plays
 * nor decodes AIFF, so main draws its waveform (and the player says why it cannot play it:
 * unplayable-format.ts).
 */
import { ascii } from './detect-format';
import { checkDuration, checkLayout, concat, merge, type ChunkDecoder, type PcmChunk } from './pcm';
import { loadCompanding, type Companding } from './wav-decoder';

/** PCM converts fast: big slices, as for WAV. */
const AIFF_SLICE_BYTES = 256 * 1024;
/** Largest `COMM` chunk accepted (AIFF-C adds a compression type and a short name). */
const MAX_COMM_BYTES = 1024;

/** How the samples of the sound data are stored. */
type Encoding = 'pcm-be' | 'pcm-le' | 'float-be' | 'ulaw' | 'alaw';

/** AIFF-C compression types read here, by their four-character code. */
const COMPRESSIONS: Record<string, Encoding> = {
  NONE: 'pcm-be',
  twos: 'pcm-be',
  sowt: 'pcm-le',
  fl32: 'float-be',
  FL32: 'float-be',
  fl64: 'float-be',
  FL64: 'float-be',
  ulaw: 'ulaw',
  ULAW: 'ulaw',
  alaw: 'alaw',
  ALAW: 'alaw',
};

/** The audio layout from a `COMM` chunk. */
interface AiffFormat {
  encoding: Encoding;
  channels: number;
  sampleRate: number;
  /** Bytes per sample of one channel in the sound data. */
  bytesPerSample: number;
  /** Sample frames the file says it holds (0: not said, read to the end). */
  frames: number;
}

/** An AIFF/AIFF-C decoder, with the G.711 expansion loaded. */
export async function createAiffDecoder(): Promise<ChunkDecoder> {
  return new AiffDecoder(await loadCompanding());
}

/**
 * Streaming FORM/AIFF reader: walks the chunks (skipping NAME, ANNO, MARK, etc. without
 * buffering them), reads `COMM`, then converts the `SSND` sound data to planar Float32 as bytes
 * arrive. Chunk sizes are big-endian and chunks are padded to an even length.
 * @throws Error for a malformed header or an encoding it does not decode.
 */
class AiffDecoder implements ChunkDecoder {
  readonly sliceBytes = AIFF_SLICE_BYTES;
  private pending: Uint8Array = new Uint8Array(0);
  private state: 'form' | 'chunk' | 'comm' | 'ssnd' | 'skip' | 'data' | 'done' = 'form';
  private aifc = false;
  /** Bytes left in the chunk being read, skipped or decoded (skips include the pad byte). */
  private left = 0;
  private format: AiffFormat | null = null;

  constructor(private readonly companding: Companding) {}

  decode(bytes: Uint8Array): PcmChunk | null {
    let input = this.pending.length > 0 ? concat(this.pending, bytes) : bytes;
    this.pending = new Uint8Array(0);
    const out: PcmChunk[] = [];
    while (input.length > 0 && this.state !== 'done') {
      const rest = this.step(input, out);
      if (rest === null) {
        this.pending = input.slice();
        return merge(out);
      }
      input = rest;
    }
    return merge(out);
  }

  flush(): null {
    if (this.state !== 'data' && this.state !== 'done') throw new Error('AIFF ended before its sound data');
    return null;
  }

  free(): void {
    this.pending = new Uint8Array(0);
  }

  /** Reads what the current state needs from `input`; returns the rest, or null when more bytes are needed. */
  private step(input: Uint8Array, out: PcmChunk[]): Uint8Array | null {
    switch (this.state) {
      case 'form':
        if (input.length < 12) return null;
        this.aifc = ascii(input, 8, 4) === 'AIFC';
        this.state = 'chunk';
        return input.subarray(12);
      case 'chunk':
        if (input.length < 8) return null;
        this.startChunk(ascii(input, 0, 4), new DataView(input.buffer, input.byteOffset, 8).getUint32(4, false));
        return input.subarray(8);
      case 'comm':
        if (input.length < this.left) return null;
        this.format = parseComm(input.subarray(0, this.left), this.aifc);
        this.state = 'chunk';
        return input.subarray(this.left);
      case 'ssnd': {
        // Offset (to the first sample frame) and block size, then the offset's bytes.
        if (input.length < 8) return null;
        const offset = new DataView(input.buffer, input.byteOffset, 8).getUint32(0, false);
        this.left -= 8;
        this.state = 'skip';
        const dataLeft = this.left - offset;
        this.left = offset;
        this.afterSkip = dataLeft;
        if (offset === 0) this.enterData();
        return input.subarray(8);
      }
      case 'skip': {
        const n = Math.min(this.left, input.length);
        this.left -= n;
        if (this.left === 0) {
          if (this.afterSkip === null) this.state = 'chunk';
          else this.enterData();
        }
        return input.subarray(n);
      }
      case 'data':
        return this.data(input, out);
      case 'done':
        return input.subarray(input.length);
    }
  }

  /** Sound data bytes left once the SSND offset is skipped (null: the skip is a whole chunk). */
  private afterSkip: number | null = null;

  /** Enters the chunk with this id and size (from its 8-byte header). */
  private startChunk(id: string, size: number): void {
    if (id === 'COMM') {
      if (size < 18 || size > MAX_COMM_BYTES) throw new Error(`COMM chunk of ${size} bytes`);
      this.state = 'comm';
      this.left = size + (size % 2);
    } else if (id === 'SSND') {
      if (!this.format) throw new Error('SSND chunk before COMM chunk');
      // A size of 0 or 0xFFFFFFFF (a recorder that never went back to write it): to the end.
      this.left = size === 0 || size === 0xffffffff ? Infinity : size;
      this.state = 'ssnd';
    } else {
      this.state = 'skip';
      this.afterSkip = null;
      this.left = size + (size % 2);
    }
  }

  /** Starts converting sound data, for as many bytes as the chunk and the frame count allow. */
  private enterData(): void {
    const format = this.format;
    if (!format) throw new Error('SSND chunk before COMM chunk');
    const frameBytes = format.bytesPerSample * format.channels;
    const said = format.frames > 0 ? format.frames * frameBytes : Infinity;
    this.left = Math.min(this.afterSkip ?? Infinity, said);
    this.afterSkip = null;
    this.state = 'data';
    checkDuration(this.left / (frameBytes * format.sampleRate));
  }

  /** Converts the whole sample frames of `input`; returns the rest (empty once a split frame is kept). */
  private data(input: Uint8Array, out: PcmChunk[]): Uint8Array {
    const format = this.format;
    if (!format) throw new Error('SSND chunk before COMM chunk');
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

  private convert(bytes: Uint8Array, format: AiffFormat): PcmChunk {
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
  private sampleReader(bytes: Uint8Array, format: AiffFormat): (index: number) => number {
    const { bytesPerSample, encoding } = format;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    if (encoding === 'ulaw' || encoding === 'alaw') {
      const pcm = encoding === 'alaw' ? this.companding.alaw(bytes) : this.companding.mulaw(bytes);
      return (i) => (pcm[i] ?? 0) / 32768;
    }
    if (encoding === 'float-be') {
      return bytesPerSample === 4 ? (i) => view.getFloat32(i * 4, false) : (i) => view.getFloat64(i * 8, false);
    }
    const little = encoding === 'pcm-le';
    // AIFF's 8-bit samples are signed (WAV's are not).
    if (bytesPerSample === 1) return (i) => view.getInt8(i) / 128;
    if (bytesPerSample === 2) return (i) => view.getInt16(i * 2, little) / 32768;
    if (bytesPerSample === 3) {
      return (i) => {
        const at = i * 3;
        const [hi, mid, lo] = little ? [at + 2, at + 1, at] : [at, at + 1, at + 2];
        const value = (view.getUint8(hi) << 16) | (view.getUint8(mid) << 8) | view.getUint8(lo);
        return ((value << 8) >> 8) / 8388608;
      };
    }
    return (i) => view.getInt32(i * 4, little) / 2147483648;
  }
}

/**
 * The value of an 80-bit IEEE 754 extended-precision number (AIFF's sample rate), big-endian.
 */
function extended80(view: DataView, at: number): number {
  const signAndExponent = view.getUint16(at, false);
  const exponent = signAndExponent & 0x7fff;
  const high = view.getUint32(at + 2, false);
  const low = view.getUint32(at + 6, false);
  if (exponent === 0 && high === 0 && low === 0) return 0;
  const value = high * 2 ** (exponent - 16383 - 31) + low * 2 ** (exponent - 16383 - 63);
  return signAndExponent & 0x8000 ? -value : value;
}

/**
 * Reads a `COMM` chunk body: channels, sample frames, bits per sample, sample rate, and for
 * AIFF-C the compression type.
 * @throws Error for a compression or sample size it does not decode; ApiError (see checkLayout)
 *   for a layout over the decoding caps.
 */
function parseComm(body: Uint8Array, aifc: boolean): AiffFormat {
  const view = new DataView(body.buffer, body.byteOffset, body.length);
  const channels = view.getUint16(0, false);
  const frames = view.getUint32(2, false);
  const bitsPerSample = view.getUint16(6, false);
  const sampleRate = Math.round(extended80(view, 8));
  const compression = aifc && body.length >= 22 ? ascii(body, 18, 4) : 'NONE';
  const encoding = COMPRESSIONS[compression];
  if (!encoding) throw new Error(`AIFF-C compression "${compression}" is not decoded`);
  // G.711 is one byte a sample whatever the size field says (often 16: the expanded size).
  const bytesPerSample = encoding === 'ulaw' || encoding === 'alaw' ? 1 : Math.ceil(bitsPerSample / 8);
  const supported =
    encoding === 'float-be' ? bytesPerSample === 4 || bytesPerSample === 8 : bytesPerSample >= 1 && bytesPerSample <= 4;
  if (!supported) throw new Error(`AIFF with ${bitsPerSample}-bit ${compression} samples is not decoded`);
  if (channels < 1 || !(sampleRate >= 1)) throw new Error('AIFF with no channels or no sample rate');
  checkLayout(channels, sampleRate);
  return { encoding, channels, sampleRate, bytesPerSample, frames };
}
