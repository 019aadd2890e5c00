/**
 * Every value a benchmark measured, by figure, subject and run. A figure is what was measured
 * where ("40 min · loopback · waveform", "transcript · search"); a subject is who: a build
 * ("new", "old") or a reference ("bare", "wavesurfer", "peaks", "download", "plain"). Times in
 * milliseconds, memory in bytes, counts as numbers.
 */
import type { CallName, LinkName } from './link';
import { reduceRun, type RunStat } from './stats';

/** The measured quantities of a call's view. */
export const METRIC = {
  firstAudio: 'first audio',
  waveform: 'waveform',
  quarter: 'waveform first quarter',
  cached: 'waveform cached',
  pss: 'renderer memory',
  heap: 'JS heap',
  bytes: 'recording bytes',
  gets: 'GET /interactions',
  loop: 'main event-loop delay',
  download: 'download',
} as const;
export type Metric = (typeof METRIC)[keyof typeof METRIC];

/** The transcript figures (40-minute call, first link). */
export const TRANSCRIPT = {
  paint500: 'transcript · 500 entries painted',
  paint5000: 'transcript · 5,000 entries painted',
  tick: 'transcript · highlight tick (5,000 entries)',
  search: 'transcript · search (5,000 entries)',
} as const;

/** Subjects that are references, with how the report names them. */
export const REFERENCE_LABEL: Record<string, string> = {
  bare: 'bare <audio>',
  wavesurfer: 'wavesurfer full fetch',
  peaks: 'wavesurfer given the peaks',
  download: 'one plain download',
  plain: 'plain list',
};

/** The key of a call's figure. */
export function viewFigure(call: CallName, link: LinkName, metric: Metric): string {
  return `${call} · ${link} · ${metric}`;
}

/** The key of a step of the app's view (information: ms after "Show call"). */
export function stepFigure(call: CallName, link: LinkName, step: string): string {
  return `${call} · ${link} · step: ${step}`;
}

/** Every sample of a run of the benchmark. */
export class SampleStore {
  private readonly samples: Array<{ figure: string; subject: string; run: number; value: number }> = [];
  /** Notes (failures, warnings) by where they came from. */
  readonly notes = new Map<string, Set<string>>();

  /** Adds one value (ignored when not finite). */
  add(figure: string, subject: string, run: number, value: number | null | undefined): void {
    if (value === null || value === undefined || !Number.isFinite(value)) return;
    this.samples.push({ figure, subject, run, value });
  }

  /** Every value of `subject` on `figure`, in the order measured. */
  values(figure: string, subject: string): number[] {
    return this.samples.filter((s) => s.figure === figure && s.subject === subject).map((s) => s.value);
  }

  /** The figure of each run: its samples reduced by `stat` (a single sample is its own median). */
  perRun(figure: string, subject: string, stat: RunStat = 'median'): Map<number, number> {
    const byRun = new Map<number, number[]>();
    for (const s of this.samples) {
      if (s.figure !== figure || s.subject !== subject) continue;
      byRun.set(s.run, [...(byRun.get(s.run) ?? []), s.value]);
    }
    return new Map([...byRun].map(([run, values]) => [run, reduceRun(values, stat)]));
  }

  /** Figures with at least one sample, in the order first measured. */
  figures(): string[] {
    return [...new Set(this.samples.map((s) => s.figure))];
  }

  /** Every sample, as JSON-ready objects (for BENCH_SAMPLES, a diagnostic dump). */
  all(): ReadonlyArray<{ figure: string; subject: string; run: number; value: number }> {
    return this.samples;
  }

  /** Adds a note under `where` (a subject or a cell). */
  note(where: string, text: string): void {
    const set = this.notes.get(where) ?? new Set<string>();
    set.add(text);
    this.notes.set(where, set);
  }
}
