/**
 * The encoder delay and padding an MP3 declares in its Xing/Info frame's LAME tag, as
 * Chromium's player (FFmpeg) and main's decoder (mpg123) use them: the decoded audio starts
 * `delay + 529` samples late (the encoder's delay and the decoder's own), and only
 * `frames × samplesPerFrame − delay − padding` samples are the recording. Without the tag there
 * is nothing to drop, and players play the delay as part of the recording.
 *
 * Read by the page's decoder (to draw what main's decoder draws) and by main's MP3 remux (to
 * declare the delay in an MP4 edit list, which Chromium honours where it ignores the LAME tag).
 */

/** Samples of delay every MP3 (layer III) decoder adds, on top of the encoder's. */
export const MP3_DECODER_DELAY = 529;

/** What an MP3's LAME tag says of its decoded samples. */
export interface Mp3Gapless {
  /** Samples to drop at the start of the decoded audio (encoder delay + decoder delay). */
  skipSamples: number;
  /** Samples of the recording once those are dropped (null when the Xing frame gives no frame count). */
  validSamples: number | null;
}

const BITRATE_FREE_OR_BAD = new Set([0, 15]);

/** Size of an ID3v2 tag at the start of `bytes` (header included), 0 when there is none. */
function id3Size(bytes: Uint8Array): number {
  if (bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
  const footer = ((bytes[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/** Big-endian 32-bit value at `at`. */
function u32(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] ?? 0) << 24) | ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0)) >>> 0
  );
}

/**
 * How many leading bytes {@link readMp3Gapless} needs: the ID3v2 tag (which can hold pictures)
 * and 2 KiB after it. Known once the first 10 bytes are there.
 */
export function mp3GaplessHeadBytes(first10: Uint8Array): number {
  return id3Size(first10) + 2048;
}

/**
 * The LAME tag's delay and padding from the first bytes of an MP3 (see
 * {@link mp3GaplessHeadBytes}), or null when the first frame carries no Xing/Info header with a
 * LAME tag (then nothing is to be dropped).
 */
export function readMp3Gapless(head: Uint8Array): Mp3Gapless | null {
  const at = id3Size(head);
  const b1 = head[at + 1] ?? 0;
  const b2 = head[at + 2] ?? 0;
  const b3 = head[at + 3] ?? 0;
  if (head[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
  const layer = (b1 >> 1) & 3; // 1 = layer III
  if (version === 1 || layer !== 1 || BITRATE_FREE_OR_BAD.has(b2 >> 4)) return null;
  const mono = b3 >> 6 === 3;
  const mpeg1 = version === 3;
  const sideInfo = mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  const xing = at + 4 + sideInfo;
  const tag = String.fromCharCode(...head.subarray(xing, xing + 4));
  if (tag !== 'Xing' && tag !== 'Info') return null;
  const flags = u32(head, xing + 4);
  let cursor = xing + 8;
  let frames: number | null = null;
  if (flags & 1) {
    frames = u32(head, cursor);
    cursor += 4;
  }
  if (flags & 2) cursor += 4;
  if (flags & 4) cursor += 100;
  if (flags & 8) cursor += 4;
  // The LAME tag: a 9-byte encoder name, then 12 bytes of settings, then delay and padding (12 bits each).
  const delayAt = cursor + 21;
  if (head.length < delayAt + 3) return null;
  const d0 = head[delayAt] ?? 0;
  const d1 = head[delayAt + 1] ?? 0;
  const d2 = head[delayAt + 2] ?? 0;
  const delay = (d0 << 4) | (d1 >> 4);
  const padding = ((d1 & 0x0f) << 8) | d2;
  if (delay === 0 && padding === 0) return null;
  const samplesPerFrame = mpeg1 ? 1152 : 576;
  return {
    skipSamples: delay + MP3_DECODER_DELAY,
    validSamples: frames === null ? null : Math.max(0, frames * samplesPerFrame - delay - padding),
  };
}
