/**
 * The harness as a checker: shows one interaction in the Calls view and reports what a
 * person (or a screen reader) would see there, read by roles and labels only: the call details,
 * the transcript's entry count, the Recording region's state and words (any note, alert or
 * status inside it, whatever the player shows them with), when the waveform was drawn, and, after
 * playing, the position reached and the highlighted transcript entry.
 *
 * Used by `npm run harness` (harness-cli.ts).
 */
import type { Locator, Page } from 'playwright-core';
import { activeEntry, mediaTimeSeconds, waveformDrawn } from './review-helpers';

/** What {@link checkInteraction} saw; printed by the harness as one JSON line. */
export interface InteractionReport {
  sid: string;
  /** Entries the transcript says it has (its heading: "Transcript 5,000 entries"). */
  transcriptEntries: number;
  recording: {
    /** `ready`: playable; `unavailable`: the view says why not; `loading`: still loading at the deadline. */
    state: 'ready' | 'unavailable' | 'loading';
    /** The view's own words about the recording (its note, alert or status text). */
    words: string;
  };
  /** Seconds from "Show call" until the waveform was drawn; null when it was not drawn. */
  waveformSeconds: number | null;
  /** What the view says instead of a waveform (when `waveformSeconds` is null and it says something). */
  waveformWords?: string;
  /** With `--play`: playback position reached, in seconds (null when nothing could play). */
  positionSeconds?: number | null;
  /** With `--play`: the highlighted transcript entry (0-based index and its spoken label), or null. */
  highlightedEntry?: { index: number; label: string } | null;
}

/** The interaction itself could not be shown; `message` holds the app's own words. */
export class NotShownError extends Error {}

/** Options of {@link checkInteraction}. */
export interface CheckOptions {
  /** Seconds of the recording to play before reporting the position; none when absent. */
  playSeconds?: number;
  /** How long each stage (call, recording, waveform) may take, in ms (default 30 s). */
  timeoutMs?: number;
}

/** Whitespace of the page's text as one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text of the first element `locator` finds, on one line, without the labels of its buttons (e.g. "Retry"). */
export async function wordsOf(locator: Locator): Promise<string> {
  return oneLine(
    await locator.first().evaluate((element) => {
      const copy = element.cloneNode(true) as HTMLElement;
      for (const button of copy.querySelectorAll('button')) button.remove();
      return copy.textContent;
    }),
  );
}

/**
 * Looks up `sid` and reports what the view shows (see {@link InteractionReport}).
 * @throws NotShownError with the app's words when the call cannot be shown (unknown SID, refused
 *   key, unreachable server), or with what the page says when nothing was shown in time.
 */
export async function checkInteraction(
  page: Page,
  sid: string,
  options: CheckOptions = {},
): Promise<InteractionReport> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const startedAt = Date.now();
  await page.getByLabel('Interaction SID').fill(sid);
  await page.getByRole('button', { name: 'Show call' }).click();
  await waitForCall(page, timeoutMs);

  const heading = await page.getByRole('heading', { name: /^Transcript/ }).innerText();
  const transcriptEntries = Number((/([\d,]+) entr/.exec(heading)?.[1] ?? '0').replaceAll(',', ''));
  const recording = await recordingState(page, timeoutMs);
  const report: InteractionReport = { sid, transcriptEntries, recording, waveformSeconds: null };
  if (recording.state === 'ready') Object.assign(report, await waveformTime(page, startedAt, timeoutMs));
  if (options.playSeconds !== undefined) {
    Object.assign(report, await play(page, recording.state === 'ready' ? options.playSeconds : null, timeoutMs));
  }
  return report;
}

/**
 * Waits until the call details are shown.
 * @throws NotShownError with the alert's words, the SID field's help, or what the page shows at the deadline
 */
