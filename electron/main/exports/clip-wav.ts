/**
 * The evidence pack's audio clip: a range of a decoded recording as a WAV file (16-bit PCM, the
 * recording's own sample rate and channels), with the spans that hold masked PII silenced or
 * covered by a 1 kHz bleep. Spans are widened by a margin on each side (the transcript's times are
 * a turn's, not a word's: erring wide is the point), clamped to the clip, and merged.
 *
 * Input is planar Float32 PCM in [-1, 1] as the peaks decoders produce it (peaks/pcm.ts
 * `PcmChunk`); times are seconds from the start of the recording.
 */
import { MAX_PACK_RANGE_SECONDS } from '$shared/evidence-pack-request';

/** Decoded audio: one Float32Array per channel, equal lengths. */
export interface DecodedAudio {
  channelData: readonly Float32Array[];
  /** Samples per second. */
  sampleRate: number;
  /** Seconds from the start of the recording of sample 0 (default 0: the whole recording). */
  startSeconds?: number;
}

/** A stretch of time in seconds. */
export interface TimeSpan {
  startSeconds: number;
  endSeconds: number;
}

/** How masked spans sound. */
export type ClipMask = 'silence' | 'bleep';

/** Options of {@link makeClip}. */
export interface ClipOptions {
  /** The range of the recording to cut, in seconds (clamped to the recording). */
  range: TimeSpan;
  /** Spans to mask, in seconds of the recording (outside the range they are ignored). */
  maskSpans: readonly TimeSpan[];
  /** Seconds added before and after each span (default {@link DEFAULT_MASK_MARGIN_SECONDS}). */
  marginSeconds?: number;
  /** Silence (default) or a 1 kHz tone. */
  mask?: ClipMask;
}

/** A WAV clip and where its masks ended up. */
export interface Clip {
  /** A complete RIFF/WAVE file: PCM, 16 bits per sample, little-endian, interleaved. */
  wav: Uint8Array;
  sampleRate: number;
  channels: number;
  /** Samples per channel. */
  frames: number;
  durationSeconds: number;
  /** Where the clip starts in the recording, in seconds (the range's start after clamping). */
  startSeconds: number;
  /** The masked spans after widening, clamping and merging, in seconds from the clip's start. */
  maskedSpans: TimeSpan[];
}

/** Margin added to each side of a masked span by default, in seconds. */
export const DEFAULT_MASK_MARGIN_SECONDS = 0.25;
/** Frequency of the bleep, in Hz. */
export const BLEEP_HZ = 1000;
/** Amplitude of the bleep, 0–1 (about -12 dBFS: audible, not painful). */
export const BLEEP_AMPLITUDE = 0.25;
/** Longest clip, in seconds: the evidence pack's range limit (a ticket needs far less than a call). */
export const MAX_CLIP_SECONDS = MAX_PACK_RANGE_SECONDS;

/**
 * Cuts `options.range` out of `audio` and masks the spans (see the module comment).
 * @throws RangeError when the audio has no channels or no valid sample rate, or the range is
 *   empty after clamping, or longer than {@link MAX_CLIP_SECONDS}
 */
