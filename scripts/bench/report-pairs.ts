/**
 * Two parts of the benchmark's report (scripts/bench/report.ts) that read the app against
 * wavesurfer.js's full fetch:
 * - the headline: the 1-minute call's waveform on first view against wavesurfer's, on each link,
 *   with its target and verdict, or a line saying it was not measured in this run;
 * - every call measured, paired with wavesurfer's full fetch in the same runs: first audio,
 *   waveform drawn and renderer memory added, each the median of the per-run ratios.
 */
import { CALLS, callsOnLink, type CallName } from './calls';
import { formatRatio, type Block } from './report-format';
import { METRIC, viewFigure, type Metric, type SampleStore } from './samples';
import { median, pairedRatios } from './stats';
import { judge, targetsFor, type TargetScope } from './targets';

/** What the two parts read: the samples, what was measured, the self-check's unsteady figures. */
export interface PairsInput extends TargetScope {
  store: SampleStore;
  /** Unsteady figures (targets.ts readNoisy): their verdict is KEPT OUT. */
  noisy: Record<string, string>;
}

/** The call of the headline. */
const HEADLINE_CALL: CallName = '1 min';

const ms = (v: number): string => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : '—');

/**
 * The headline: the 1-minute waveform on first view against wavesurfer's full fetch, one row per
 * link of the benchmark (loopback and 16 Mbit/s) whether measured or not, with its target (the
 * same target as in the targets table), the paired ratio, the verdict of the app build ("new") and
 * both medians in ms.
 */
export function headlineBlocks(r: PairsInput): Block[] {
  const rows = (['loopback', '16 Mbit/s'] as const).map((link): string[] => {
    const figure = viewFigure(HEADLINE_CALL, link, METRIC.waveform);
    const target = targetsFor(r).find((t) => t.figure === figure && 'subject' in t.reference);
    if (!target) return [link, `<= 1.0x`, 'not measured in this run (needs --cells 1min and this link)', '', '', ''];
    const { summary, verdict } = judge(r.store, target, 'new', r.noisy);
    return [
      link,
      `<= ${target.limit.toFixed(1)}x`,
      formatRatio(summary),
      summary.n ? verdict : 'NOT RUN',
      ms(median(r.store.values(figure, 'new'))),
      ms(median(r.store.values(figure, 'wavesurfer'))),
    ];
  });
  return [
    { kind: 'heading', text: "Headline: the 1-minute waveform against wavesurfer's full fetch" },
    {
      kind: 'text',
      lines: [
        `"Show call" to the waveform drawn, divided by wavesurfer's create({url}) to its waveform drawn in the same run (${CALLS[HEADLINE_CALL].description}).`,
      ],
    },
    {
      kind: 'table',
      header: ['Link', 'target', 'app / wavesurfer (range, runs)', 'verdict', 'app', 'wavesurfer'],
      rows,
    },
  ];
}

const PAIRED: Array<[string, Metric]> = [
  ['first audio', METRIC.firstAudio],
  ['waveform drawn', METRIC.waveform],
  ['renderer memory added', METRIC.pss],
];

/**
 * Every call measured, on each link it was measured on, paired with wavesurfer's full fetch in
 * the same runs (app / wavesurfer; lower is better). Information beside the targets: only some of
 * these ratios have a target (see the targets table).
 */
export function wavesurferPairBlocks(r: PairsInput): Block[] {
  const rows: string[][] = [];
  for (const link of r.links) {
    for (const call of callsOnLink(r.calls, link)) {
      const cells = PAIRED.map(([, metric]) => {
        const figure = viewFigure(call, link, metric);
        return formatRatio(pairedRatios(r.store.perRun(figure, 'new'), r.store.perRun(figure, 'wavesurfer')));
      });
      if (cells.some((c) => c !== '—')) rows.push([`${call} · ${link}`, ...cells]);
    }
  }
  if (!rows.length) return [];
  return [
    { kind: 'heading', text: "Every call against wavesurfer's full fetch (app / wavesurfer, same runs)" },
    { kind: 'table', header: ['Call · link', ...PAIRED.map(([name]) => name)], rows },
    {
      kind: 'text',
      lines: [
        "  Information: the targets above judge the waveform of the short calls (<= 1.0x) and the memory of the long ones (<= 0.4x); first audio's target is the bare <audio>.",
      ],
    },
  ];
}
