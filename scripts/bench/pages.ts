/**
 * Browser plumbing of the benchmark: a fresh Chromium (new profile) per measurement, pages with
 * the agent (scripts/bench/agent.js) and, on the app, the build's preload; waiting on the page's
 * own timestamps.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../test/e2e/harness';
import type { AppProcess } from './app-process';

const AGENT = readFileSync(join(__dirname, 'agent.js'), 'utf8');

/** Longest wait for one measurement to finish, ms (the 2-hour call takes about a minute at 16 Mbit/s). */
export const STEP_TIMEOUT_MS = 180_000;

/** What agent.js keeps in window.__bench (performance.now() values, ms). */
export interface PageState {
  t0: number | null;
  playingAt: number | null;
  advancingAt: number | null;
  rowsAt: number | null;
  paintedAt: number | null;
  waveformAt: number | null;
  quarterAt: number | null;
  waveformError: string | null;
  waveformBox: { width: number; height: number } | null;
  error: string | null;
  playClickedAt: number | null;
  mediaAt: number | null;
}

export const readState = (page: Page): Promise<PageState> =>
  page.evaluate<PageState>(
    'JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(window.__bench).filter(([k, v]) => typeof v !== "function" && k !== "ipcResults"))))',
  );

/** A fresh browser (chromium.launch gives each a new temporary profile). */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

/**
 * Opens `url` in a new 1280x800 context with the agent; for the app (`app` given) the build's
 * preload first. Page errors are collected in `errors`.
 */
export async function openPage(
  browser: Browser,
  url: string,
  app: AppProcess | null,
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (app) await app.installPreload(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const prefix = app?.ipcBinding ? `window.__benchIpcBinding = ${JSON.stringify(app.ipcBinding)};\n` : '';
  await page.addInitScript({ content: prefix + AGENT });
  await page.goto(url);
  return { page, errors };
}

/**
 * Waits until `expression` (evaluated in the page) is true, or throws with the page's state. Polls
 * from Node every 20 ms: the app's CSP forbids the string evaluation page.waitForFunction uses.
 * The figures come from timestamps taken in the page, so the polling interval does not affect them.
 */
export async function waitFor(
  page: Page,
  expression: string,
  what: string,
  timeoutMs = STEP_TIMEOUT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let reason = 'timed out';
  while (Date.now() < deadline) {
    try {
      if (await page.evaluate<boolean>(`Boolean(${expression})`)) return;
    } catch (error) {
      reason = (error as Error).message.split('\n')[0] ?? 'evaluation failed';
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const state = await readState(page).catch(() => null);
  throw new Error(`Gave up waiting for ${what} after ${timeoutMs} ms (${reason}); page state ${JSON.stringify(state)}`);
}

/** Waits until the page's performance.now() reaches `at`. */
export async function waitUntilPageTime(page: Page, at: number): Promise<void> {
  const now = await page.evaluate<number>('performance.now()');
  if (at > now) await new Promise((r) => setTimeout(r, at - now));
}

/**
 * Plays a quarter second of silence (/bench/warmup.wav, same origin, so the app's CSP allows it)
 * so that every subject starts with Chromium's audio output already running: the one-time start
 * of the audio stack is not part of anyone's first audio or memory.
 * @throws Error when the sound did not play
 */
export async function warmUp(page: Page): Promise<void> {
  if (!(await page.evaluate<boolean>('window.__bench.warmUp()'))) throw new Error('The warm-up sound did not play');
}

export const FIRST_AUDIO_DONE = 'window.__bench.advancingAt !== null || window.__bench.error !== null';
export const WAVEFORM_DONE =
  'window.__bench.waveformAt !== null || window.__bench.waveformError !== null || window.__bench.error !== null';

/** Opens the app (or reloads it) and puts `sid` in the SID field. */
export async function openApp(page: Page, origin: string, sid: string): Promise<void> {
  if (page.url() !== `${origin}/index.html`) await page.goto(`${origin}/index.html`);
  else await page.reload();
  const field = page.getByLabel('Interaction SID');
  await field.waitFor({ timeout: 20_000 });
  await field.fill(sid);
}
