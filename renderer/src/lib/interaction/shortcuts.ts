/**
 * The Calls view's keyboard shortcuts, as data: which key does what, and the words the
 * shortcut sheet shows. The view's key handler (review-keys.ts) and the sheet both read
 * {@link SHORTCUTS}, so a shortcut is added or changed in one place.
 */

/** What a shortcut does. Seconds are relative moves of the playback position (negative: back). */
export type ShortcutAction =
  | { kind: 'toggle-play' }
  | { kind: 'skip'; seconds: number }
  | { kind: 'speed'; direction: 1 | -1 }
  | { kind: 'entry'; direction: 1 | -1 }
  | { kind: 'flag'; direction: 1 | -1 }
  | { kind: 'search' }
  | { kind: 'note' }
  | { kind: 'help' }
  | { kind: 'queue-step'; direction: 1 | -1 }
  | { kind: 'mark-reviewed' }
  | { kind: 'loop' }
  | { kind: 'skip-silences' }
  | { kind: 'levelling' };

/**
 * One key press that triggers a shortcut.
 * - `key`: `KeyboardEvent.key`; a single character is compared without case ("k" matches "K").
 * - `shift`: true (Shift must be held), false (must not be), absent (either).
 * - `mod`: Ctrl or Cmd must be held (and Alt must not); without it, Ctrl, Cmd and Alt must not be.
 * - `alt`: Alt (Option) must be held, and Ctrl, Cmd and Shift must not be.
 */
export interface KeyChord {
  key: string;
  shift?: boolean;
  mod?: boolean;
  alt?: boolean;
}

/** A shortcut: the keys that trigger it, what it does, and how the sheet names them. */
export interface Shortcut {
  chords: KeyChord[];
  /** The keys as people read them, e.g. ["Space", "K"]. */
  keys: string[];
  /** What it does, in a few words ("Play or pause"). */
  description: string;
  action: ShortcutAction;
}

/** Seconds the arrow keys move playback; with Shift, {@link SHIFT_ARROW_SKIP_SECONDS}. */
export const ARROW_SKIP_SECONDS = 5;
/** Seconds Shift with an arrow key moves playback. */
export const SHIFT_ARROW_SKIP_SECONDS = 30;

/** A move of the playback position by `seconds` (negative: back). */
const skip = (seconds: number): ShortcutAction => ({ kind: 'skip', seconds });

/**
 * A shortcut on one key (`shift` as in {@link KeyChord}), shown as `label`.
 */
function onKey(key: string, label: string, description: string, action: ShortcutAction, shift?: boolean): Shortcut {
  return { chords: [shift === undefined ? { key } : { key, shift }], keys: [label], description, action };
}

