/**
 * The benchmark's samples: one cell per (link, call, path), and the transcript figures.
 * Times in milliseconds, memory in bytes.
 */
import type { CallName, LinkName } from './link';

/** What is measured: Voice Review, wavesurfer's full fetch, and a bare <audio> element. */
export type PathName = 'vr' | 'wavesurfer' | 'bare';

export const PATH_LABEL: Record<PathName, string> = {
  vr: 'Voice Review',
  wavesurfer: 'wavesurfer full fetch',
  bare: 'bare <audio>',
};

/** Samples of one (link, call, path) cell; all times in ms, memory in bytes. */
export interface Cell {
  firstAudioMs: number[];
  /** From the moment the page has the media element with its src (bare: the same as firstAudioMs). */
  mediaFirstAudioMs: number[];
  waveformMs: number[];
  /** Voice Review only: until the page had peaks covering the first quarter of the recording. */
  waveformQuarterMs: number[];
  waveformCachedMs: number[];
  cachedFromDisk: boolean[];
  processBytes: number[];
  jsHeapBytes: number[];
  notes: Set<string>;
  /** Voice Review only: ms from the action to each step, by step name. */
  steps: Map<string, number[]>;
  /** Voice Review only: worst event-loop delay of this ("main") process during the first view, ms. */
  mainLoopMaxDelayMs: number[];
  /** Voice Review only: recording bytes the long-call service sent during the first view. */
  recordingBytes: number[];
  /** Voice Review only: GET /interactions/<sid> the long-call service got during the first view. */
  interactionGets: number[];
}

/** Transcript figures of one run: paint times (ms) and highlight tick times (ms). */
export interface TranscriptSamples {
  paint500Ms: number[];
  paint5000Ms: number[];
  tickMs: number[];
  /** Same tick measurement on a 500-entry transcript: tells the transcript's share from the rest (waveform cursor). */
  tick500Ms: number[];
  tickChanges: number;
  ticks: number;
  /** 5,000 entries: keystroke in the search field to highlighted results painted, one sample per keystroke (ms). */
  searchMs: number[];
  notes: Set<string>;
}

/** Every sample of a benchmark run. */
export interface BenchResults {
  /** The cell of (link, call, path), created empty on first use. */
  cell: (link: LinkName, call: CallName, path: PathName) => Cell;
  transcript: TranscriptSamples;
  /** One plain download of the 40-minute recording per run, by link, in ms (BenchLink.timeDownload). */
  downloadMs: Partial<Record<LinkName, number[]>>;
}

function emptyCell(): Cell {
  return {
    firstAudioMs: [],
    mediaFirstAudioMs: [],
    waveformMs: [],
    waveformQuarterMs: [],
    waveformCachedMs: [],
    cachedFromDisk: [],
    processBytes: [],
    jsHeapBytes: [],
    notes: new Set(),
    steps: new Map(),
    mainLoopMaxDelayMs: [],
    recordingBytes: [],
    interactionGets: [],
  };
}

/** Empty results. */
export function createResults(): BenchResults {
  const cells = new Map<string, Cell>();
  return {
    cell: (link, call, path) => {
      const key = `${link}|${call}|${path}`;
      let cell = cells.get(key);
      if (!cell) {
        cell = emptyCell();
        cells.set(key, cell);
      }
      return cell;
    },
    downloadMs: {},
    transcript: {
      paint500Ms: [],
      paint5000Ms: [],
      tickMs: [],
      tick500Ms: [],
      tickChanges: 0,
      ticks: 0,
      searchMs: [],
      notes: new Set(),
    },
  };
}
