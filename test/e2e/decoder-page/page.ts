/**
 * The test page of the page-side decoder (built by Vite as the app's renderer is, served with the
 * app's CSP by decoder-page-rig.ts): `window.decoderPage` decodes a recording in the page's peaks
 * worker, and plays one while measuring where seeks land.
 */
import { createPageDecoder } from '../../../renderer/src/lib/interaction/waveform/decode/page-decoder';
import { PeakAccumulator, type ComputedPeaks } from '../../../electron/shared/peaks-reducer';

/** A decode's result and how it went. Times in ms from the call, by `performance.now()`. */
export interface PageDecodeResult {
  peaks: ComputedPeaks | null;
  /** The error's kind and message when it failed. */
  error: { kind: string; message: string } | null;
  progressCount: number;
  /** Seconds covered by each progress report, in order. */
  progressCoveredSeconds: number[];
  firstProgressMs: number | null;
  doneMs: number;
}

/** Where one seek landed. Seconds. */
export interface SeekLanding {
  /** The tone's start in the recording's own timeline. */
  toneSeconds: number;
  /** Where the seek was asked to go (a little before the tone). */
  seekSeconds: number;
  /** The media element's clock when the tone's first sample was heard, or null when it was not heard. */
  heardAtSeconds: number | null;
}

/** What the media element says of a recording once its metadata is loaded. */
export interface MediaFacts {
  durationSeconds: number;
}

const decoder = createPageDecoder();

async function decode(url: string): Promise<PageDecodeResult> {
  const started = performance.now();
  const progressCoveredSeconds: number[] = [];
  let firstProgressMs: number | null = null;
  try {
    const response = await fetch(url);
    if (!response.ok || !response.body) throw new Error(`fetch ${url}: ${response.status}`);
    const peaks = await decoder.decode(response.body, {
      onProgress: (partial) => {
        firstProgressMs ??= performance.now() - started;
        progressCoveredSeconds.push(partial.durationSeconds);
      },
    });
    return {
      peaks,
      error: null,
      progressCount: progressCoveredSeconds.length,
      progressCoveredSeconds,
      firstProgressMs,
      doneMs: performance.now() - started,
    };
  } catch (err) {
    const e = err as { kind?: string; message?: string };
    return {
      peaks: null,
      error: { kind: e.kind ?? 'error', message: e.message ?? String(err) },
      progressCount: progressCoveredSeconds.length,
      progressCoveredSeconds,
      firstProgressMs,
      doneMs: performance.now() - started,
    };
  }
}

/**
 * The recording fetched whole and decoded by `decodeAudioData` (what wavesurfer does), reduced by
 * the same reducer: the decoding path the measurement compares the workers with. Milliseconds.
 */
async function decodeWhole(url: string): Promise<{ peaks: ComputedPeaks; doneMs: number }> {
  const started = performance.now();
  const bytes = await (await fetch(url)).arrayBuffer();
  // At the context's default rate: decodeAudioData resamples to it, as wavesurfer's does.
  const context = new OfflineAudioContext(1, 1, 48_000);
  const audio = await context.decodeAudioData(bytes);
  const accumulator = new PeakAccumulator(audio.numberOfChannels, audio.sampleRate);
  const channels = Array.from({ length: audio.numberOfChannels }, (_, c) => audio.getChannelData(c));
  accumulator.add(channels, audio.length);
  return { peaks: accumulator.finish(), doneMs: performance.now() - started };
}

function once(target: EventTarget, type: string): Promise<void> {
  return new Promise((resolve) => target.addEventListener(type, () => resolve(), { once: true }));
}

/** A media element playing `url` through an AudioWorklet that reports the onset of the next tone. */
async function openPlayer(
  url: string,
): Promise<{ audio: HTMLAudioElement; context: AudioContext; onset: AudioWorkletNode }> {
  const audio = new Audio();
  audio.preload = 'auto';
  const loaded = once(audio, 'loadedmetadata');
  audio.src = url;
  await loaded;
  const context = new AudioContext();
  await context.audioWorklet.addModule('./onset-worklet.js');
  const onset = new AudioWorkletNode(context, 'onset', { numberOfInputs: 1, numberOfOutputs: 1 });
  context.createMediaElementSource(audio).connect(onset);
  onset.connect(context.destination);
  await context.resume();
  return { audio, context, onset };
}

/** The media element's facts about `url`. */
async function mediaFacts(url: string): Promise<MediaFacts> {
  const audio = new Audio();
  const loaded = once(audio, 'loadedmetadata');
  audio.src = url;
  await loaded;
  return { durationSeconds: audio.duration };
}

/**
 * For each tone start (seconds, in the recording's own timeline): seeks to `leadSeconds` before
 * it, plays, and notes the media clock at the moment the tone's first sample plays. The clock at
 * that moment is worked out from the worklet's frame of the onset and the context's and media
 * element's clocks read together when the worklet's message arrives, so the message's own delay
 * does not count.
 */
async function measureSeeks(
  url: string,
  tones: readonly number[],
  leadSeconds: number,
  listenSeconds: number,
): Promise<SeekLanding[]> {
  const { audio, context, onset } = await openPlayer(url);
  const landings: SeekLanding[] = [];
  try {
    for (const toneSeconds of tones) {
      const seekSeconds = Math.max(0, toneSeconds - leadSeconds);
      audio.pause();
      const seeked = once(audio, 'seeked');
      audio.currentTime = seekSeconds;
      await seeked;
      const heard = new Promise<{ onsetFrame: number; sampleRate: number } | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), listenSeconds * 1000);
        onset.port.onmessage = (event: MessageEvent<{ onsetFrame: number; sampleRate: number }>) => {
          clearTimeout(timer);
          resolve(event.data);
        };
      });
      onset.port.postMessage('arm');
      await audio.play();
      const found = await heard;
      let heardAtSeconds: number | null = null;
      if (found) {
        // Read together: the media clock now, and how far the context has rendered since the onset.
        const mediaNow = audio.currentTime;
        const contextNow = context.currentTime;
        heardAtSeconds = mediaNow - (contextNow - found.onsetFrame / found.sampleRate) * audio.playbackRate;
      }
      audio.pause();
      landings.push({ toneSeconds, seekSeconds, heardAtSeconds });
    }
  } finally {
    audio.pause();
    audio.removeAttribute('src');
    await context.close();
  }
  return landings;
}

declare global {
  interface Window {
    decoderPage: {
      decode: typeof decode;
      decodeWhole: typeof decodeWhole;
      measureSeeks: typeof measureSeeks;
      mediaFacts: typeof mediaFacts;
    };
  }
}

window.decoderPage = { decode, decodeWhole, measureSeeks, mediaFacts };