/** Every shortcut of the Calls view, in the order the sheet lists them. */
export const SHORTCUTS: readonly Shortcut[] = [
  {
    chords: [{ key: ' ' }, { key: 'k' }],
    keys: ['Space', 'K'],
    description: 'Play or pause',
    action: { kind: 'toggle-play' },
  },
  onKey('j', 'J', 'Back 10 seconds', skip(-10)),
  onKey('l', 'L', 'Forward 10 seconds', skip(10)),
  onKey('ArrowLeft', '←', `Back ${ARROW_SKIP_SECONDS} seconds`, skip(-ARROW_SKIP_SECONDS), false),
  onKey('ArrowRight', '→', `Forward ${ARROW_SKIP_SECONDS} seconds`, skip(ARROW_SKIP_SECONDS), false),
  onKey('ArrowLeft', 'Shift+←', `Back ${SHIFT_ARROW_SKIP_SECONDS} seconds`, skip(-SHIFT_ARROW_SKIP_SECONDS), true),
  onKey('ArrowRight', 'Shift+→', `Forward ${SHIFT_ARROW_SKIP_SECONDS} seconds`, skip(SHIFT_ARROW_SKIP_SECONDS), true),
  onKey('[', '[', 'Slower', { kind: 'speed', direction: -1 }),
  onKey(']', ']', 'Faster', { kind: 'speed', direction: 1 }),
  onKey('ArrowUp', '↑', 'Previous transcript entry', { kind: 'entry', direction: -1 }, false),
  onKey('ArrowDown', '↓', 'Next transcript entry', { kind: 'entry', direction: 1 }, false),
  onKey('n', 'N', 'Next flagged moment', { kind: 'flag', direction: 1 }),
  onKey('p', 'P', 'Previous flagged moment', { kind: 'flag', direction: -1 }),
  {
    chords: [{ key: '/' }, { key: 'f', mod: true }],
    keys: ['/', 'Ctrl+F'],
    description: 'Search the transcript',
    action: { kind: 'search' },
  },
  onKey('m', 'M', 'Add a review note at the playback time', { kind: 'note' }),
  onKey('?', '?', 'Show these shortcuts', { kind: 'help' }),
  {
    chords: [{ key: 'ArrowDown', alt: true }],
    keys: ['Alt+↓'],
    description: 'Next call in the queue',
    action: { kind: 'queue-step', direction: 1 },
  },
  {
    chords: [{ key: 'ArrowUp', alt: true }],
    keys: ['Alt+↑'],
    description: 'Previous call in the queue',
    action: { kind: 'queue-step', direction: -1 },
  },
  onKey('r', 'R', 'Mark the call reviewed (again: not reviewed)', { kind: 'mark-reviewed' }),
  onKey('a', 'A', 'Loop: set A, then B; again: clear', { kind: 'loop' }),
  onKey('s', 'S', 'Skip silences on or off', { kind: 'skip-silences' }),
  onKey('v', 'V', 'Level a quiet lane on or off (two-lane calls)', { kind: 'levelling' }),
];

/** The keys of the first shortcut doing `kind`, as people read them ("A"), for buttons' tooltips. */
export function keysOf(kind: ShortcutAction['kind']): string {
  return SHORTCUTS.find((shortcut) => shortcut.action.kind === kind)?.keys.join(' or ') ?? '';
}

/**
 * The keys of the first shortcut doing `kind` in the form of the `aria-keyshortcuts` attribute
 * ("G", "Control+F Meta+F", "Alt+ArrowDown"), so a button announces the key that does what it does.
 */
export function ariaKeysOf(kind: ShortcutAction['kind']): string {
  const shortcut = SHORTCUTS.find((s) => s.action.kind === kind);
  return (shortcut?.chords ?? []).flatMap(ariaChords).join(' ');
}

/** One chord as `aria-keyshortcuts` names it (Ctrl-or-Cmd as both of them). */
function ariaChords(chord: KeyChord): string[] {
  const key = chord.key === ' ' ? 'Space' : chord.key.length === 1 ? chord.key.toUpperCase() : chord.key;
  if (chord.mod) return [`Control+${key}`, `Meta+${key}`];
  if (chord.alt) return [`Alt+${key}`];
  return [chord.shift ? `Shift+${key}` : key];
}

/** True for the actions on the review queue, which the Calls view carries out (not the call's review). */
export function isQueueAction(action: ShortcutAction): boolean {
  return action.kind === 'queue-step' || action.kind === 'mark-reviewed';
}

/** The parts of a key event a shortcut is matched on. */
export type KeyPress = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>;

/** True when `press` is `chord`: the same key, and the modifiers it asks for and no others (Shift aside). */
function matches(chord: KeyChord, press: KeyPress): boolean {
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (key !== chord.key) return false;
  if (chord.shift !== undefined && chord.shift !== press.shiftKey) return false;
  if (chord.mod) return (press.ctrlKey || press.metaKey) && !press.altKey && !press.shiftKey;
  if (chord.alt) return press.altKey && !press.ctrlKey && !press.metaKey && !press.shiftKey;
  return !press.ctrlKey && !press.metaKey && !press.altKey;
}

/** The shortcut a key press triggers, or null when it is none of them. */
export function shortcutFor(press: KeyPress): Shortcut | null {
  return SHORTCUTS.find((shortcut) => shortcut.chords.some((chord) => matches(chord, press))) ?? null;
}
