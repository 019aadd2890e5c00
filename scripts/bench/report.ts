/**
 * The benchmark's report (scripts/bench/run.ts): how it was measured and on what machine, the
 * targets as paired ratios with PASS / FAIL / inconclusive, with `--against` every figure as
 * new/old (and the self-check's band), then the absolute figures as information.
 */
import * as os from 'node:os';
import type { Build } from './builds';
import { callsOnLink } from './calls';
import { CALLS, SIXTEEN_MBIT } from './link';
import { headlineBlocks, wavesurferPairBlocks } from './report-pairs';
import { formatRatio, x, type Block } from './report-format';
import { METRIC, REFERENCE_LABEL, TRANSCRIPT, viewFigure, type Metric, type SampleStore } from './samples';
import type { SoakResult } from './soak';
import {
  direction,
  median,
  pairedRatios,
  percentile,
  SELF_CHECK_BAND,
  steadyInSelfCheck,
  widest,
  type RunStat,
} from './stats';
import { judge, noisyKey, targetsFor, type TargetScope } from './targets';

/** What the report is made from. */
export interface ReportInput extends TargetScope {
  store: SampleStore;
  builds: Build[];
  runs: number;
  soak: Map<string, SoakResult>;
  chromiumVersion: string;
  loadAverage: { start: number; end: number };
  /** Unsteady figures from the last self-check (targets.ts readNoisy). */
  noisy: Record<string, string>;
  /** True when the old build is this tree's HEAD commit. */
  selfCheck: boolean;
  elapsedSeconds: number;
}

/** The report, and (for `--against`) the figures outside the self-check band with their spread. */
export interface Report {
  blocks: Block[];
  unsteady: Record<string, string>;
}

const isMemory = (figure: string) => figure.endsWith(METRIC.pss) || figure.endsWith(METRIC.heap);
const ms = (v: number): string =>
  !Number.isFinite(v) ? '—' : Math.abs(v) < 10 ? `${v.toFixed(2)} ms` : `${Math.round(v).toLocaleString('en-US')} ms`;
const mb = (v: number): string => (!Number.isFinite(v) ? '—' : `${v >= 0 ? '+' : ''}${(v / 1e6).toFixed(1)} MB`);
const value = (figure: string, v: number): string => (isMemory(figure) ? mb(v) : ms(v));

function setup(r: ReportInput): Block[] {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const builds = r.builds.map((b) => (b.id === 'new' ? 'new = this tree' : `old = ${b.label}`)).join('; ');
  const cells = [...r.calls, ...(r.transcript ? ['transcript'] : []), ...(r.soak.size ? ['soak'] : [])].join(', ');
  const bare = r.links
    .map((link) => {
      const call = callsOnLink(r.calls, link)[0];
      const values = call ? r.store.values(viewFigure(call, link, METRIC.firstAudio), 'bare') : [];
      return values.length ? `${ms(median(values))} (${call}, ${link})` : null;
    })
    .filter(Boolean);
  return [
    { kind: 'heading', text: 'Voice Review benchmark' },
    {
      kind: 'text',
      lines: [
        `Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 1e9).toFixed(1)} GB RAM, Linux ${os.release()}; Chromium ${r.chromiumVersion || '?'} (headless); Node ${process.version}; load average ${r.loadAverage.start.toFixed(2)} at start, ${r.loadAverage.end.toFixed(2)} at end.`,
        `The machine's own speed: bare <audio> first audio ${bare.length ? bare.join(', ') : '—'}.`,
        `Builds: ${builds}. ${r.runs} run(s); links: ${r.links.join(', ')}; cells: ${cells}; ${Math.round(r.elapsedSeconds / 60)} min.`,
        `Calls: ${r.calls.map((c) => `${c} (${CALLS[c].description}, ${(r.fileBytes[c] / 1e6).toFixed(1)} MB${CALLS[c].links.length < 2 ? `; ${CALLS[c].links.join(', ')} only` : ''})`).join('; ') || 'none'}.`,
        'Ratios are paired: in every run each subject is measured back to back with its reference (order alternating: app first in odd runs, references first in even ones); a ratio is the median of the per-run ratios, with their range and the number of runs. A target passes on the median; a range that straddles its limit is "inconclusive"; KEPT OUT = the self-check found the figure too unsteady here.',
      ],
    },
  ];
}

