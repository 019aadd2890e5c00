import { describe, expect, it } from 'vitest';
import {
  direction,
  median,
  pairedRatios,
  percentile,
  steadyInSelfCheck,
  summarize,
  verdictAtMost,
  widest,
} from '../../scripts/bench/stats';

const runs = (...values: number[]) => new Map(values.map((v, i) => [i + 1, v]));

describe('median and percentile', () => {
  it('interpolate between closest ranks and ignore values that are not finite', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 95)).toBeCloseTo(48);
    expect(median([1, Number.NaN, 3])).toBe(2);
    expect(median([])).toBeNaN();
  });
});

describe('pairedRatios', () => {
  it('is the median of per-run ratios, so one slow run of either side moves one ratio only', () => {
    // Run 3 was slow for the app and run 4 for the reference; the ratio of medians would be 1.5.
    const app = runs(100, 110, 400, 105, 95);
    const reference = runs(50, 55, 60, 300, 50);
    const summary = pairedRatios(app, reference);
    expect(summary.ratios.map((r) => r.toFixed(2))).toEqual(['2.00', '2.00', '6.67', '0.35', '1.90']);
    expect(summary.median).toBeCloseTo(2.0);
    expect(summary.min).toBeCloseTo(0.35, 2);
    expect(summary.max).toBeCloseTo(6.67, 2);
    expect(summary.n).toBe(5);
    expect(median([...app.values()]) / median([...reference.values()])).toBeCloseTo(1.91, 2);
  });

  it('leaves out runs where either side is missing or zero', () => {
    const summary = pairedRatios(
      new Map([
        [1, 10],
        [2, 20],
        [3, 30],
      ]),
      new Map([
        [1, 5],
        [3, 0],
      ]),
    );
    expect(summary.ratios).toEqual([2]);
    expect(summary.n).toBe(1);
  });
});

describe('verdictAtMost', () => {
  it('passes or fails on the median when every run agrees', () => {
    expect(verdictAtMost(summarize([0.8, 0.9, 1.0]), 1.0)).toBe('PASS');
    expect(verdictAtMost(summarize([1.2, 1.3, 1.1]), 1.0)).toBe('FAIL');
  });

  it('says inconclusive when the range straddles the limit, whatever the median', () => {
    expect(verdictAtMost(summarize([0.7, 0.8, 1.2]), 1.0)).toBe('inconclusive');
    expect(verdictAtMost(summarize([0.9, 1.3, 1.4]), 1.0)).toBe('inconclusive');
  });

  it('reports NOT RUN without a single paired run', () => {
    expect(verdictAtMost(summarize([]), 1.0)).toBe('NOT RUN');
  });
});

describe('the self-check band', () => {
  it('holds medians from 0.85 to 1.15 inclusive, whatever the range', () => {
    expect(steadyInSelfCheck(summarize([0.85, 0.6, 1.4]))).toBe(true);
    expect(steadyInSelfCheck(summarize([1.15]))).toBe(true);
    expect(steadyInSelfCheck(summarize([1.16, 1.2, 1.1]))).toBe(false);
    expect(steadyInSelfCheck(summarize([0.84]))).toBe(false);
    expect(steadyInSelfCheck(summarize([]))).toBe(false);
  });

  it('names as widest the median furthest from 1 on a log scale', () => {
    const items = [
      { name: 'a', summary: summarize([1.2]) },
      { name: 'b', summary: summarize([0.8]) },
      { name: 'c', summary: summarize([]) },
    ];
    expect(widest(items)?.name).toBe('b');
    expect(widest([])).toBeNull();
  });
});

describe('direction', () => {
  it('reads a new/old ratio as lower or higher only when every run says so', () => {
    expect(direction(summarize([0.8, 0.9]))).toBe('lower');
    expect(direction(summarize([1.1, 1.3]))).toBe('higher');
    expect(direction(summarize([0.9, 1.1]))).toBe('within range');
    expect(direction(summarize([]))).toBe('not run');
  });
});
