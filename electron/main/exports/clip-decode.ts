/**
 * Decoding the part of a recording an evidence clip needs: the recording's bytes stream through
 * the peaks decoders (WAV, MP3, Ogg/Opus, Ogg/Vorbis, FLAC: peaks/codec-decoders.ts), and only
 * the samples inside the range are kept, so a clip of an hour-long call holds a few seconds of PCM,
 * not the hour. Reading stops once the range is decoded (the download is cancelled).
 */
import { ApiError } from '$shared/errors';
import { createDecoder } from '../peaks/codec-decoders';
import { detectFormat } from '../peaks/detect-format';
import { checkBytesRead, checkLayout, concat, type ChunkDecoder, type PcmChunk } from '../peaks/pcm';
import { MAX_CLIP_SECONDS, type DecodedAudio, type TimeSpan } from './clip-wav';

/** Decoded audio of a range, and where its first sample lies in the recording. */
export interface DecodedRange extends DecodedAudio {
  /** Seconds from the start of the recording of sample 0. */
  startSeconds: number;
}

/** Bytes read before the format must be known. */
const DETECT_MAX_BYTES = 512;
/** Bytes handed to a decoder at once (as the peaks decoder does). */
const SLICE_BYTES = 16 * 1024;

/**
 * Decodes `range` (seconds, clamped at 0) of the recording whose bytes `chunks` yields in order.
 * A range past the end returns what the recording has (possibly no samples).
 * @throws ApiError kind 'invalid_response' when the format is not one the app decodes, the
 *   decoder fails, or the layout or the range is over the caps (peaks/pcm.ts, {@link MAX_CLIP_SECONDS});
 *   errors of `chunks` itself (a failed download) pass through unchanged.
 */
export async function decodeRange(chunks: AsyncIterable<Uint8Array>, range: TimeSpan): Promise<DecodedRange> {
  const startSeconds = Math.max(0, range.startSeconds);
  if (!(range.endSeconds > startSeconds) || range.endSeconds - startSeconds > MAX_CLIP_SECONDS) {
    throw new ApiError({
      kind: 'bad_input',
      message: `Select a range of up to ${String(MAX_CLIP_SECONDS / 60)} minutes.`,
    });
  }
  const keeper = new RangeKeeper(startSeconds, range.endSeconds);
  let head: Uint8Array = new Uint8Array(0);
  let decoder: ChunkDecoder | null = null;
  let bytesRead = 0;
  try {
    for await (const chunk of chunks) {
      bytesRead += chunk.length;
      checkBytesRead(bytesRead);
      if (!decoder) {
        head = concat(head, chunk);
        const guess = detectFormat(head, false);
        if (guess.kind === 'need-more' && head.length < DETECT_MAX_BYTES) continue;
        if (guess.kind !== 'format') throw undecodable();
        decoder = await guarded(() => createDecoder(guess.format));
        await feedSlices(decoder, head, keeper);
      } else {
        await feedSlices(decoder, chunk, keeper);
      }
      if (keeper.done) break;
    }
    if (!decoder) {
      const guess = detectFormat(head, true);
      if (guess.kind !== 'format') throw undecodable();
      decoder = await guarded(() => createDecoder(guess.format));
      await feedSlices(decoder, head, keeper);
    }
    if (!keeper.done) {
      const last = decoder;
      keeper.add(await guarded(() => last.flush()));
    }
    return keeper.result(decoder.channelsIdentical === true);
  } finally {
    decoder?.free();
  }
}

async function feedSlices(decoder: ChunkDecoder, bytes: Uint8Array, keeper: RangeKeeper): Promise<void> {
  const size = decoder.sliceBytes ?? SLICE_BYTES;
  for (let at = 0; at < bytes.length && !keeper.done; at += size) {
    const slice = bytes.subarray(at, at + size);
    if (decoder.decodeInto) {
      const into = decoder.decodeInto.bind(decoder);
      await guarded(() => into(slice, (pcm) => keeper.add(pcm)));
    } else {
      keeper.add(await guarded(() => decoder.decode(slice)));
    }
  }
}

/** Keeps the samples of decoded chunks that fall inside the range (copies: decoders reuse their buffers). */
class RangeKeeper {
  private sampleRate = 0;
  /** Samples per channel decoded so far (kept or not). */
  private position = 0;
  private first = 0;
  private last = 0;
  private kept: Float32Array[][] = [];
  done = false;

  constructor(
    private readonly startSeconds: number,
    private readonly endSeconds: number,
  ) {}

  add(pcm: PcmChunk | null): void {
    if (!pcm || pcm.samplesDecoded <= 0 || this.done) return;
    if (this.sampleRate === 0) {
      checkLayout(pcm.channelData.length, pcm.sampleRate);
      this.sampleRate = pcm.sampleRate;
      this.first = Math.round(this.startSeconds * pcm.sampleRate);
      this.last = Math.round(this.endSeconds * pcm.sampleRate);
      this.kept = pcm.channelData.map(() => []);
    }
    const from = Math.max(this.first, this.position);
    const to = Math.min(this.last, this.position + pcm.samplesDecoded);
    if (to > from) {
      pcm.channelData.forEach((data, ch) => {
        this.kept[ch]?.push(data.slice(from - this.position, to - this.position));
      });
    }
    this.position += pcm.samplesDecoded;
    if (this.position >= this.last) this.done = true;
  }

  result(channelsIdentical: boolean): DecodedRange {
    const channels = this.kept.map((parts) => {
      const joined = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const part of parts) {
        joined.set(part, at);
        at += part.length;
      }
      return joined;
    });
    const channelData = channelsIdentical && channels.length === 2 ? channels.slice(0, 1) : channels;
    const rate = this.sampleRate === 0 ? 1 : this.sampleRate;
    return { channelData, sampleRate: rate, startSeconds: this.first / rate };
  }
}

async function guarded<T>(step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw undecodable();
  }
}

function undecodable(): ApiError {
  return new ApiError({
    kind: 'invalid_response',
    message: "The recording's audio format could not be decoded, so no audio clip was made; it may still play.",
  });
}