function targetBlocks(r: ReportInput): Block[] {
  const old = r.builds.some((b) => b.id === 'old');
  const header = ['Target', 'ratio (range, runs)', 'verdict', ...(old ? ['old build'] : [])];
  const rows: string[][] = [];
  for (const target of targetsFor(r)) {
    const mine = judge(r.store, target, 'new', r.noisy);
    const row = [target.label, formatRatio(mine.summary), mine.verdict];
    if (old) row.push(formatRatio(judge(r.store, target, 'old', r.noisy).summary));
    rows.push(row);
  }
  const gets = (subject: string) =>
    r.links.flatMap((link) => r.calls.flatMap((call) => r.store.values(viewFigure(call, link, METRIC.gets), subject)));
  const getsText = (values: number[]) => (values.length ? `${Math.min(...values)}..${Math.max(...values)}` : '—');
  const mine = gets('new');
  if (r.calls.length)
    rows.push([
      'GET /interactions/{sid} per lookup = 1 (every first view)',
      getsText(mine),
      mine.length ? (mine.every((n) => n === 1) ? 'PASS' : 'FAIL') : 'NOT RUN',
      ...(old ? [getsText(gets('old'))] : []),
    ]);
  const soakNew = r.soak.get('new');
  if (soakNew) {
    for (const [what, key] of [
      ['renderer JS heap', 'rendererHeapBytes'],
      ['main RSS', 'mainRssBytes'],
    ] as const) {
      const growth = (s: SoakResult | undefined) => (s?.end && s.middle ? s.end[key] / s.middle[key] : Number.NaN);
      const g = growth(soakNew);
      rows.push([
        `soak, ${what} at the end <= 1.10x the middle (${soakNew.lookups} lookups)`,
        x(g),
        Number.isFinite(g) ? (g <= 1.1 ? 'PASS' : 'FAIL') : 'NOT RUN',
        ...(old ? [x(growth(r.soak.get('old')))] : []),
      ]);
    }
  }
  return [
    { kind: 'heading', text: 'Targets (paired ratios to the references)' },
    { kind: 'table', header, rows },
  ];
}

/** Figures compared between the builds, with how runs are reduced. */
function comparedFigures(r: ReportInput): Array<{ figure: string; stat: RunStat }> {
  const out: Array<{ figure: string; stat: RunStat }> = [];
  const transcript = new Set<string>(Object.values(TRANSCRIPT));
  for (const figure of r.store.figures()) {
    if (figure.includes('step:') || figure.endsWith(METRIC.gets) || figure.endsWith(METRIC.bytes)) continue;
    if (!r.store.values(figure, 'old').length || !r.store.values(figure, 'new').length) continue;
    if (transcript.has(figure)) out.push({ figure, stat: 'median' }, { figure, stat: 'p95' });
    else out.push({ figure, stat: 'median' });
  }
  return out;
}

