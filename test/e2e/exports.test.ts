/**
 * Taking a call out of the app, end to end, by its buttons: the built renderer in Debian's
 * Chromium with the built preload, against the embedded demo service, main built by the app's
 * composition root with its save dialog stood in by a chooser the test answers (a path in a
 * temporary folder, or "cancelled"). Screenshot: the download's progress (download-progress.png). The export buttons save the transcript as SubRip and WebVTT,
 * read back with media-captions; "Download recording" saves the recording byte for byte as
 * served, shows its progress while a download held by the service runs, and Cancel leaves no
 * file; the recent calls list the lookups most recent first, and Clear forgets them.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseText, tokenizeVTTCue } from 'media-captions';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RecordingPeaks } from '../../electron/shared/contract';
import type { Interaction } from '../../electron/shared/domain';
import { speakerLabel } from '../../electron/shared/transcript-export';
import {
  createRecordingGate,
  generateRecording,
  startLongCallServer,
  type LongCallServer,
  type RecordingGate,
} from '../fixtures/long-call';
import { ensureBuilt } from './build';
import {
  ARTIFACTS_DIR,
  openDemoAfresh,
  ROOT,
  showInteraction,
  startHarness,
  type Harness,
  type SavePathChooser,
} from './harness';
import { checkPageErrorsEachTest } from './page-errors';

let h: Harness;
let saveDir: string;
/** Demo calls with a playable recording. */
let calls: Interaction[] = [];
/** What the save dialog's stand-in was asked, in order. */
const saveRequests: Array<Parameters<SavePathChooser>[0]> = [];
/** How the save dialog's stand-in answers: a path in `saveDir` under the suggested name, by default. */
let answerSave: SavePathChooser;

beforeAll(async () => {
  ensureBuilt();
  saveDir = mkdtempSync(join(tmpdir(), 'vr-e2e-saves-'));
  h = await startHarness({
    chooseSavePath: (request) => {
      saveRequests.push(request);
      return answerSave(request);
    },
  });
  await h.session.openDemo();
  for (const demo of (await h.session.info()).demoInteractions) {
    const result = await h.handlers.getInteraction([demo.sid]);
    if (result.ok && (result.value as Interaction).recording.available) calls.push(result.value as Interaction);
  }
  calls = calls.filter((c) => c.log.some((e) => e.offsetSeconds !== null));
  expect(calls.length, 'the demo seed has three calls with a recording and a timed transcript').toBeGreaterThanOrEqual(
    3,
  );
});

checkPageErrorsEachTest(() => h);

// Each test starts on a freshly loaded demo workspace, with an empty save folder and a save
// dialog that saves under the suggested name.
beforeEach(async () => {
  rmSync(saveDir, { recursive: true, force: true });
  saveDir = mkdtempSync(join(tmpdir(), 'vr-e2e-saves-'));
  saveRequests.length = 0;
  answerSave = (request) => Promise.resolve(join(saveDir, request.defaultName));
  await openDemoAfresh(h);
});

afterAll(async () => {
  await h.close();
  rmSync(saveDir, { recursive: true, force: true });
});

/** The export and download controls of the call shown. */
const controls = () => h.page.getByRole('group', { name: 'Export and download' });

/** Opens the call's Export menu, unless it is open. */
async function openExport(): Promise<void> {
  const opener = controls().getByRole('button', { name: 'Export', exact: true });
  if ((await opener.getAttribute('aria-expanded')) !== 'true') await opener.click();
}

/**
 * Waits until the controls say `pattern` (their live outcome line) and returns the file name it
 * names, when it names one.
 */
async function outcome(pattern: RegExp): Promise<string | null> {
  const line = controls().getByText(pattern);
  await line.waitFor({ timeout: 30_000 });
  return /saved as (.+)\.$/.exec(await line.innerText())?.[1] ?? null;
}

