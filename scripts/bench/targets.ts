/**
 * The benchmark's targets, each a paired ratio of an app figure to its reference measured in the
 * same runs (scripts/bench/stats.ts), and how they are judged: PASS / FAIL on the median of the
 * per-run ratios, "inconclusive" when their range straddles the limit, "kept out" when the
 * self-check found the figure too unsteady on this machine (scripts/bench/noisy-figures.json).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CALLS, callsOnLink, type CallName, type LinkName } from './calls';
import { METRIC, TRANSCRIPT, viewFigure, type SampleStore } from './samples';
import { pairedRatios, summarize, verdictAtMost, type RatioSummary, type RunStat, type Verdict } from './stats';

/** A target: `figure` (reduced per run by `stat`) divided by its reference is at most `limit`. */
export interface Target {
  label: string;
  figure: string;
  stat: RunStat;
  /** The reference: another subject's figure in the same runs, or a constant (a file's size). */
  reference: { subject: string; figure: string } | { constant: number };
  limit: number;
}

/** What was measured, for the list of targets that apply. */
export interface TargetScope {
  links: LinkName[];
  calls: CallName[];
  transcript: boolean;
  /** Size of each call's recording file, bytes. */
  fileBytes: Record<CallName, number>;
}

/** The targets of the cells measured (each call only on the links it is measured on: calls.ts). */
export function targetsFor(scope: TargetScope): Target[] {
  const out: Target[] = [];
  const v = viewFigure;
  for (const link of scope.links) {
    const calls = callsOnLink(scope.calls, link);
    const long = calls.filter((call) => CALLS[call].long);
    for (const call of calls) {
      out.push({
        label: `${call}, first audio from "Show call" <= 2.0x bare <audio> (${link})`,
        figure: v(call, link, METRIC.firstAudio),
        stat: 'median',
        reference: { subject: 'bare', figure: v(call, link, METRIC.firstAudio) },
        limit: 2.0,
      });
    }
    for (const call of calls.filter((c) => !CALLS[c].long)) {
      out.push({
        label: `${call}, waveform on first view <= 1.0x wavesurfer's full fetch (${link})`,
        figure: v(call, link, METRIC.waveform),
        stat: 'median',
        reference: { subject: 'wavesurfer', figure: v(call, link, METRIC.waveform) },
        limit: 1.0,
      });
    }
    for (const call of link === 'loopback' ? long : []) {
      out.push({
        label: `${call}, waveform on first view <= 0.8x wavesurfer's full fetch (${link})`,
        figure: v(call, link, METRIC.waveform),
        stat: 'median',
        reference: { subject: 'wavesurfer', figure: v(call, link, METRIC.waveform) },
        limit: 0.8,
      });
    }
    for (const call of link === '16 Mbit/s' ? long : []) {
      const download = { subject: 'download', figure: v(call, link, METRIC.download) };
      out.push({
        label: `${call}, waveform on first view <= 1.10x one download of the file (${link})`,
        figure: v(call, link, METRIC.waveform),
        stat: 'median',
        reference: download,
        limit: 1.1,
      });
      out.push({
        label: `${call}, first quarter of the waveform <= 0.30x one download (${link})`,
        figure: v(call, link, METRIC.quarter),
        stat: 'median',
        reference: download,
        limit: 0.3,
      });
    }
    for (const call of calls) {
      out.push({
        label: `${call}, waveform when cached <= 1.5x wavesurfer given the same peaks (${link})`,
        figure: v(call, link, METRIC.cached),
        stat: 'median',
        reference: { subject: 'peaks', figure: v(call, link, METRIC.cached) },
        limit: 1.5,
      });
    }
    for (const call of long) {
      out.push({
        label: `${call}, renderer memory added <= 0.4x wavesurfer's full fetch (${link})`,
        figure: v(call, link, METRIC.pss),
        stat: 'median',
        reference: { subject: 'wavesurfer', figure: v(call, link, METRIC.pss) },
        limit: 0.4,
      });
    }
    for (const call of calls) {
      out.push({
        label: `${call}, recording bytes fetched for a first view <= 1.05x the file (${link})`,
        figure: v(call, link, METRIC.bytes),
        stat: 'median',
        reference: { constant: scope.fileBytes[call] },
        limit: 1.05,
      });
    }
  }
  if (scope.transcript) {
    for (const [figure, name] of [
      [TRANSCRIPT.paint500, '500 entries'],
      [TRANSCRIPT.paint5000, '5,000 entries'],
    ] as const) {
      for (const stat of ['median', 'p95'] as const) {
        out.push({
          label: `${name} painted after the response <= 2.0x the plain list (${stat})`,
          figure,
          stat,
          reference: { subject: 'plain', figure },
          limit: 2.0,
        });
      }
    }
    out.push({
      label: 'highlight tick, 5,000 entries <= 2.0x the minimal timeupdate handler (median)',
      figure: TRANSCRIPT.tick,
      stat: 'median',
      reference: { subject: 'plain', figure: TRANSCRIPT.tick },
      limit: 2.0,
    });
    out.push({
      label: 'search, 5,000 entries <= 2.0x the minimal scan (p95)',
      figure: TRANSCRIPT.search,
      stat: 'p95',
      reference: { subject: 'plain', figure: TRANSCRIPT.search },
      limit: 2.0,
    });
  }
  return out;
}

/** The paired ratio of `target` for `subject` (a build id). */
export function targetRatio(store: SampleStore, target: Target, subject: string): RatioSummary {
  const mine = store.perRun(target.figure, subject, target.stat);
  if ('constant' in target.reference) {
    const constant = target.reference.constant;
    return summarize([...mine.values()].map((v) => v / constant));
  }
  return pairedRatios(mine, store.perRun(target.reference.figure, target.reference.subject, target.stat));
}

/** Key under which a figure is listed as noisy: the figure and how runs are reduced. */
export const noisyKey = (figure: string, stat: RunStat): string => `${figure} (${stat})`;

/** Where the self-check's list of unsteady figures is kept (committed, updated with --update-noisy). */
export const NOISY_FILE = join(__dirname, 'noisy-figures.json');

/** Unsteady figures: key -> why (the self-check's spread). */
export function readNoisy(): Record<string, string> {
  if (!existsSync(NOISY_FILE)) return {};
  return (JSON.parse(readFileSync(NOISY_FILE, 'utf8')) as { figures?: Record<string, string> }).figures ?? {};
}

/** Replaces the list of unsteady figures. */
export function writeNoisy(figures: Record<string, string>, source: string): void {
  const body = {
    about:
      'Figures a self-check (npm run bench -- --against HEAD) found outside 0.85-1.15x against themselves; their targets print KEPT OUT until a self-check finds them steady. Rewritten by --update-noisy.',
    source,
    figures,
  };
  writeFileSync(NOISY_FILE, `${JSON.stringify(body, null, 2)}\n`);
}

/** A target's verdict for `subject`, honouring the list of unsteady figures. */
export function judge(
  store: SampleStore,
  target: Target,
  subject: string,
  noisy: Record<string, string>,
): { summary: RatioSummary; verdict: Verdict | 'KEPT OUT' } {
  const summary = targetRatio(store, target, subject);
  if (noisy[noisyKey(target.figure, target.stat)] !== undefined && summary.n > 0)
    return { summary, verdict: 'KEPT OUT' };
  return { summary, verdict: verdictAtMost(summary, target.limit) };
}