function againstBlocks(r: ReportInput): { blocks: Block[]; unsteady: Record<string, string> } {
  const old = r.builds.find((b) => b.id === 'old');
  if (!old) return { blocks: [], unsteady: {} };
  const items = comparedFigures(r).map(({ figure, stat }) => ({
    figure,
    stat,
    summary: pairedRatios(r.store.perRun(figure, 'new', stat), r.store.perRun(figure, 'old', stat)),
  }));
  const rows = items.map(({ figure, stat, summary }) => {
    const reading = direction(summary);
    const word =
      reading === 'lower'
        ? isMemory(figure)
          ? 'smaller'
          : 'faster'
        : reading === 'higher'
          ? isMemory(figure)
            ? 'larger'
            : 'slower'
          : reading;
    return [
      `${figure}${stat === 'p95' ? ' (p95)' : ''}`,
      formatRatio(summary),
      value(figure, median([...r.store.perRun(figure, 'new', stat).values()])),
      value(figure, median([...r.store.perRun(figure, 'old', stat).values()])),
      word,
      steadyInSelfCheck(summary) ? 'yes' : 'NO',
    ];
  });
  const band = `${SELF_CHECK_BAND.low.toFixed(2)}–${SELF_CHECK_BAND.high.toFixed(2)}`;
  const unsteady: Record<string, string> = {};
  for (const item of items) {
    if (!steadyInSelfCheck(item.summary)) unsteady[noisyKey(item.figure, item.stat)] = formatRatio(item.summary);
  }
  const wide = widest(items);
  const lines = [
    `new/old = this tree / ${old.label}, paired per run (lower is better: "faster" or "smaller" when every run says so).`,
    `${r.selfCheck ? 'Self-check (the same commit on both sides)' : 'Band'}: ${items.length - Object.keys(unsteady).length} of ${items.length} figures have their median within ${band}; widest: ${wide ? `${wide.figure}${wide.stat === 'p95' ? ' (p95)' : ''} ${formatRatio(wide.summary)}` : '—'}.`,
  ];
  if (r.selfCheck && Object.keys(unsteady).length) {
    lines.push(`Too unsteady at ${r.runs} runs (kept out of the verdicts after --update-noisy):`);
    for (const [key, spread] of Object.entries(unsteady)) lines.push(`  ${key}: ${spread}`);
  }
  return {
    blocks: [
      { kind: 'heading', text: `This tree against ${old.label}` },
      { kind: 'text', lines },
      { kind: 'table', header: ['Figure', 'new/old (range, runs)', 'new', 'old', 'reading', `within ${band}`], rows },
    ],
    unsteady,
  };
}

const VIEW_COLUMNS: Array<[string, Metric]> = [
  ['first audio', METRIC.firstAudio],
  ['waveform', METRIC.waveform],
  ['first quarter', METRIC.quarter],
  ['cached', METRIC.cached],
  ['renderer memory', METRIC.pss],
  ['JS heap', METRIC.heap],
];

function subjects(r: ReportInput): Array<[string, string]> {
  return [
    ...r.builds.map((b): [string, string] => [
      b.id,
      b.id === 'new' ? 'Voice Review (this tree)' : `Voice Review (${b.label})`,
    ]),
    ...Object.entries(REFERENCE_LABEL).filter(([s]) => s !== 'download' && s !== 'plain'),
  ];
}

function viewBlocks(r: ReportInput): Block[] {
  const blocks: Block[] = [{ kind: 'heading', text: 'Absolute figures (information; medians of the runs)' }];
  for (const link of r.links) {
    for (const call of callsOnLink(r.calls, link)) {
      const rows: string[][] = [];
      for (const [subject, label] of subjects(r)) {
        const cells = VIEW_COLUMNS.map(([, metric]) => {
          const values = r.store.values(viewFigure(call, link, metric), subject);
          return values.length ? value(metric, median(values)) : '';
        });
        const n = Math.max(...VIEW_COLUMNS.map(([, m]) => r.store.values(viewFigure(call, link, m), subject).length));
        if (n > 0) rows.push([label, ...cells, String(n)]);
      }
      blocks.push({ kind: 'table', header: [`${call} · ${link}`, ...VIEW_COLUMNS.map(([c]) => c), 'runs'], rows });
      const lines: string[] = [];
      const download = r.store.values(viewFigure(call, link, METRIC.download), 'download');
      if (download.length) {
        const nominal = (r.fileBytes[call] / SIXTEEN_MBIT) * 1000;
        lines.push(`  one plain download of the file: ${ms(median(download))} (size / rate = ${ms(nominal)})`);
      }
      for (const build of r.builds) {
        const steps = r.store
          .figures()
          .filter((f) => f.startsWith(`${call} · ${link} · step: `))
          .map((f) => `${f.slice(`${call} · ${link} · step: `.length)} ${ms(median(r.store.values(f, build.id)))}`);
        if (steps.length) lines.push(`  ${build.id}: ms after "Show call": ${steps.join(', ')}`);
        const loop = r.store.values(viewFigure(call, link, METRIC.loop), build.id);
        const bytes = r.store.values(viewFigure(call, link, METRIC.bytes), build.id);
        if (loop.length)
          lines.push(
            `  ${build.id}: main's longest event-loop delay ${ms(median(loop))}; recording bytes fetched ${(median(bytes) / r.fileBytes[call]).toFixed(2)}x the file`,
          );
      }
      if (lines.length) blocks.push({ kind: 'text', lines });
    }
  }
  return blocks;
}

