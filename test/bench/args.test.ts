import { describe, expect, it } from 'vitest';
import { orderForRun, parseArgs } from '../../scripts/bench/args';

describe('parseArgs', () => {
  it('measures everything on both links, five runs, by default', () => {
    const args = parseArgs([]);
    expect(args.runs).toBe(5);
    expect(args.links).toEqual(['loopback', '16 Mbit/s']);
    expect(args.cells).toEqual(['1min', '3min', '3min-webm', '3min-m4a', '40min', '2h', 'transcript', 'soak']);
    expect(args.paths).toEqual(['vr', 'bare', 'wavesurfer', 'peaks', 'download']);
    expect(args.against).toBeNull();
    expect(args.build).toBe(true);
  });

  it('takes "--name value" and "--name=value" alike, and the options of earlier versions', () => {
    const args = parseArgs([
      '--runs',
      '2',
      '--loopback',
      '--paths=vr,bare',
      '--no-transcript',
      '--skip-build',
      '--against=HEAD',
      '--markdown',
      'out.md',
    ]);
    expect(args).toMatchObject({
      runs: 2,
      links: ['loopback'],
      paths: ['vr', 'bare'],
      build: false,
      against: 'HEAD',
      markdown: 'out.md',
    });
    expect(args.cells).not.toContain('transcript');
    expect(parseArgs(['--throttle', '--cells', '40min,soak']).cells).toEqual(['40min', 'soak']);
    expect(parseArgs(['--cells=3min-webm,3min-m4a,2h']).cells).toEqual(['3min-webm', '3min-m4a', '2h']);
  });

  it('refuses what it does not know, naming it', () => {
    expect(() => parseArgs(['--fast'])).toThrow(/Unknown option --fast/);
    expect(() => parseArgs(['--cells', '2min'])).toThrow(/unknown "2min"/);
    expect(() => parseArgs(['--runs', '0'])).toThrow(/--runs/);
    expect(() => parseArgs(['--against'])).toThrow(/needs a value/);
    expect(() => parseArgs(['--update-noisy'])).toThrow(/--against HEAD/);
  });
});

describe('orderForRun', () => {
  it('alternates: as given in odd runs, reversed in even ones', () => {
    expect(orderForRun(['app', 'bare', 'wavesurfer'], 1)).toEqual(['app', 'bare', 'wavesurfer']);
    expect(orderForRun(['app', 'bare', 'wavesurfer'], 2)).toEqual(['wavesurfer', 'bare', 'app']);
    expect(orderForRun(['app', 'bare'], 3)).toEqual(['app', 'bare']);
  });
});
