/**
 * Command line of `npm run bench -- [options]`; see {@link USAGE}.
 */
import type { CallName, LinkName } from './calls';

/** Who can be measured in a call's cell: the app builds ("vr") and the references. */
export type PathName = 'vr' | 'bare' | 'wavesurfer' | 'peaks' | 'download';
export const PATH_NAMES: PathName[] = ['vr', 'bare', 'wavesurfer', 'peaks', 'download'];

/** Cells: a call's view (every path above), the transcript figures, the soak. */
export type CellName = '1min' | '3min' | '3min-webm' | '3min-m4a' | '40min' | '2h' | 'transcript' | 'soak';
export const CELL_NAMES: CellName[] = ['1min', '3min', '3min-webm', '3min-m4a', '40min', '2h', 'transcript', 'soak'];
/** The call each call cell measures (scripts/bench/calls.ts). */
export const CELL_CALL: Partial<Record<CellName, CallName>> = {
  '1min': '1 min',
  '3min': '3 min',
  '3min-webm': '3 min WebM/Opus',
  '3min-m4a': '3 min M4A/AAC',
  '40min': '40 min',
  '2h': '2 h',
};

export interface Args {
  runs: number;
  links: LinkName[];
  build: boolean;
  paths: PathName[];
  cells: CellName[];
  /** Git ref of the build to compare with, or null. */
  against: string | null;
  /** File to write the report to as Markdown, or null. */
  markdown: string | null;
  /** Rewrite scripts/bench/noisy-figures.json from this run (a self-check). */
  updateNoisy: boolean;
  soakLookups: number;
  /** Print {@link USAGE} and stop. */
  help: boolean;
}

export const USAGE = `Options:
  --runs N              runs (default 5; 5 or more for published figures)
  --loopback | --throttle   only one link (default both: loopback, then 16 Mbit/s)
  --cells LIST          of ${CELL_NAMES.join(',')} (default all;
                        2h is measured at 16 Mbit/s only)
  --paths LIST          of ${PATH_NAMES.join(',')} (default all; vr = the app)
  --no-transcript       same as leaving "transcript" out of --cells
  --against REF         also build git REF and compare (HEAD = the self-check)
  --update-noisy        with --against HEAD: rewrite scripts/bench/noisy-figures.json
  --markdown FILE       also write the report as Markdown
  --soak-lookups N      lookups of the soak (default 200)
  --skip-build          use the last build of this tree (out-bench/)
  --help                this text`;

function list<T extends string>(value: string, allowed: readonly T[], option: string): T[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!allowed.includes(item as T)) throw new Error(`${option}: unknown "${item}" (one of ${allowed.join(', ')})`);
  }
  return items as T[];
}

/**
 * Parses the options (`--name value` and `--name=value` both work).
 * @throws Error naming the bad option, with {@link USAGE}
 */
export function parseArgs(argv: string[]): Args {
  const args: Args = {
    runs: 5,
    links: ['loopback', '16 Mbit/s'],
    build: true,
    paths: [...PATH_NAMES],
    cells: [...CELL_NAMES],
    against: null,
    markdown: null,
    updateNoisy: false,
    soakLookups: 200,
    help: false,
  };
  let transcript = true;
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const eq = raw.indexOf('=');
    const name = eq > 0 ? raw.slice(0, eq) : raw;
    const value = (): string => {
      const v = eq > 0 ? raw.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '') throw new Error(`${name} needs a value\n${USAGE}`);
      return v;
    };
    if (name === '--runs') args.runs = Number(value());
    else if (name === '--throttle') args.links = ['16 Mbit/s'];
    else if (name === '--loopback') args.links = ['loopback'];
    else if (name === '--skip-build') args.build = false;
    else if (name === '--no-transcript') transcript = false;
    else if (name === '--paths') args.paths = list(value(), PATH_NAMES, '--paths');
    else if (name === '--cells') args.cells = list(value(), CELL_NAMES, '--cells');
    else if (name === '--against') args.against = value();
    else if (name === '--markdown') args.markdown = value();
    else if (name === '--update-noisy') args.updateNoisy = true;
    else if (name === '--soak-lookups') args.soakLookups = Number(value());
    else if (name === '--help') args.help = true;
    else throw new Error(`Unknown option ${raw}\n${USAGE}`);
  }
  if (!transcript) args.cells = args.cells.filter((c) => c !== 'transcript');
  if (!Number.isInteger(args.runs) || args.runs < 1) throw new Error('--runs must be a whole number >= 1');
  if (!Number.isInteger(args.soakLookups) || args.soakLookups < 2)
    throw new Error('--soak-lookups must be a whole number >= 2');
  if (args.updateNoisy && args.against === null) throw new Error('--update-noisy needs --against HEAD');
  return args;
}

/**
 * The order of a cell's subjects in run `run` (from 1): as given in odd runs, reversed in even
 * ones, so each pair is measured app-first as often as reference-first.
 */
export function orderForRun<T>(subjects: readonly T[], run: number): T[] {
  return run % 2 === 1 ? [...subjects] : [...subjects].reverse();
}
