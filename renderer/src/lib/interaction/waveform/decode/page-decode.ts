/**
 * Decodes a recording to waveform peaks with Chromium's own decoders: mediabunny demuxes the
 * container (WebM/Matroska, MP4/M4A, Ogg, MP3, WAV, FLAC, ADTS AAC) as the bytes stream in and
 * drives WebCodecs' `AudioDecoder` (its own code for PCM, µ-law and A-law WAV); each decoded
 * stretch is placed on the timeline (sample-timeline.ts) and reduced at once by the app's one
 * reducer ($shared/peaks-reducer), so the result is the very peaks format main's worker produces,
 * and neither the file nor its PCM is held whole.
 *
 * Made to run in a Web Worker (peaks-worker.ts); nothing here touches the DOM.
 */
import {
  ADTS,
  AudioSampleSink,
  FLAC,
  Input,
  MATROSKA,
  MP3,
  MP4,
  OGG,
  QTFF,
  ReadableStreamSource,
  WAVE,
  WEBM,
  type AudioSample,
  type InputAudioTrack,
} from 'mediabunny';
import { ApiError } from '$shared/errors';
import { MAX_CHANNELS, MAX_DURATION_SECONDS, MAX_SAMPLE_RATE, UNDECODABLE_MESSAGE } from '$shared/peaks-decoding';
import { PeakAccumulator, type ComputedPeaks } from '$shared/peaks-reducer';
import { mp3GaplessHeadBytes, readMp3Gapless, type Mp3Gapless } from '$shared/mp3-gapless';
import { SampleTimeline, TooLongError, type DecodedStretch } from './sample-timeline';
import { watchStream } from './stream-watch';

/** The containers read here (video-only and streaming formats left out). */
const AUDIO_FORMATS = [WAVE, MP3, OGG, FLAC, WEBM, MATROSKA, MP4, QTFF, ADTS];

/** Default least time between two progress snapshots, in ms (as main's worker). */
const PROGRESS_EVERY_MS = 250;

/** Options of {@link decodeStreamToPeaks}. */
export interface PageDecodeOptions {
  /**
   * Called with the peaks of the audio decoded so far (`durationSeconds` = the seconds covered),
   * at most once per {@link progressEveryMs}, the first time as soon as audio is decoded.
   */
  onProgress?: (peaks: ComputedPeaks) => void;
  /** Least wall time between two {@link onProgress} calls, in ms (default 250). */
  progressEveryMs?: number;
}

/**
 * Reads `stream` (the recording's bytes, in order) to the end and returns its peaks and its exact
 * duration from the decoded audio (also for files whose container states none, such as WebM
 * from a browser's recorder). Decoded audio is placed on the timeline as a player plays it
 * (sample-timeline.ts): by its timestamps, priming and an MP3's declared delay dropped, the end
 * cut where the container says the recording ends.
 * @throws ApiError kind 'invalid_response' with the words main's decoder uses when the container
 *   is not recognised, has no audio track, its codec cannot be decoded here or yields no audio,
 *   or past the caps ($shared/peaks-decoding: 8 channels, 384 kHz, 6 hours). An error of the
 *   stream itself (a failed download) passes through unchanged.
 */
export async function decodeStreamToPeaks(
  stream: ReadableStream<Uint8Array>,
  options: PageDecodeOptions = {},
): Promise<ComputedPeaks> {
  const watched = watchStream(stream, { headBytes: mp3GaplessHeadBytes });
  const input = new Input({ source: new ReadableStreamSource(watched.stream), formats: AUDIO_FORMATS });
  let timeline: SampleTimeline | null = null;
  try {
    const track = await audioTrackOf(input);
    const codec = await track.getCodec();
    const gapless = codec === 'mp3' ? readMp3Gapless(watched.head()) : null;
    timeline = new SampleTimeline(gapless?.skipSamples ?? 0, (channels, rate) => {
      checkLayout(channels, rate);
      return new PeakAccumulator(channels, rate);
    });
    const report = progressReporter(timeline, options);
    for await (const sample of new AudioSampleSink(track).samples()) {
      timeline.add(stretchOf(sample));
      report();
    }
    const end = await endOf(track, gapless, timeline);
    const peaks = timeline.finish(end.endSeconds, end.padToSeconds);
    if (!peaks) throw new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE });
    return peaks;
  } catch (err) {
    if (watched.failure) throw watched.failure.error;
    if (err instanceof ApiError) throw err;
    if (err instanceof TooLongError) throw capError(`it is longer than ${MAX_DURATION_SECONDS / 3600} hours`);
    throw new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE });
  } finally {
    timeline?.dispose();
    input.dispose();
  }
}

