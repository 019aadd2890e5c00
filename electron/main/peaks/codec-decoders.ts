/**
 * The decoders of compressed formats, from the wasm-audio-decoders family: MP3 with
 * `mpg123-decoder` (mp3-decoder.ts); Ogg/Opus with `ogg-opus-decoder`;
 * Ogg/Vorbis with `@wasm-audio-decoders/ogg-vorbis`; FLAC and Ogg/FLAC with
 * `@wasm-audio-decoders/flac`. WAV is read by wav-decoder.ts, AIFF and AIFF-C by aiff-decoder.ts.
 *
 * The decoder packages are ESM-only; main is built as CommonJS, so they are loaded with a
 * dynamic `import()` (supported from CommonJS by Node 20 and Electron).
 */
import type { AudioFormat } from './detect-format';
import { pcmOf, type ChunkDecoder, type WasmDecoded } from './pcm';
import { createAiffDecoder } from './aiff-decoder';
import { createMp3Decoder } from './mp3-decoder';
import { createWavDecoder } from './wav-decoder';

/** Rate Opus is decoded at for peaks: 10 ms buckets need no more, and it is about twice as fast as 48 kHz. */
const OPUS_PEAKS_RATE = 16_000;
/** Rate reported for Opus: the rate Opus always decodes at for playback (RFC 7845, 48 kHz). */
const OPUS_PLAYBACK_RATE = 48_000;

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

/** A decoder for `format`, ready to decode. */
export async function createDecoder(format: AudioFormat): Promise<ChunkDecoder> {
  switch (format) {
    case 'wav':
      return createWavDecoder();
    case 'aiff':
      return createAiffDecoder();
    case 'mp3':
      return createMp3Decoder();
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