function transcriptBlocks(r: ReportInput): Block[] {
  if (!r.transcript) return [];
  const figures: Array<[string, string]> = [
    [TRANSCRIPT.paint500, '500 painted'],
    [TRANSCRIPT.paint5000, '5,000 painted'],
    [TRANSCRIPT.tick, 'tick'],
    [TRANSCRIPT.search, 'search'],
  ];
  const header = ['Transcript (40-min call)', ...figures.flatMap(([, name]) => [`${name} median`, 'p95'])];
  const rows: string[][] = [];
  for (const [subject, label] of [
    ...r.builds.map((b): [string, string] => [
      b.id,
      b.id === 'new' ? 'Voice Review (this tree)' : `Voice Review (${b.label})`,
    ]),
    ['plain', REFERENCE_LABEL.plain!] as [string, string],
  ]) {
    const cells = figures.flatMap(([figure]) => {
      const values = r.store.values(figure, subject);
      return [ms(median(values)), ms(percentile(values, 95))];
    });
    if (cells.some((c) => c !== '—')) rows.push([label, ...cells]);
  }
  return [
    { kind: 'table', header, rows },
    {
      kind: 'text',
      lines: [
        '  painted: response (plain list: entries handed over) -> first row on screen; tick: playback at 2x from 10:00, one sample per \'timeupdate\' (capture -> a late listener forcing layout); search: one sample per keystroke of "appointment" and "entry 4381".',
      ],
    },
  ];
}

function soakBlocks(r: ReportInput): Block[] {
  if (!r.soak.size) return [];
  const rows: string[][] = [];
  for (const build of r.builds) {
    const s = r.soak.get(build.id);
    if (!s) continue;
    const at = (reading: SoakResult['start'], key: 'rendererHeapBytes' | 'mainRssBytes') =>
      reading ? `${(reading[key] / 1e6).toFixed(1)} MB` : '—';
    rows.push([
      build.id === 'new' ? 'Voice Review (this tree)' : `Voice Review (${build.label})`,
      `${at(s.start, 'rendererHeapBytes')} / ${at(s.middle, 'rendererHeapBytes')} / ${at(s.end, 'rendererHeapBytes')}`,
      `${at(s.start, 'mainRssBytes')} / ${at(s.middle, 'mainRssBytes')} / ${at(s.end, 'mainRssBytes')}`,
      String(s.lookups),
      String(s.problems.length),
      `${Math.round(s.seconds)} s`,
    ]);
  }
  const problems = [...r.soak.entries()].flatMap(([id, s]) => s.problems.slice(0, 3).map((p) => `  ${id}: ${p}`));
  return [
    {
      kind: 'table',
      header: [
        'Soak (demo calls, one session)',
        'renderer JS heap start / middle / end',
        'main RSS start / middle / end',
        'lookups',
        'problems',
        'time',
      ],
      rows,
    },
    ...(problems.length ? [{ kind: 'text' as const, lines: problems }] : []),
  ];
}

function noteBlocks(r: ReportInput): Block[] {
  const lines = [...r.store.notes].flatMap(([where, notes]) => [...notes].map((n) => `  note (${where}): ${n}`));
  return lines.length ? [{ kind: 'text', lines }] : [];
}

/** The whole report. A self-check keeps the figures it found unsteady out of its own verdicts too. */
export function report(r: ReportInput): Report {
  const against = againstBlocks(r);
  const noisy = r.selfCheck ? { ...r.noisy, ...against.unsteady } : r.noisy;
  return {
    blocks: [
      ...setup(r),
      ...headlineBlocks({ ...r, noisy }),
      ...targetBlocks({ ...r, noisy }),
      ...against.blocks,
      ...wavesurferPairBlocks(r),
      ...viewBlocks(r),
      ...transcriptBlocks(r),
      ...soakBlocks(r),
      ...noteBlocks(r),
    ],
    unsteady: against.unsteady,
  };
}