/** A mediabunny AudioSample as the timeline takes it. */
function stretchOf(sample: AudioSample): DecodedStretch {
  return {
    timestamp: sample.timestamp,
    numberOfFrames: sample.numberOfFrames,
    numberOfChannels: sample.numberOfChannels,
    sampleRate: sample.sampleRate,
    copyPlane: (channel, into) => sample.copyTo(into, { planeIndex: channel, format: 'f32-planar' }),
    close: () => sample.close(),
  };
}

/**
 * Where the recording ends: an MP3's LAME tag says how many samples it holds; other containers
 * give each packet's duration, the last one cut short (Ogg's last granule, MP4's edit list,
 * WebM's last block). FLAC is padded to its STREAMINFO length: mediabunny drops a last frame of
 * under 16 bytes, which can only be a constant (silent) block.
 */
async function endOf(
  track: InputAudioTrack,
  gapless: Mp3Gapless | null,
  timeline: SampleTimeline,
): Promise<{ endSeconds: number | null; padToSeconds: number | null }> {
  const rate = timeline.reducer?.sampleRate ?? 0;
  if (gapless?.validSamples != null && rate > 0) return { endSeconds: gapless.validSamples / rate, padToSeconds: null };
  const endSeconds = await track.computeDuration().catch(() => null);
  const padToSeconds =
    (await track.getCodec()) === 'flac' ? await track.getDurationFromMetadata().catch(() => null) : null;
  return { endSeconds, padToSeconds };
}

/** Calls `options.onProgress` with a snapshot at most once per `progressEveryMs`, the first time at once. */
function progressReporter(timeline: SampleTimeline, options: PageDecodeOptions): () => void {
  const { onProgress } = options;
  const every = options.progressEveryMs ?? PROGRESS_EVERY_MS;
  let last = -Infinity;
  return () => {
    const reducer = timeline.reducer;
    if (!onProgress || !reducer || reducer.samples === 0) return;
    const now = Date.now();
    if (now - last < every) return;
    last = now;
    onProgress(reducer.snapshot());
  };
}

/** The recording's audio track, checked against the caps and the decoders at hand. */
async function audioTrackOf(input: Input): Promise<InputAudioTrack> {
  const track = await input.getPrimaryAudioTrack();
  if (!track) throw new ApiError({ kind: 'invalid_response', message: UNDECODABLE_MESSAGE });
  checkLayout(await track.getNumberOfChannels(), await track.getSampleRate());
  if (!(await track.canDecode())) {
    const codec = await track.getCodec();
    throw new ApiError({
      kind: 'invalid_response',
      message: codec
        ? `The recording's audio format (${codec}) could not be decoded for the waveform; it may still play.`
        : UNDECODABLE_MESSAGE,
    });
  }
  return track;
}

/** Refuses a layout past the caps, in the words main's decoder uses. */
function checkLayout(channels: number, sampleRate: number): void {
  if (channels > MAX_CHANNELS)
    throw capError(`it announces ${channels} audio channels (at most ${MAX_CHANNELS} are drawn)`);
  if (sampleRate > MAX_SAMPLE_RATE)
    throw capError(`it announces ${sampleRate} samples per second (at most ${MAX_SAMPLE_RATE} are drawn)`);
}

function capError(why: string): ApiError {
  return new ApiError({
    kind: 'invalid_response',
    message: `The waveform is not drawn for this recording because ${why}; it may still play.`,
  });
}