describe('export buttons', () => {
  it('save SubRip and WebVTT whose cues read back with the transcript’s times, voices and texts', async () => {
    const call = calls[0]!;
    await showInteraction(h.page, call.sid);
    const peaks = await h.handlers.getPeaks([call.sid]);
    const endSeconds = peaks.ok ? (peaks.value as RecordingPeaks).durationSeconds : null;
    const timed = call.log.filter((e) => e.offsetSeconds !== null);
    const starts = timed.map((e) => Math.round((e.offsetSeconds ?? 0) * 1000) / 1000);

    await openExport();

    await controls().getByRole('button', { name: 'Export transcript as SRT' }).click();
    const srtName = await outcome(/^Transcript saved as /);
    expect(srtName).toMatch(new RegExp(`^${call.sid}_\\d{4}-\\d\\d-\\d\\d_\\d{4}\\.srt$`));
    expect(saveRequests.at(-1)).toMatchObject({
      title: 'Export transcript',
      defaultName: srtName,
      filters: [{ name: 'SubRip subtitles', extensions: ['srt'] }],
    });
    const srt = await parseText(readFileSync(join(saveDir, srtName!), 'utf8'), { type: 'srt', strict: true });
    expect(srt.cues.map((c) => c.startTime)).toEqual(starts);
    expect(srt.cues.map((c) => c.text.split(':')[0])).toEqual(timed.map((e) => speakerLabel(e.role)));

    await openExport();

    await controls().getByRole('button', { name: 'Export transcript as VTT' }).click();
    const vttName = await outcome(/^Transcript saved as .*\.vtt\.$/);
    const parsed = await parseText(readFileSync(join(saveDir, vttName!), 'utf8'), { type: 'vtt', strict: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.map((c) => c.startTime)).toEqual(starts);
    for (const [i, cue] of parsed.cues.entries()) {
      expect(cue.endTime).toBeGreaterThan(cue.startTime);
      if (endSeconds !== null) expect(cue.endTime).toBeLessThanOrEqual(Math.max(endSeconds, cue.startTime + 0.5));
      const [voice] = tokenizeVTTCue(cue);
      expect(voice?.type === 'v' ? voice.voice : null).toBe(speakerLabel(timed[i]!.role));
    }
    expect(parsed.cues.map((c) => c.endTime).slice(0, -1)).toEqual(
      starts.slice(1).map((next, i) => (next > starts[i]! ? next : starts[i]! + 0.5)),
    );
  });

  it('save nothing when the save dialog is cancelled, and say so', async () => {
    answerSave = () => Promise.resolve(null);
    await showInteraction(h.page, calls[0]!.sid);
    await openExport();
    await controls().getByRole('button', { name: 'Export transcript as TXT' }).click();
    await outcome(/^Transcript: nothing saved\.$/);
    expect(saveRequests).toHaveLength(1);
    expect(readdirSync(saveDir)).toEqual([]);
  });
});

describe('the Download recording button', () => {
  it('saves the recording into the chosen folder, byte for byte as the demo serves it', async () => {
    const call = calls[1]!;
    await showInteraction(h.page, call.sid);
    await openExport();
    await controls().getByRole('button', { name: 'Download recording' }).click();
    const name = await outcome(/^Recording saved as /);
    expect(name).toMatch(/\.ogg$/);
    expect(saveRequests.at(-1)).toMatchObject({ title: 'Download recording', defaultName: name });
    const saved = readFileSync(join(saveDir, name!));
    const served = readFileSync(join(ROOT, 'resources', 'demo', 'recordings', `${call.sid}.ogg`));
    expect(saved.equals(served)).toBe(true);
  });

  describe('while the service holds the recording half-way', () => {
    /** Length of the generated call, seconds. */
    const CALL_SECONDS = 180;
    let file: string;
    let gate: RecordingGate;
    let held: LongCallServer;

    beforeAll(async () => {
      file = await generateRecording({ seconds: CALL_SECONDS, format: 'mp3' });
    });

    // A service of its own for each test: main downloads each recording URL once per run.
    beforeEach(async () => {
      gate = createRecordingGate(Math.floor(statSync(file).size / 2));
      held = await startLongCallServer({ recordings: [{ seconds: CALL_SECONDS, file, entries: 20 }], gate });
      const connected = await h.handlers.connect([{ name: 'Held', baseUrl: held.baseUrl, apiKey: held.apiKey }]);
      if (!connected.ok) throw new Error(`Could not connect to the held service: ${JSON.stringify(connected.error)}`);
      await h.page.reload();
      await h.page.getByLabel('Interaction SID').waitFor();
    });

    afterEach(async () => {
      gate.open();
      await held.close();
    });

    it('shows the progress; Cancel saves nothing; the next download saves it whole', async () => {
      await showInteraction(h.page, held.interactions[0]!.sid);
      await gate.reached;
      await openExport();
      await controls().getByRole('button', { name: 'Download recording' }).click();

      // The bytes so far out of the whole, on the bar and in words; the button waits meanwhile.
      const progress = controls().getByRole('progressbar', { name: 'Download progress' });
      const bar = () =>
        progress.evaluate((el) => ({ value: (el as HTMLProgressElement).value, max: (el as HTMLProgressElement).max }));
      await expect.poll(async () => (await bar()).value).toBeGreaterThan(0);
      expect((await bar()).max).toBe(statSync(file).size);
      await controls()
        .getByText(/^\d+\.\d MB of \d+\.\d MB$/)
        .waitFor();
      // A second download cannot start meanwhile.
      await openExport();
      expect(await controls().getByRole('button', { name: 'Download recording' }).isDisabled()).toBe(true);
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      await h.page.screenshot({
        path: join(ARTIFACTS_DIR, 'download-progress.png'),
        clip: { x: 0, y: 0, width: 1280, height: 260 },
      });

      await controls().getByRole('button', { name: 'Cancel download' }).click();
      await outcome(/^Recording: nothing saved\.$/);
      expect(await progress.count()).toBe(0);
      expect(readdirSync(saveDir)).toEqual([]);

      gate.open();
      await openExport();
      await controls().getByRole('button', { name: 'Download recording' }).click();
      const name = await outcome(/^Recording saved as /);
      expect(name).toMatch(/\.mp3$/);
      expect(readdirSync(saveDir)).toEqual([name]);
      expect(readFileSync(join(saveDir, name!)).equals(readFileSync(file))).toBe(true);
    });
  });
});

describe('recent calls', () => {
  it('lists the calls looked up, most recent first; Clear forgets them after asking', async () => {
    const recent = h.page.getByRole('region', { name: 'Recent calls' });
    const clear = recent.getByRole('button', { name: 'Clear' });
    // The list as main keeps it (earlier lookups in this run), once it has loaded.
    await recent.getByText('No calls opened in this workspace yet.').or(clear).first().waitFor();
    if ((await clear.count()) > 0) {
      await clear.click();
      await h.page.getByRole('dialog', { name: 'Clear recent calls?' }).getByRole('button', { name: 'Clear' }).click();
    }
    await recent.getByText('No calls opened in this workspace yet.').waitFor();

    for (const call of calls.slice(0, 3)) await showInteraction(h.page, call.sid);
    await openDemoAfresh(h);
    const opened = recent.getByRole('button', { name: /^Open call / });
    await expect
      .poll(() =>
        opened.evaluateAll((buttons) => buttons.map((b) => /interaction_[0-9a-f-]{36}/.exec(b.textContent)?.[0])),
      )
      .toEqual(
        calls
          .slice(0, 3)
          .reverse()
          .map((c) => c.sid),
      );

    await clear.click();
    await h.page.getByRole('dialog', { name: 'Clear recent calls?' }).getByRole('button', { name: 'Clear' }).click();
    await recent.getByText('No calls opened in this workspace yet.').waitFor();
  });
});
