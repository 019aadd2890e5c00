import { describe, expect, it } from 'vitest';
import { METRIC, SampleStore, viewFigure } from '../../scripts/bench/samples';
import { judge, noisyKey, targetsFor, type Target } from '../../scripts/bench/targets';

const firstAudio = viewFigure('1 min', 'loopback', METRIC.firstAudio);
const target: Target = {
  label: 'first audio <= 2.0x bare',
  figure: firstAudio,
  stat: 'median',
  reference: { subject: 'bare', figure: firstAudio },
  limit: 2.0,
};

function store(app: number[], bare: number[]): SampleStore {
  const samples = new SampleStore();
  app.forEach((v, i) => samples.add(firstAudio, 'new', i + 1, v));
  bare.forEach((v, i) => samples.add(firstAudio, 'bare', i + 1, v));
  return samples;
}

describe('judge', () => {
  it('pairs each run of the app with the same run of its reference', () => {
    const { summary, verdict } = judge(store([300, 150, 180], [100, 100, 100]), target, 'new', {});
    expect(summary.ratios).toEqual([3, 1.5, 1.8]);
    expect(summary.median).toBeCloseTo(1.8);
    expect(verdict).toBe('inconclusive');
  });

  it('gives PASS and FAIL when every run is on the same side', () => {
    expect(judge(store([150, 160], [100, 100]), target, 'new', {}).verdict).toBe('PASS');
    expect(judge(store([250, 260], [100, 100]), target, 'new', {}).verdict).toBe('FAIL');
  });

  it('keeps a figure the self-check found unsteady out of the verdicts', () => {
    const noisy = { [noisyKey(firstAudio, 'median')]: '1.30x (0.70x-1.90x, n=5)' };
    expect(judge(store([250, 260], [100, 100]), target, 'new', noisy).verdict).toBe('KEPT OUT');
  });

  it('divides by a constant reference (the file size) run by run', () => {
    const bytes = viewFigure('1 min', 'loopback', METRIC.bytes);
    const samples = new SampleStore();
    samples.add(bytes, 'new', 1, 1000);
    samples.add(bytes, 'new', 2, 1100);
    const result = judge(samples, { ...target, figure: bytes, reference: { constant: 1000 }, limit: 1.05 }, 'new', {});
    expect(result.summary.ratios).toEqual([1, 1.1]);
    expect(result.verdict).toBe('inconclusive');
  });
});

describe('targetsFor', () => {
  const fileBytes = {
    '1 min': 240_000,
    '3 min': 2_880_000,
    '3 min WebM/Opus': 740_000,
    '3 min M4A/AAC': 1_100_000,
    '40 min': 9_600_000,
    '2 h': 115_200_000,
  };

  it('holds the 40-minute download targets to the throttled link and the 0.8x one to loopback', () => {
    const labels = targetsFor({
      links: ['loopback', '16 Mbit/s'],
      calls: ['1 min', '3 min', '40 min'],
      transcript: true,
      fileBytes,
    }).map((t) => t.label);
    expect(labels).toContain("40 min, waveform on first view <= 0.8x wavesurfer's full fetch (loopback)");
    expect(labels).not.toContain("40 min, waveform on first view <= 0.8x wavesurfer's full fetch (16 Mbit/s)");
    expect(labels).toContain('40 min, first quarter of the waveform <= 0.30x one download (16 Mbit/s)');
    expect(labels).not.toContain('40 min, first quarter of the waveform <= 0.30x one download (loopback)');
    expect(labels.filter((l) => l.includes('first audio from "Show call" <= 2.0x'))).toHaveLength(6);
    expect(labels).toContain('search, 5,000 entries <= 2.0x the minimal scan (p95)');
  });

  it('judges the 3-minute WebM and M4A waveforms against 1.0x wavesurfer on both links, like the WAV', () => {
    const labels = targetsFor({
      links: ['loopback', '16 Mbit/s'],
      calls: ['3 min WebM/Opus', '3 min M4A/AAC'],
      transcript: false,
      fileBytes,
    }).map((t) => t.label);
    for (const call of ['3 min WebM/Opus', '3 min M4A/AAC'])
      for (const link of ['loopback', '16 Mbit/s']) {
        expect(labels).toContain(`${call}, waveform on first view <= 1.0x wavesurfer's full fetch (${link})`);
        expect(labels).toContain(`${call}, first audio from "Show call" <= 2.0x bare <audio> (${link})`);
      }
    expect(labels.filter((l) => l.includes('one download'))).toEqual([]);
  });

  it('holds the 2-hour call to one download of its file, at 16 Mbit/s only', () => {
    const targets = targetsFor({ links: ['loopback', '16 Mbit/s'], calls: ['2 h'], transcript: false, fileBytes });
    expect(targets.every((t) => t.label.startsWith('2 h,') && t.label.endsWith('(16 Mbit/s)'))).toBe(true);
    const complete = targets.find(
      (t) => t.label === '2 h, waveform on first view <= 1.10x one download of the file (16 Mbit/s)',
    );
    expect(complete?.reference).toEqual({ subject: 'download', figure: '2 h · 16 Mbit/s · download' });
    expect(targets.map((t) => t.label)).toContain(
      "2 h, renderer memory added <= 0.4x wavesurfer's full fetch (16 Mbit/s)",
    );
    expect(targets.find((t) => t.label.startsWith('2 h, recording bytes'))?.reference).toEqual({
      constant: 115_200_000,
    });
  });

  it('lists only the cells measured', () => {
    const targets = targetsFor({ links: ['loopback'], calls: ['3 min'], transcript: false, fileBytes });
    expect(targets.every((t) => t.label.startsWith('3 min'))).toBe(true);
  });
});