export function makeClip(audio: DecodedAudio, options: ClipOptions): Clip {
  const { sampleRate } = audio;
  const channels = audio.channelData.length;
  if (channels === 0 || !Number.isFinite(sampleRate) || sampleRate <= 0) {
    throw new RangeError('The recording has no audio to cut a clip from.');
  }
  const length = Math.min(...audio.channelData.map((c) => c.length));
  const offset = audio.startSeconds ?? 0;
  const first = clampFrame(Math.round((options.range.startSeconds - offset) * sampleRate), length);
  const last = clampFrame(Math.round((options.range.endSeconds - offset) * sampleRate), length);
  const frames = last - first;
  if (!(frames > 0)) throw new RangeError('The selected range holds no audio: select a range inside the recording.');
  if (frames / sampleRate > MAX_CLIP_SECONDS) {
    throw new RangeError(`A clip is at most ${String(MAX_CLIP_SECONDS / 60)} minutes: select a shorter range.`);
  }
  const startSeconds = offset + first / sampleRate;
  const durationSeconds = frames / sampleRate;
  const maskedSpans = widenSpans(
    options.maskSpans.map((s) => ({
      startSeconds: s.startSeconds - startSeconds,
      endSeconds: s.endSeconds - startSeconds,
    })),
    options.marginSeconds ?? DEFAULT_MASK_MARGIN_SECONDS,
    durationSeconds,
  );
  const cut = audio.channelData.map((c) => c.slice(first, last));
  for (const span of maskedSpans) {
    const from = clampFrame(Math.floor(span.startSeconds * sampleRate), frames);
    const to = clampFrame(Math.ceil(span.endSeconds * sampleRate), frames);
    for (const channel of cut) maskFrames(channel, from, to, options.mask ?? 'silence', sampleRate);
  }
  return {
    wav: encodeWav16(cut, sampleRate),
    sampleRate,
    channels,
    frames,
    durationSeconds,
    startSeconds,
    maskedSpans,
  };
}

/**
 * `spans` each widened by `marginSeconds` on both sides, clamped to `[0, durationSeconds]`,
 * sorted and merged where they touch or overlap; spans empty after clamping are dropped.
 */
export function widenSpans(spans: readonly TimeSpan[], marginSeconds: number, durationSeconds: number): TimeSpan[] {
  const margin = Math.max(0, Number.isFinite(marginSeconds) ? marginSeconds : 0);
  const widened = spans
    .filter((s) => Number.isFinite(s.startSeconds) && Number.isFinite(s.endSeconds))
    .map((s) => ({
      startSeconds: Math.max(0, Math.min(s.startSeconds, s.endSeconds) - margin),
      endSeconds: Math.min(durationSeconds, Math.max(s.startSeconds, s.endSeconds) + margin),
    }))
    .filter((s) => s.endSeconds > s.startSeconds)
    .sort((a, b) => a.startSeconds - b.startSeconds);
  const merged: TimeSpan[] = [];
  for (const span of widened) {
    const previous = merged.at(-1);
    if (previous && span.startSeconds <= previous.endSeconds) {
      previous.endSeconds = Math.max(previous.endSeconds, span.endSeconds);
    } else {
      merged.push({ ...span });
    }
  }
  return merged;
}

function clampFrame(frame: number, length: number): number {
  return Math.min(length, Math.max(0, Number.isFinite(frame) ? frame : 0));
}

function maskFrames(channel: Float32Array, from: number, to: number, mask: ClipMask, sampleRate: number): void {
  if (mask === 'silence') {
    channel.fill(0, from, to);
    return;
  }
  const step = (2 * Math.PI * BLEEP_HZ) / sampleRate;
  for (let i = from; i < to; i += 1) channel[i] = BLEEP_AMPLITUDE * Math.sin(step * (i - from));
}

/**
 * A RIFF/WAVE file of `channels` (planar Float32 in [-1, 1], equal lengths) as 16-bit PCM:
 * samples are clamped to [-1, 1] and rounded.
 */
export function encodeWav16(channels: readonly Float32Array[], sampleRate: number): Uint8Array {
  const count = channels.length;
  const frames = count === 0 ? 0 : Math.min(...channels.map((c) => c.length));
  const dataBytes = frames * count * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i += 1) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, count, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * count * 2, true);
  view.setUint16(32, count * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  let at = 44;
  for (let frame = 0; frame < frames; frame += 1) {
    for (const channel of channels) {
      const x = Math.max(-1, Math.min(1, channel[frame] ?? 0));
      view.setInt16(at, Math.round(x < 0 ? x * 32768 : x * 32767), true);
      at += 2;
    }
  }
  return bytes;
}
