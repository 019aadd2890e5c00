/**
 * An MP3 recording's frames rewrapped, unchanged, in an MP4 (ISO BMFF) container, so Chromium
 * seeks in it by an exact sample table instead of by estimate.
 *
 * Why: Chromium seeks in an MP3 by its Xing header's 100-entry table of contents (VBR: lands
 * seconds off in a long call) or by the first frame's bit rate (VBR without a Xing header: the
 * duration itself is wrong, and the last minutes cannot be reached), and it plays the encoder's
 * delay a LAME tag declares (up to 138 ms at 8 kHz) where main's waveform drops it. In MP4 every
 * frame has its time and byte offset in the sample table, and the delay is an edit list, which
 * Chromium honours: after any seek the sound is the sound at the clock's time, as main's
 * waveform draws it.
 *
 * The frames are copied, not re-encoded: the MP4 is about the MP3's size, and is written in one
 * pass over the file (mediabunny demuxes, times each frame by its sample count, and muxes).
 */
import { readFile, rename, rm } from 'node:fs/promises';
import {
  BufferSource,
  EncodedPacketSink,
  EncodedAudioPacketSource,
  EncodedPacket,
  FilePathTarget,
  Input,
  MP3,
  Mp4OutputFormat,
  Output,
} from 'mediabunny';
import { readMp3Gapless } from '$shared/mp3-gapless';

/** What {@link remuxMp3ToMp4} wrote. */
export interface Mp3Remux {
  /** Frames copied. */
  frames: number;
  /** Length of the recording in the MP4 (after the declared delay and padding are cut), seconds. */
  durationSeconds: number;
  /** Samples the edit list skips at the start (the LAME tag's delay + the decoder's 529), 0 without a tag. */
  skippedSamples: number;
}

/**
 * Rewraps the MP3 at `mp3Path` in an MP4 at `mp4Path`, as {@link remuxMp3ToMp4} does: in this
 * thread, or in a worker thread (mp3-remux-worker-client.ts) that `signal` stops. Rejects as
 * remuxMp3ToMp4 does, and when `signal` was aborted (`mp4Path` then absent).
 */
export type Mp3Remuxer = (mp3Path: string, mp4Path: string, signal?: AbortSignal) => Promise<Mp3Remux>;

/**
 * Writes the frames of the MP3 at `mp3Path` into an MP4 at `mp4Path` (moov first, so it plays
 * while it is read), with the LAME tag's delay and padding, if any, as an edit list. The MP4 is
 * written under a temporary name and renamed, so `mp4Path` is whole or absent.
 * @throws Error when `mp3Path` is not an MP3 with at least one frame, or a file cannot be read or written
 */
export async function remuxMp3ToMp4(mp3Path: string, mp4Path: string): Promise<Mp3Remux> {
  const partial = `${mp4Path}.part`;
  try {
    const remux = await writeMp4(mp3Path, partial);
    await rename(partial, mp4Path);
    return remux;
  } finally {
    await rm(partial, { force: true });
  }
}

async function writeMp4(mp3Path: string, mp4Path: string): Promise<Mp3Remux> {
  const bytes = await readFile(mp3Path);
  const input = new Input({ source: new BufferSource(bytes), formats: [MP3] });
  try {
    const track = await input.getPrimaryAudioTrack();
    if (!track || (await track.getCodec()) !== 'mp3') throw new Error('remuxMp3ToMp4: not an MP3 recording');
    const sampleRate = await track.getSampleRate();
    const gapless = readMp3Gapless(bytes.subarray(0, 64 * 1024));
    const skip = (gapless?.skipSamples ?? 0) / sampleRate;
    const end = gapless?.validSamples != null ? gapless.validSamples / sampleRate : Infinity;

    const output = new Output({
      format: new Mp4OutputFormat({ fastStart: 'in-memory' }),
      target: new FilePathTarget(mp4Path),
    });
    const source = new EncodedAudioPacketSource('mp3');
    output.addAudioTrack(source);
    await output.start();
    const decoderConfig = await track.getDecoderConfig();
    let frames = 0;
    let lastEnd = 0;
    for await (const packet of new EncodedPacketSink(track).packets()) {
      // Shifted by the declared delay (the edit list then starts the presentation at the
      // recording's first sample), the last frame cut where the padding starts.
      const timestamp = packet.timestamp - skip;
      const duration = Math.max(0, Math.min(packet.duration, end - timestamp));
      const moved = new EncodedPacket(packet.data, packet.type, timestamp, duration);
      await source.add(moved, frames === 0 && decoderConfig ? { decoderConfig } : undefined);
      frames++;
      lastEnd = timestamp + duration;
    }
    if (frames === 0) {
      await output.cancel();
      throw new Error('remuxMp3ToMp4: the MP3 holds no frames');
    }
    await output.finalize();
    return { frames, durationSeconds: lastEnd, skippedSamples: gapless?.skipSamples ?? 0 };
  } finally {
    input.dispose();
  }
}
