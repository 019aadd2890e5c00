/**
 * What a key press does in the Calls view: finds the shortcut ({@link shortcutFor}) and
 * acts on the player, the transcript or the shortcut sheet. Keys pressed while typing in a
 * field, or already handled by the element that has focus (the waveform slider and the
 * transcript rows handle their own keys and mark them with preventDefault), are left alone, so
 * one key never acts twice.
 */
import type { FlaggedMoment } from './analysis/types';
import { adjacentFlag } from './flagged-moments';
import { isQueueAction, shortcutFor, type ShortcutAction } from './shortcuts';

/** The player methods the shortcuts use (WaveformPlayer's; all in seconds). */
export interface ReviewPlayer {
  /** Seeks to `seconds` and plays. */
  seekTo: (seconds: number) => void;
  /** Moves playback by `deltaSeconds`, keeping play/pause. */
  skipBy: (deltaSeconds: number) => void;
  togglePlay: () => void;
  stepSpeed: (direction: 1 | -1) => void;
  currentTime: () => number;
  /** The A–B loop key at the playback time: sets A, then B, then clears. */
  pressLoop: () => void;
  /** Turns skipping silences on or off. */
  toggleSkipSilences: () => void;
  /** Turns the levelling of a two-lane recording's quiet lane on or off. */
  toggleLevelling: () => void;
}

/** What the shortcuts act on. */
export interface ReviewKeyTargets {
  /** The player, or null when the call has no recording (playback keys then do nothing). */
  player: ReviewPlayer | null;
  /** Flagged moments in time order. */
  flags: readonly FlaggedMoment[];
  /** Moves to the previous (-1) or next (1) transcript entry and seeks there. */
  stepEntry: (direction: 1 | -1) => void;
  focusSearch: () => void;
  openHelp: () => void;
  /** Adds a review note at the playback time (absent: M does nothing). */
  addNote?: () => void;
}

/** True when `target` takes typed text (a text or number field, a list box or editable content). */
export function takesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const editable = target.isContentEditable || target.closest('[contenteditable]:not([contenteditable="false"])');
  if (editable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) {
    return true;
  }
  const unTyped = ['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color', 'image'];
  return target instanceof HTMLInputElement && !unTyped.includes(target.type);
}

/** True when Space on `target` already means "press" (a button, link, checkbox…): it is left to it. */
function pressedBySpace(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('button, a[href], input, summary, [role="button"]') !== null;
}

/** Carries out `action` on `targets`. */
export function runShortcut(action: ShortcutAction, targets: ReviewKeyTargets): void {
  const { player } = targets;
  switch (action.kind) {
    case 'toggle-play':
      player?.togglePlay();
      break;
    case 'skip':
      player?.skipBy(action.seconds);
      break;
    case 'speed':
      player?.stepSpeed(action.direction);
      break;
    case 'entry':
      targets.stepEntry(action.direction);
      break;
    case 'flag': {
      if (!player) break;
      const flag = adjacentFlag(targets.flags, player.currentTime(), action.direction);
      if (flag) player.seekTo(flag.startSeconds);
      break;
    }
    case 'search':
      targets.focusSearch();
      break;
    case 'note':
      targets.addNote?.();
      break;
    case 'help':
      targets.openHelp();
      break;
    case 'loop':
      player?.pressLoop();
      break;
    case 'skip-silences':
      player?.toggleSkipSilences();
      break;
    case 'levelling':
      player?.toggleLevelling();
      break;
    case 'queue-step':
    case 'mark-reviewed':
      // The Calls view's own (handleQueueKeydown).
      break;
  }
}

/**
 * The shortcut a keydown on the page triggers, or null when it is none, when the user is typing
 * in a field, when the focused element already handled it, or when a dialog has the keyboard.
 */
function pageShortcut(event: KeyboardEvent) {
  if (event.defaultPrevented || event.isComposing || takesText(event.target)) return null;
  // A dialog open on top of the view (the shortcut sheet, a confirmation) has the keyboard.
  if (document.querySelector('dialog[open]')) return null;
  return shortcutFor(event);
}

/** What the review queue's keys act on (the Calls view). */
export interface QueueKeyTargets {
  /** Shows the next (1) or previous (-1) call of the queue. */
  step: (direction: 1 | -1) => void;
  /** Marks the call shown reviewed, or not reviewed when it already is. */
  toggleReviewed: () => void;
}

/**
 * Handles a keydown anywhere in the window for the review queue's shortcuts (Alt+↓/↑, R), with
 * the same rules as {@link handleReviewKeydown}.
 * @returns true when a queue shortcut acted (the event is then marked with preventDefault)
 */
export function handleQueueKeydown(event: KeyboardEvent, targets: QueueKeyTargets): boolean {
  const action = pageShortcut(event)?.action;
  if (!action || !isQueueAction(action)) return false;
  event.preventDefault();
  if (action.kind === 'queue-step') targets.step(action.direction);
  else targets.toggleReviewed();
  return true;
}

/**
 * Handles a keydown anywhere in the window for the Calls view.
 * @returns true when a shortcut acted (the event is then marked with preventDefault, so the page
 *   neither scrolls nor acts on it again)
 */
export function handleReviewKeydown(event: KeyboardEvent, targets: ReviewKeyTargets): boolean {
  const shortcut = pageShortcut(event);
  if (!shortcut || isQueueAction(shortcut.action)) return false;
  if (event.key === ' ' && pressedBySpace(event.target)) return false;
  event.preventDefault();
  runShortcut(shortcut.action, targets);
  return true;
}
