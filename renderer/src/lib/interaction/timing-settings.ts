/**
 * The reviewer's "flag replies slower than" setting, in seconds, kept in the renderer's
 * localStorage (the app's own origin, app://voice-review, is a standard secure scheme, so it has
 * one) under {@link SLOW_REPLY_STORAGE_KEY}. It is a display preference, not account data, so
 * main never sees it. Whatever is stored is read tolerantly: anything that is not a number in
 * range (a hand-edited value, an older format) falls back to the default.
 */
import { DEFAULT_TURN_TIMING } from './analysis/turn-timing';
import { whenIdle } from '../idle';

/** localStorage key of the slow-reply threshold (a decimal number of seconds, as text). */
export const SLOW_REPLY_STORAGE_KEY = 'voice-review.slow-reply-seconds';
/** Smallest, largest and step of the threshold, in seconds. */
export const SLOW_REPLY_MIN_SECONDS = 0.5;
export const SLOW_REPLY_MAX_SECONDS = 10;
export const SLOW_REPLY_STEP_SECONDS = 0.5;

/**
 * `value` as a threshold in seconds, or null when it is not one: a finite number from 0.5 to 10
 * on the 0.5 s grid.
 */
export function parseSlowReplySeconds(value: unknown): number | null {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  if (!Number.isFinite(seconds) || seconds < SLOW_REPLY_MIN_SECONDS || seconds > SLOW_REPLY_MAX_SECONDS) return null;
  const steps = seconds / SLOW_REPLY_STEP_SECONDS;
  return Math.abs(steps - Math.round(steps)) < 1e-9 ? seconds : null;
}

/** localStorage, or null where there is none or it refuses access. */
function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The stored threshold in seconds, or the default (1.5 s) when none is stored or it is unreadable. */
export function loadSlowReplySeconds(): number {
  let stored: string | null;
  try {
    stored = storage()?.getItem(SLOW_REPLY_STORAGE_KEY) ?? null;
  } catch {
    stored = null;
  }
  return parseSlowReplySeconds(stored) ?? DEFAULT_TURN_TIMING.slowGapSeconds;
}

/**
 * Reads the threshold once while the page is idle after start: the first access to localStorage
 * opens its database, a noticeable pause that would otherwise fall in the middle of showing the
 * first call, before its recording starts loading. Later reads are quick.
 */
export function warmUpTimingSettings(): void {
  whenIdle(() => void loadSlowReplySeconds(), 2000);
}

/**
 * Stores `seconds` as the threshold.
 * @returns false (nothing stored) when `seconds` is not a valid threshold or storage refused it
 */
export function saveSlowReplySeconds(seconds: number): boolean {
  if (parseSlowReplySeconds(seconds) === null) return false;
  try {
    const store = storage();
    if (!store) return false;
    store.setItem(SLOW_REPLY_STORAGE_KEY, String(seconds));
    return true;
  } catch {
    return false;
  }
}
