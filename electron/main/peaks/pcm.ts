/**
 * Decoded PCM as the peaks decoder passes it around, and what every format's decoder looks like.
 */

/** Decoded PCM of one chunk: planar Float32 in [-1, 1], one array per channel. */
export interface PcmChunk {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
}

/** What every format's decoder looks like to decodeToPeaks (decode.ts). */
export interface ChunkDecoder {
  decode(bytes: Uint8Array): Promise<PcmChunk | null> | PcmChunk | null;
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
