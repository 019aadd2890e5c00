/**
 * Readies a fresh peaks worker for its first recording. A thread that has never decoded pays
 * three times on its first call: importing and compiling the WebAssembly decoders, and running
 * the per-sample loops (PCM conversion, peak reduction) in V8's interpreter before they are
 * optimised; together several times the cost of the decode itself. Warming up does that work
 * before the first call is shown, while nobody waits.
 */
import { createDecoder } from './codec-decoders';
import { decodeToPeaks } from './decode';

/** Length of the synthetic recording decoded to warm up, in seconds (at 16 kHz, stereo, 16-bit: 1.3 MB). */
const WARM_UP_SECONDS = 20;
const WARM_UP_RATE = 16_000;
/** Times the synthetic recording is decoded: enough for V8 to optimise the per-sample loops. */
const WARM_UP_ROUNDS = 3;
/** Size of the chunks the synthetic recording is fed in, in bytes (like a download's). */
const CHUNK_BYTES = 64 * 1024;

/**
 * Loads the MP3 and Ogg/Opus decoders (the formats calls most often come in) and decodes a
 * synthetic stereo WAV a few times, then returns. Never throws: a decoder that cannot load here
 * fails again, with words, when a recording needs it.
 */
export async function warmUpPeaksDecoding(): Promise<void> {
  for (const format of ['mp3', 'ogg-opus'] as const) {
    try {
      (await createDecoder(format)).free();
    } catch {
      // See the function's comment.
    }
  }
  const recordings = [syntheticWav(WARM_UP_SECONDS, WARM_UP_RATE), silentMp3(WARM_UP_SECONDS)];
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const bytes of recordings) await decodeToPeaks(chunksOf(bytes)).catch(() => undefined);
  }
}

/** `bytes` in chunks of {@link CHUNK_BYTES}, as a download would deliver them. */
function chunksOf(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  let at = 0;
  const next = (): Promise<IteratorResult<Uint8Array>> => {
    if (at >= bytes.length) return Promise.resolve({ done: true, value: undefined });
    const value = bytes.subarray(at, at + CHUNK_BYTES);
    at += CHUNK_BYTES;
    return Promise.resolve({ done: false, value });
  };
  return { [Symbol.asyncIterator]: () => ({ next }) };
}

/** MPEG-1 Layer III frame header: no CRC, 128 kbit/s, 44.1 kHz, no padding, stereo. */
const MP3_FRAME_HEADER = [0xff, 0xfb, 0x90, 0x00];
/** Bytes of one such frame (144 x 128,000 / 44,100), 1,152 samples per channel. */
const MP3_FRAME_BYTES = 417;

/**
 * An MP3 of digital silence about `seconds` long: frames whose side information and main data are
 * all zero, which every decoder reads as silence.
 */
function silentMp3(seconds: number): Uint8Array {
  const frames = Math.ceil((seconds * 44_100) / 1152);
  const bytes = new Uint8Array(frames * MP3_FRAME_BYTES);
  for (let i = 0; i < frames; i++) bytes.set(MP3_FRAME_HEADER, i * MP3_FRAME_BYTES);
  return bytes;
}

/** A 16-bit stereo PCM WAV of a tone whose loudness swings, `seconds` long at `rate` Hz. */
function syntheticWav(seconds: number, rate: number): Uint8Array {
  const frames = seconds * rate;
  const bytes = new Uint8Array(44 + frames * 4);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + frames * 4, true);
  ascii(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 2, true); // channels
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 4, true); // bytes per second
  view.setUint16(32, 4, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, frames * 4, true);
  for (let i = 0; i < frames; i++) {
    const level = 8000 * (1 + Math.sin(i / rate));
    const sample = Math.round(level * Math.sin((2 * Math.PI * 440 * i) / rate));
    view.setInt16(44 + i * 4, sample, true);
    view.setInt16(46 + i * 4, -sample, true);
  }
  return bytes;
}
