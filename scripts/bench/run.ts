/**
 * `npm run bench` (not part of the tests); docs/performance.md explains the method and the figures.
 *
 * Builds the app into out-bench/ (and, with `--against <ref>`, that commit in a folder of its
 * own: scripts/bench/builds.ts), generates the calls (scripts/bench/calls.ts: 1-minute MP3;
 * 3-minute dual-channel µ-law WAV, WebM/Opus and M4A/AAC; 40-minute MP3; 2-hour dual-channel WAV;
 * made by scripts/bench/call-files.ts), and measures each build's main
 * (scripts/bench/app-server.ts, one child process per build) and its page in Debian's Chromium,
 * on loopback and at 16 Mbit/s, next to the references (scripts/bench/reference-pages.ts) served by
 * the far side (scripts/bench/service.ts). In every run, each subject of a cell is measured once,
 * back to back, in a fresh browser; the order alternates between runs. The report
 * (scripts/bench/report.ts) gives every target as the median of its per-run ratios with their
 * range; `--markdown FILE` writes it as Markdown too. Options: scripts/bench/args.ts (`USAGE`).
 */
import { statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { startAppProcess, waitIdle, type AppProcess } from './app-process';
import { CELL_CALL, orderForRun, parseArgs, USAGE, type Args } from './args';
import { againstRef, headCommit, ROOT, thisTree, type Build } from './builds';
import { callFile } from './call-files';
import { callsOnLink } from './calls';
import { CALL_NAMES, CALLS, startLink, type BenchLink, type CallName } from './link';
import {
  measureApp,
  measureBare,
  measureDownload,
  measureWaveSurfer,
  measureWaveSurferPeaks,
  type ViewContext,
} from './measure-views';
import { measureAppTranscripts, measurePlainTranscripts, type TranscriptContext } from './measure-transcript';
import { launch } from './pages';
import { referencePeaksFile } from './reference-peaks';
import { report } from './report';
import { toMarkdown, toText } from './report-format';
import { SampleStore } from './samples';
import { soak, type SoakResult } from './soak';
import { readNoisy, writeNoisy } from './targets';

const WAVESURFER_FILE = join(ROOT, 'node_modules/wavesurfer.js/dist/wavesurfer.esm.js');

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Runs `measure` in a fresh browser; a failure becomes a note of `subject`. @returns the Chromium version */
async function inBrowser(
  store: SampleStore,
  subject: string,
  measure: (browser: Awaited<ReturnType<typeof launch>>) => Promise<void>,
): Promise<string> {
  const browser = await launch();
  try {
    await measure(browser);
  } catch (error) {
    const message = (error as Error).message.slice(0, 300);
    store.note(subject, message);
    log(`  failed: ${message}`);
  } finally {
    await browser.close();
  }
  return browser.version();
}

/** One call's cell in one run: every subject once, in this run's order. */
async function measureCall(ctx: ViewContext, apps: AppProcess[], args: Args): Promise<string> {
  type Step = { name: string; measure: () => Promise<string> };
  const browserStep = (name: string, fn: (b: Awaited<ReturnType<typeof launch>>) => Promise<void>): Step => ({
    name,
    measure: () => inBrowser(ctx.store, name, fn),
  });
  const steps: Step[] = [];
  if (args.paths.includes('vr'))
    for (const app of apps) steps.push(browserStep(app.build.id, (b) => measureApp(b, ctx, app)));
  if (args.paths.includes('bare')) steps.push(browserStep('bare', (b) => measureBare(b, ctx)));
  if (args.paths.includes('wavesurfer')) steps.push(browserStep('wavesurfer', (b) => measureWaveSurfer(b, ctx)));
  if (args.paths.includes('peaks')) steps.push(browserStep('peaks', (b) => measureWaveSurferPeaks(b, ctx)));
  if (args.paths.includes('download') && ctx.link.name === '16 Mbit/s' && CALLS[ctx.call].long)
    steps.push({ name: 'download', measure: () => measureDownload(ctx).then(() => '') });
  let version = '';
  for (const step of orderForRun(steps, ctx.run)) {
    await waitIdle([...apps.map((a) => a.pid), ctx.link.pid]);
    log(`[${ctx.link.name}] run ${ctx.run}/${args.runs}: ${ctx.call} · ${step.name}`);
    version = (await step.measure()) || version;
  }
  return version;
}

/** The transcript cell in one run: each build and the plain list, in this run's order. */
async function measureTranscriptCell(ctx: TranscriptContext, apps: AppProcess[], args: Args): Promise<void> {
  const steps: Array<{ name: string; fn: (b: Awaited<ReturnType<typeof launch>>) => Promise<void> }> = [
    ...apps.map((app) => ({
      name: app.build.id,
      fn: (b: Awaited<ReturnType<typeof launch>>) => measureAppTranscripts(b, ctx, app),
    })),
    { name: 'plain', fn: (b) => measurePlainTranscripts(b, ctx) },
  ];
  for (const step of orderForRun(steps, ctx.run)) {
    await waitIdle([...apps.map((a) => a.pid), ctx.link.pid]);
    log(`[${ctx.link.name}] run ${ctx.run}/${args.runs}: transcripts · ${step.name}`);
    await inBrowser(ctx.store, step.name, step.fn);
  }
}

/** Every call's file (the far side serves them all; generated once, then read from the cache). */
async function generateFiles(): Promise<Record<CallName, string>> {
  const files = {} as Record<CallName, string>;
  for (const call of CALL_NAMES) files[call] = await callFile(call);
  return files;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`npm run bench -- [options]; see docs/performance.md\n${USAGE}\n`);
    return;
  }
  const started = performance.now();
  const loadStart = os.loadavg()[0]!;
  const builds: Build[] = [thisTree(args.build, log)];
  if (args.against) builds.push(await againstRef(args.against, log));
  const selfCheck = builds[1]?.commit === headCommit();
  if (args.updateNoisy && !selfCheck)
    throw new Error('--update-noisy: only a self-check (--against HEAD) may rewrite the list');
  const calls = args.cells.map((c) => CELL_CALL[c]).filter((c): c is CallName => c !== undefined);
  const transcript = args.cells.includes('transcript') && args.paths.includes('vr');
  const soakCell = args.cells.includes('soak') && args.paths.includes('vr');

  log('Generating recordings and reference peaks ...');
  const files = await generateFiles();
  const peaksFiles: Record<string, string> = {};
  if (args.paths.includes('peaks'))
    for (const call of calls) peaksFiles[files[call]] = await referencePeaksFile(files[call]);

  const store = new SampleStore();
  const soaks = new Map<string, SoakResult>();
  const waveformBox: ViewContext['waveformBox'] = new Map();
  let chromiumVersion = '';
  const apps: AppProcess[] = [];
  try {
    for (const build of builds) apps.push(await startAppProcess(build));
    for (const linkName of args.links) {
      const link: BenchLink = await startLink(linkName, files, peaksFiles, WAVESURFER_FILE);
      try {
        for (let run = 1; run <= args.runs; run++) {
          for (const app of apps) await app.freshStack({ name: `Long calls (${linkName})`, ...link.service });
          for (const call of callsOnLink(calls, linkName))
            chromiumVersion =
              (await measureCall({ store, run, link, call, waveformBox }, apps, args)) || chromiumVersion;
          if (transcript && linkName === args.links[0]) await measureTranscriptCell({ store, run, link }, apps, args);
        }
        if (soakCell && linkName === args.links[0]) {
          for (const app of apps) {
            log(`[${linkName}] soak · ${app.build.id} (${args.soakLookups} lookups)`);
            const browser = await launch();
            try {
              soaks.set(app.build.id, await soak(browser, app, args.soakLookups, log));
            } catch (error) {
              store.note(app.build.id, `soak: ${(error as Error).message.slice(0, 300)}`);
            } finally {
              await browser.close();
            }
          }
        }
      } finally {
        await link.close();
      }
    }
  } finally {
    for (const app of apps) await app.close();
  }

  const fileBytes = Object.fromEntries(CALL_NAMES.map((c) => [c, statSync(files[c]).size])) as Record<CallName, number>;
  const { blocks, unsteady } = report({
    store,
    builds,
    runs: args.runs,
    links: args.links,
    calls,
    transcript,
    fileBytes,
    soak: soaks,
    chromiumVersion,
    loadAverage: { start: loadStart, end: os.loadavg()[0]! },
    noisy: readNoisy(),
    selfCheck,
    elapsedSeconds: (performance.now() - started) / 1000,
  });
  process.stdout.write(toText(blocks));
  // BENCH_SAMPLES=<file>: every sample as JSON (a diagnostic; unset in real runs).
  if (process.env.BENCH_SAMPLES) writeFileSync(process.env.BENCH_SAMPLES, JSON.stringify(store.all(), null, 1));
  if (args.markdown) writeFileSync(args.markdown, toMarkdown(blocks));
  if (args.updateNoisy) {
    const command = ['npm run bench --', ...process.argv.slice(2)].join(' ');
    writeNoisy(
      unsteady,
      `${command} (${new Date().toISOString().slice(0, 10)}, ${os.cpus()[0]?.model ?? 'unknown CPU'})`,
    );
    log(`Wrote ${Object.keys(unsteady).length} unsteady figure(s) to scripts/bench/noisy-figures.json`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
