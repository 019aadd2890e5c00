/**
 * Tells a recording's audio format from its first bytes (never from its URL or Content-Type).
 */

/** A container/codec the peaks decoder reads. */
export type AudioFormat = 'wav' | 'aiff' | 'mp3' | 'ogg-opus' | 'ogg-vorbis' | 'ogg-flac' | 'flac';

/** Result of {@link detectFormat}. */
type FormatGuess =
  | { kind: 'format'; format: AudioFormat }
  /** Recognised but not decoded here (e.g. "WebM"), or `name` null when not recognised at all. */
  | { kind: 'unsupported'; name: string | null }
  /** The bytes so far are a prefix of a known signature: read more. */
  | { kind: 'need-more' };

/** `length` bytes of `bytes` from `at`, as ASCII (chunk ids and signatures). */
export function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** True when `b` starts with a plausible MPEG audio frame header (layer I-III, valid rate fields). */
function isMpegFrameHeader(b: Uint8Array): boolean {
  const [b0 = 0, b1 = 0, b2 = 0] = b;
  if (b.length < 4 || b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3;
  const bitrate = b2 >> 4;
  const rate = (b2 >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3;
}

/** The codec named by the first packet of an Ogg stream, once enough bytes are there. */
function detectOgg(head: Uint8Array, more: (needed: number) => boolean): FormatGuess {
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
  if (magic === 'OggS') return detectOgg(head, more);
  if (magic.startsWith('ID3') || isMpegFrameHeader(head)) return { kind: 'format', format: 'mp3' };
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
    return { kind: 'unsupported', name: 'WebM/Matroska' };
  if (head[0] === 0xff && ((head[1] ?? 0) & 0xf6) === 0xf0) return { kind: 'unsupported', name: 'AAC (ADTS)' };
  if (magic === 'FORM') {
    if (more(12)) return { kind: 'need-more' };
    const form = ascii(head, 8, 4);
    return form === 'AIFF' || form === 'AIFC'
      ? { kind: 'format', format: 'aiff' }
      : { kind: 'unsupported', name: `IFF ${form}` };
  }
  if (more(8)) return { kind: 'need-more' };
  if (ascii(head, 4, 4) === 'ftyp') return { kind: 'unsupported', name: 'MP4/M4A' };
  return { kind: 'unsupported', name: null };
}
