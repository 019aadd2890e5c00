import { describe, expect, it } from 'vitest';
import type { CallName, LinkName } from '../../scripts/bench/calls';
import { headlineBlocks, wavesurferPairBlocks } from '../../scripts/bench/report-pairs';
import { toText, type Block } from '../../scripts/bench/report-format';
import { METRIC, SampleStore, viewFigure, type Metric } from '../../scripts/bench/samples';

const fileBytes: Record<CallName, number> = {
  '1 min': 240_000,
  '3 min': 2_880_000,
  '3 min WebM/Opus': 740_000,
  '3 min M4A/AAC': 1_100_000,
  '40 min': 9_600_000,
  '2 h': 115_200_000,
};

/** Puts `app` and `wavesurfer` values of `metric` for runs 1, 2, ... */
function measured(store: SampleStore, call: CallName, link: LinkName, metric: Metric, app: number[], ws: number[]) {
  const figure = viewFigure(call, link, metric);
  app.forEach((v, i) => store.add(figure, 'new', i + 1, v));
  ws.forEach((v, i) => store.add(figure, 'wavesurfer', i + 1, v));
}

const rowsOf = (blocks: Block[]) => blocks.flatMap((b) => (b.kind === 'table' ? b.rows : []));

describe('headlineBlocks', () => {
  it('prints the 1-minute waveform ratio to wavesurfer on both links with its target and verdict', () => {
    const store = new SampleStore();
    measured(store, '1 min', 'loopback', METRIC.waveform, [320, 300, 330], [100, 100, 100]);
    measured(store, '1 min', '16 Mbit/s', METRIC.waveform, [400, 380], [250, 240]);
    const blocks = headlineBlocks({
      store,
      noisy: {},
      links: ['loopback', '16 Mbit/s'],
      calls: ['1 min'],
      transcript: false,
      fileBytes,
    });
    expect(rowsOf(blocks)).toEqual([
      ['loopback', '<= 1.0x', '3.20x (3.00x–3.30x, n=3)', 'FAIL', '320 ms', '100 ms'],
      ['16 Mbit/s', '<= 1.0x', '1.59x (1.58x–1.60x, n=2)', 'FAIL', '390 ms', '245 ms'],
    ]);
    expect(toText(blocks)).toContain("Headline: the 1-minute waveform against wavesurfer's full fetch");
  });

  it('says so when the 1-minute call or a link was not measured, instead of leaving the line out', () => {
    const store = new SampleStore();
    measured(store, '1 min', 'loopback', METRIC.waveform, [90], [100]);
    const rows = rowsOf(
      headlineBlocks({ store, noisy: {}, links: ['loopback'], calls: ['1 min'], transcript: false, fileBytes }),
    );
    expect(rows[0]).toEqual(['loopback', '<= 1.0x', '0.90x (n=1)', 'PASS', '90 ms', '100 ms']);
    expect(rows[1]?.[0]).toBe('16 Mbit/s');
    expect(rows[1]?.[2]).toMatch(/not measured in this run/);
  });
});

describe('wavesurferPairBlocks', () => {
  it('pairs first audio, waveform and memory of every call with wavesurfer, each call only on its links', () => {
    const store = new SampleStore();
    measured(store, '3 min WebM/Opus', 'loopback', METRIC.firstAudio, [200, 220], [100, 100]);
    measured(store, '3 min WebM/Opus', 'loopback', METRIC.waveform, [500, 450], [250, 300]);
    measured(store, '3 min WebM/Opus', 'loopback', METRIC.pss, [30e6, 34e6], [40e6, 40e6]);
    measured(store, '2 h', '16 Mbit/s', METRIC.waveform, [60_000], [62_000]);
    const rows = rowsOf(
      wavesurferPairBlocks({
        store,
        noisy: {},
        links: ['loopback', '16 Mbit/s'],
        calls: ['3 min WebM/Opus', '2 h'],
        transcript: false,
        fileBytes,
      }),
    );
    expect(rows).toEqual([
      [
        '3 min WebM/Opus · loopback',
        '2.10x (2.00x–2.20x, n=2)',
        '1.75x (1.50x–2.00x, n=2)',
        '0.80x (0.75x–0.85x, n=2)',
      ],
      ['2 h · 16 Mbit/s', '—', '0.97x (n=1)', '—'],
    ]);
  });

  it('prints nothing when wavesurfer was not measured', () => {
    const store = new SampleStore();
    store.add(viewFigure('1 min', 'loopback', METRIC.waveform), 'new', 1, 300);
    expect(
      wavesurferPairBlocks({ store, noisy: {}, links: ['loopback'], calls: ['1 min'], transcript: false, fileBytes }),
    ).toEqual([]);
  });
});
