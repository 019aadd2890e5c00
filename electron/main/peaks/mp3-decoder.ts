/**
 * MP3 (MPEG layer I/II/III, with or without an ID3v2 tag) for peaks, with `mpg123-decoder`.
 *
 * The package's `decode` copies every stretch it reads out of the WebAssembly memory, both
 * channels (mpg123 always outputs two), then copies them all again into one array per call: for a
 * 40-minute call that is about 300 MB of copies and garbage, a quarter of the decoding time. Peaks
 * need each sample once, so the decoder here runs the package's own read loop (the same two
 * exported WebAssembly functions, with the same buffers, in the same order) and hands the reducer
 * views of the output buffer, valid until the next read. Where the decoder's internals are not as
 * expected (another version of the package), it falls back to the package's `decode`.
 */
import { pcmOf, type ChunkDecoder, type PcmChunk, type WasmDecoded } from './pcm';

/** mpg123's return codes the read loop acts on (mpg123.h). */
const MPG123_NEW_FORMAT = -11;
const MPG123_NEED_MORE = -10;
/** Reads in a row that fail without output before the loop moves on to the next bytes. */
const MAX_FAILED_READS = 32;

/** A buffer the package allocated in the WebAssembly memory: its address, length and a view of it. */
interface WasmBuffer<T> {
  ptr: number;
  len: number;
  buf: T;
}

/** The parts of mpg123-decoder's MPEGDecoder (1.0.x) its own `decode` works with. */
interface MpegInternals {
  _common: {
    wasm: {
      mpeg_decoder_feed(decoder: number, input: number, length: number): number;
      mpeg_decoder_read(
        decoder: number,
        output: number,
        outputLength: number,
        samplesDecoded: number,
        sampleRate: number,
        errorString: number,
      ): number;
    };
  };
  _decoder: number;
  _input: WasmBuffer<Uint8Array>;
  _output: WasmBuffer<Float32Array>;
  _samplesDecodedPtr: WasmBuffer<Uint32Array>;
  _sampleRatePtr: WasmBuffer<Uint32Array>;
  _errorStringPtr: WasmBuffer<Uint32Array>;
}

/** The public surface of MPEGDecoder used by the fallback. */
interface MpegPublic {
  ready: Promise<void>;
  decode(data: Uint8Array): WasmDecoded;
  free(): void;
}

function isBuffer(value: unknown, type: new (length: number) => ArrayBufferView): boolean {
  const b = value as Partial<WasmBuffer<unknown>> | undefined;
  return typeof b?.ptr === 'number' && typeof b.len === 'number' && b.buf instanceof type;
}

/** `decoder` seen through {@link MpegInternals}, or null when any part is missing or of another type. */
function internalsOf(decoder: object): MpegInternals | null {
  const d = decoder as Partial<MpegInternals>;
  const wasm = d._common?.wasm;
  const ok =
    typeof wasm?.mpeg_decoder_feed === 'function' &&
    typeof wasm.mpeg_decoder_read === 'function' &&
    typeof d._decoder === 'number' &&
    isBuffer(d._input, Uint8Array) &&
    isBuffer(d._output, Float32Array) &&
    isBuffer(d._samplesDecodedPtr, Uint32Array) &&
    isBuffer(d._sampleRatePtr, Uint32Array) &&
    isBuffer(d._errorStringPtr, Uint32Array);
  return ok ? (d as MpegInternals) : null;
}

/** True when the two channels of `pcm` differ anywhere. */
function channelsDiffer(pcm: PcmChunk): boolean {
  const [left, right] = pcm.channelData;
  if (!left || !right) return false;
  for (let i = 0; i < pcm.samplesDecoded; i++) {
    if (left[i] !== right[i]) return true;
  }
  return false;
}

/**
 * Feeds `bytes` to the decoder and hands every stretch it decodes to `sink`, as planar views of
 * the decoder's output buffer (left, right), valid only during the call.
 */
function decodeWithoutCopies(m: MpegInternals, bytes: Uint8Array, sink: (pcm: PcmChunk) => void): void {
  const { wasm } = m._common;
  for (let at = 0; at < bytes.length; at += m._input.len) {
    const piece = bytes.subarray(at, at + m._input.len);
    m._input.buf.set(piece);
    if (wasm.mpeg_decoder_feed(m._decoder, m._input.ptr, piece.length) === MPG123_NEED_MORE) continue;
    for (let failed = 0; failed < MAX_FAILED_READS;) {
      m._samplesDecodedPtr.buf[0] = 0;
      const code = wasm.mpeg_decoder_read(
        m._decoder,
        m._output.ptr,
        m._output.len,
        m._samplesDecodedPtr.ptr,
        m._sampleRatePtr.ptr,
        m._errorStringPtr.ptr,
      );
      const samples = m._samplesDecodedPtr.buf.at(0) ?? 0;
      if (samples > 0) {
        failed = 0;
        const out = m._output.buf;
        const channelData = [out.subarray(0, samples), out.subarray(samples, samples * 2)];
        sink({ channelData, samplesDecoded: samples, sampleRate: m._sampleRatePtr.buf.at(0) ?? 0 });
      }
      if (code === MPG123_NEED_MORE) break;
      // A damaged frame: mpg123 resynchronises on the next read, as the package's loop expects;
      // reads that keep yielding nothing give up on these bytes rather than spin.
      if (samples === 0 && code !== MPG123_NEW_FORMAT) failed++;
    }
  }
}

/**
 * An MP3 decoder for decodeToPeaks. mpg123 always outputs two channels; the decoder remembers
 * whether they ever differed (if not, the file is mono: `channelsIdentical`).
 * @param withoutCopies read the decoder's output buffer in place (default) where its internals
 *   allow; false always uses the package's `decode`
 */
export async function createMp3Decoder(withoutCopies = true): Promise<ChunkDecoder> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder() as unknown as MpegPublic;
  await decoder.ready;
  const internals = withoutCopies ? internalsOf(decoder) : null;
  let identical = true;
  /**
   * Notes whether the channels ever differed; a stretch whose two channels are equal is handed on
   * with the left one in both places, so the reducer scans it once.
   */
  const note = (pcm: PcmChunk): PcmChunk => {
    if (identical && channelsDiffer(pcm)) identical = false;
    const [left] = pcm.channelData;
    return identical && left && pcm.channelData.length === 2 ? { ...pcm, channelData: [left, left] } : pcm;
  };
  return {
    get channelsIdentical() {
      return identical;
    },
    decode(bytes) {
      const pcm = pcmOf(decoder.decode(bytes));
      return pcm && note(pcm);
    },
    ...(internals
      ? {
          decodeInto(bytes: Uint8Array, sink: (pcm: PcmChunk) => void) {
            decodeWithoutCopies(internals, bytes, (pcm) => sink(note(pcm)));
          },
        }
      : {}),
    flush: () => null,
    free: () => {
      decoder.free();
    },
  };
}