async function waitForCall(page: Page, timeoutMs: number): Promise<void> {
  const details = page.getByRole('region', { name: 'Call details' });
  const alert = page.getByRole('alert');
  const badSid = page.locator('#sid-input[aria-invalid="true"]');
  const shown = await details
    .or(alert)
    .or(badSid)
    .first()
    .waitFor({ timeout: timeoutMs })
    .then(() => true)
    .catch(() => false);
  if (!shown) {
    const status = page.getByRole('status');
    const says = (await status.count()) > 0 ? await wordsOf(status) : 'nothing';
    throw new NotShownError(`Nothing was shown within ${timeoutMs / 1000} s; the page says: ${says}`);
  }
  if ((await details.count()) > 0) return;
  if ((await alert.count()) > 0) throw new NotShownError(await wordsOf(alert));
  throw new NotShownError(oneLine(await page.locator('#sid-help').innerText()));
}

/** Polls the Recording region until it is playable or says why not, or `timeoutMs` passes. */
async function recordingState(page: Page, timeoutMs: number): Promise<InteractionReport['recording']> {
  const region = page.getByRole('region', { name: 'Recording' });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const role of ['note', 'alert'] as const) {
      const said = region.getByRole(role);
      if ((await said.count()) > 0) return { state: 'unavailable', words: await wordsOf(said) };
    }
    if (await playable(page, region)) return { state: 'ready', words: 'The recording is ready to play.' };
    if (Date.now() > deadline) {
      const status = region.getByRole('status');
      const words = (await status.count()) > 0 ? await wordsOf(status) : 'The recording did not load.';
      return { state: 'loading', words };
    }
    await page.waitForTimeout(100);
  }
}

/**
 * True when the region's Play button is enabled, it shows no "Loading the recording" status, and
 * the page's media element has the recording's metadata (it can start playing).
 */
async function playable(page: Page, region: Locator): Promise<boolean> {
  const playButton = region.getByRole('button', { name: 'Play' });
  if ((await playButton.count()) === 0 || !(await playButton.isEnabled())) return false;
  if (
    (await region
      .getByRole('status')
      .filter({ hasText: /Loading the recording/i })
      .count()) > 0
  )
    return false;
  return page.evaluate(() => {
    const audio = document.querySelector('audio');
    return audio !== null && audio.error === null && audio.readyState >= HTMLMediaElement.HAVE_METADATA;
  });
}

/** Seconds from `startedAt` until the waveform is drawn, or what the view says instead. */
async function waveformTime(page: Page, startedAt: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const region = page.getByRole('region', { name: 'Recording' });
  const instead = region.getByText(/waveform could not be drawn|No waveform/);
  while (Date.now() <= deadline) {
    if (await waveformDrawn(page)) return { waveformSeconds: (Date.now() - startedAt) / 1000 };
    if ((await instead.count()) > 0) return { waveformSeconds: null, waveformWords: await wordsOf(instead) };
    await page.waitForTimeout(50);
  }
  return { waveformSeconds: null, waveformWords: `Still drawing after ${timeoutMs / 1000} s.` };
}

/** Plays until `seconds` (or the end), pauses, and reads the position and the highlighted entry. */
async function play(page: Page, seconds: number | null, timeoutMs: number) {
  if (seconds === null) return { positionSeconds: null, highlightedEntry: null };
  const region = page.getByRole('region', { name: 'Recording' });
  await region.getByRole('button', { name: 'Play' }).click();
  await page
    .waitForFunction(
      (target) => {
        const audio = document.querySelector('audio');
        return !audio || audio.ended || audio.currentTime >= target;
      },
      seconds,
      { timeout: seconds * 1000 + timeoutMs },
    )
    .catch(() => undefined);
  const pause = region.getByRole('button', { name: 'Pause' });
  if ((await pause.count()) > 0) await pause.click();
  const positionSeconds = Math.round((await mediaTimeSeconds(page)) * 100) / 100;
  const active = await activeEntry(page);
  if (active.index < 0) return { positionSeconds, highlightedEntry: null };
  const row = page.locator(`li[aria-posinset="${active.index + 1}"]`).getByRole('button');
  const label = (await row.getAttribute('aria-label')) ?? oneLine(active.text ?? '');
  return { positionSeconds, highlightedEntry: { index: active.index, label } };
}
