/**
 * The Calls view's keyboard shortcuts (renderer/src/lib/interaction/shortcuts.ts and
 * review-keys.ts): every key of the table acts on a stub player / transcript / sheet, keys with
 * Ctrl, Cmd or Alt do nothing (Ctrl/Cmd+F aside), and nothing acts while typing in a field, on a
 * key the focused element already handled, or while a dialog is open.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FlaggedMoment } from '../../../renderer/src/lib/interaction/analysis/types';
import { adjacentFlag, flagsByEntry } from '../../../renderer/src/lib/interaction/flagged-moments';
import {
  handleQueueKeydown,
  handleReviewKeydown,
  type ReviewKeyTargets,
} from '../../../renderer/src/lib/interaction/review-keys';
import {
  ariaKeysOf,
  isQueueAction,
  SHORTCUTS,
  shortcutFor,
  type KeyPress,
  type ShortcutAction,
} from '../../../renderer/src/lib/interaction/shortcuts';

function flag(startSeconds: number, kind: FlaggedMoment['kind'] = 'slow_turn', entryIndex: number | null = 1) {
  return { kind, startSeconds, endSeconds: startSeconds + 2, entryIndex, label: `Moment at ${startSeconds}` };
}
const FLAGS: FlaggedMoment[] = [flag(10), flag(30, 'talk_over', 4), flag(50, 'silence', null)];

/** A stub of everything the shortcuts act on, with the player at `timeSeconds`. */
function stubTargets(timeSeconds = 0) {
  const player = {
    seekTo: vi.fn<(s: number) => void>(),
    skipBy: vi.fn<(s: number) => void>(),
    togglePlay: vi.fn<() => void>(),
    stepSpeed: vi.fn<(d: 1 | -1) => void>(),
    currentTime: vi.fn(() => timeSeconds),
    pressLoop: vi.fn<() => void>(),
    toggleSkipSilences: vi.fn<() => void>(),
    toggleLevelling: vi.fn<() => void>(),
  };
  const targets = {
    player,
    flags: FLAGS,
    stepEntry: vi.fn<(d: 1 | -1) => void>(),
    focusSearch: vi.fn<() => void>(),
    openHelp: vi.fn<() => void>(),
    addNote: vi.fn<() => void>(),
  } satisfies ReviewKeyTargets;
  return targets;
}

/** Fires a keydown on `target` (the body by default) and hands it to the view's handler. */
function press(
  targets: ReviewKeyTargets,
  key: string,
  init: KeyboardEventInit = {},
  target: HTMLElement = document.body,
) {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  let handled = false;
  const listener = (e: KeyboardEvent) => (handled = handleReviewKeydown(e, targets));
  window.addEventListener('keydown', listener);
  target.dispatchEvent(event);
  window.removeEventListener('keydown', listener);
  return { handled, prevented: event.defaultPrevented };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('every shortcut acts on the stub', () => {
  const cases: Array<[string, KeyboardEventInit, (t: ReturnType<typeof stubTargets>) => void]> = [
    [' ', {}, (t) => expect(t.player.togglePlay).toHaveBeenCalledTimes(1)],
    ['k', {}, (t) => expect(t.player.togglePlay).toHaveBeenCalledTimes(1)],
    ['K', { shiftKey: true }, (t) => expect(t.player.togglePlay).toHaveBeenCalledTimes(1)],
    ['j', {}, (t) => expect(t.player.skipBy).toHaveBeenCalledWith(-10)],
    ['l', {}, (t) => expect(t.player.skipBy).toHaveBeenCalledWith(10)],
    ['ArrowLeft', {}, (t) => expect(t.player.skipBy).toHaveBeenCalledWith(-5)],
    ['ArrowRight', {}, (t) => expect(t.player.skipBy).toHaveBeenCalledWith(5)],
    ['ArrowLeft', { shiftKey: true }, (t) => expect(t.player.skipBy).toHaveBeenCalledWith(-30)],
    ['ArrowRight', { shiftKey: true }, (t) => expect(t.player.skipBy).toHaveBeenCalledWith(30)],
    ['[', {}, (t) => expect(t.player.stepSpeed).toHaveBeenCalledWith(-1)],
    [']', {}, (t) => expect(t.player.stepSpeed).toHaveBeenCalledWith(1)],
    ['ArrowUp', {}, (t) => expect(t.stepEntry).toHaveBeenCalledWith(-1)],
    ['ArrowDown', {}, (t) => expect(t.stepEntry).toHaveBeenCalledWith(1)],
    ['n', {}, (t) => expect(t.player.seekTo).toHaveBeenCalledWith(30)],
    ['p', {}, (t) => expect(t.player.seekTo).toHaveBeenCalledWith(10)],
    ['/', {}, (t) => expect(t.focusSearch).toHaveBeenCalledTimes(1)],
    ['f', { ctrlKey: true }, (t) => expect(t.focusSearch).toHaveBeenCalledTimes(1)],
    ['f', { metaKey: true }, (t) => expect(t.focusSearch).toHaveBeenCalledTimes(1)],
    ['m', {}, (t) => expect(t.addNote).toHaveBeenCalledTimes(1)],
    ['?', { shiftKey: true }, (t) => expect(t.openHelp).toHaveBeenCalledTimes(1)],
    ['a', {}, (t) => expect(t.player.pressLoop).toHaveBeenCalledTimes(1)],
    ['s', {}, (t) => expect(t.player.toggleSkipSilences).toHaveBeenCalledTimes(1)],
    ['v', {}, (t) => expect(t.player.toggleLevelling).toHaveBeenCalledTimes(1)],
  ];

  it.each(cases)('%s %o', (key, init, check) => {
    // Playback at 20 s: N goes to the moment at 30 s, P to the one at 10 s.
    const targets = stubTargets(20);
    const { handled, prevented } = press(targets, key, init);
    expect(handled).toBe(true);
    // Marked as handled, so Space and the arrows do not also scroll the page.
    expect(prevented).toBe(true);
    check(targets);
  });

  it('covers every shortcut of the table', () => {
    const keys = new Set(cases.map(([key]) => (key.length === 1 ? key.toLowerCase() : key)));
    for (const shortcut of SHORTCUTS.filter((s) => !isQueueAction(s.action))) {
      for (const chord of shortcut.chords) expect(keys).toContain(chord.key);
    }
  });

  it('does nothing to playback when the call has no recording', () => {
    const targets: ReviewKeyTargets = { ...stubTargets(), player: null };
    for (const key of [' ', 'j', 'ArrowRight', ']', 'n']) expect(press(targets, key).handled).toBe(true);
    expect(press(targets, '?', { shiftKey: true }).handled).toBe(true);
    expect(targets.openHelp).toHaveBeenCalledTimes(1);
  });
});

describe('the review queue’s keys', () => {
  /** Fires a keydown on the body and hands it to both handlers, as the Calls view and the call's review do. */
  function pressBoth(key: string, init: KeyboardEventInit = {}) {
    const queue = { step: vi.fn<(d: 1 | -1) => void>(), toggleReviewed: vi.fn<() => void>() };
    const review = stubTargets(20);
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    const results = { queue: false, review: false };
    const listener = (e: KeyboardEvent) => {
      results.review = handleReviewKeydown(e, review);
      results.queue = handleQueueKeydown(e, queue);
    };
    window.addEventListener('keydown', listener);
    document.body.dispatchEvent(event);
    window.removeEventListener('keydown', listener);
    return { queue, review, results };
  }

  it('moves through the queue with Alt+Down/Up and marks reviewed with R, touching nothing else', () => {
    const down = pressBoth('ArrowDown', { altKey: true });
    expect(down.results).toEqual({ queue: true, review: false });
    expect(down.queue.step).toHaveBeenCalledWith(1);
    expect(down.review.stepEntry).not.toHaveBeenCalled();
    expect(pressBoth('ArrowUp', { altKey: true }).queue.step).toHaveBeenCalledWith(-1);
    const r = pressBoth('r');
    expect(r.queue.toggleReviewed).toHaveBeenCalledTimes(1);
    expect(r.results.review).toBe(false);
  });

  it('leaves plain Up/Down to the transcript and Shift+arrows to skipping', () => {
    const plain = pressBoth('ArrowDown');
    expect(plain.results).toEqual({ queue: false, review: true });
    expect(plain.review.stepEntry).toHaveBeenCalledWith(1);
    const shifted = pressBoth('ArrowRight', { shiftKey: true });
    expect(shifted.results.queue).toBe(false);
    expect(shifted.review.player.skipBy).toHaveBeenCalledWith(30);
    expect(pressBoth('r', { ctrlKey: true }).results.queue).toBe(false);
  });
});

describe('keys that are not shortcuts here', () => {
  it('ignores Ctrl, Cmd and Alt with a shortcut key (the browser or the system keeps them)', () => {
    const targets = stubTargets(20);
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }]) {
      for (const key of [' ', 'k', 'j', 'ArrowLeft', 'ArrowUp', '[', 'n', '/']) {
        const { handled, prevented } = press(targets, key, init);
        expect(handled).toBe(false);
        expect(prevented).toBe(false);
      }
    }
    // Ctrl+Shift+F and Ctrl+Alt+F are not the search shortcut either.
    expect(press(targets, 'F', { ctrlKey: true, shiftKey: true }).handled).toBe(false);
    expect(press(targets, 'f', { ctrlKey: true, altKey: true }).handled).toBe(false);
    expect(targets.player.togglePlay).not.toHaveBeenCalled();
    expect(targets.player.skipBy).not.toHaveBeenCalled();
    expect(targets.focusSearch).not.toHaveBeenCalled();
  });

  it('ignores Shift+Up/Down and keys of no shortcut', () => {
    const targets = stubTargets();
    expect(press(targets, 'ArrowUp', { shiftKey: true }).handled).toBe(false);
    expect(press(targets, 'x').handled).toBe(false);
    expect(press(targets, 'Enter').handled).toBe(false);
    expect(targets.stepEntry).not.toHaveBeenCalled();
  });

  it('does nothing while typing in a text field, a number field, a text area, a list box or editable text', () => {
    const targets = stubTargets(20);
    const fields = [
      Object.assign(document.createElement('input'), { type: 'text' }),
      Object.assign(document.createElement('input'), { type: 'search' }),
      Object.assign(document.createElement('input'), { type: 'number' }),
      document.createElement('textarea'),
      document.createElement('select'),
      document.createElement('div'),
    ];
    fields.at(-1)?.setAttribute('contenteditable', 'true');
    for (const field of fields) {
      document.body.append(field);
      for (const key of [' ', 'k', 'j', 'l', 'ArrowLeft', 'ArrowRight', 'ArrowUp', '[', ']', 'n', 'p', '/', '?']) {
        expect(press(targets, key, {}, field)).toEqual({ handled: false, prevented: false });
      }
    }
    expect(Object.values(targets.player).every((spy) => spy.mock.calls.length === 0)).toBe(true);
    expect(targets.stepEntry).not.toHaveBeenCalled();
    expect(targets.openHelp).not.toHaveBeenCalled();
  });

  it('leaves Space to a focused button, but other shortcuts still work there', () => {
    const targets = stubTargets();
    const button = document.createElement('button');
    document.body.append(button);
    expect(press(targets, ' ', {}, button).handled).toBe(false);
    expect(press(targets, 'k', {}, button).handled).toBe(true);
    expect(press(targets, 'ArrowRight', {}, button).handled).toBe(true);
    expect(targets.player.togglePlay).toHaveBeenCalledTimes(1);
  });

  it('leaves a key the focused element already handled (the slider, a transcript row) alone', () => {
    const targets = stubTargets();
    const slider = document.createElement('div');
    slider.addEventListener('keydown', (e) => e.preventDefault());
    document.body.append(slider);
    expect(press(targets, 'ArrowRight', {}, slider).handled).toBe(false);
    expect(press(targets, ' ', {}, slider).handled).toBe(false);
    expect(targets.player.skipBy).not.toHaveBeenCalled();
    expect(targets.player.togglePlay).not.toHaveBeenCalled();
  });

  it('does nothing while a dialog is open over the view', () => {
    const targets = stubTargets();
    const dialog = document.createElement('dialog');
    dialog.setAttribute('open', '');
    document.body.append(dialog);
    expect(press(targets, 'k').handled).toBe(false);
    expect(press(targets, '?', { shiftKey: true }).handled).toBe(false);
    expect(targets.openHelp).not.toHaveBeenCalled();
  });
});

describe('flagged moments', () => {
  it('finds the next moment strictly after the time, and none past the last', () => {
    expect(adjacentFlag(FLAGS, 0, 1)?.startSeconds).toBe(10);
    // Just seeked to a moment: N goes on to the next one.
    expect(adjacentFlag(FLAGS, 10, 1)?.startSeconds).toBe(30);
    expect(adjacentFlag(FLAGS, 50, 1)).toBeNull();
    expect(adjacentFlag([], 0, 1)).toBeNull();
  });

  it('finds the previous moment, skipping the one playback has just entered', () => {
    expect(adjacentFlag(FLAGS, 30.5, -1)?.startSeconds).toBe(10);
    expect(adjacentFlag(FLAGS, 32, -1)?.startSeconds).toBe(30);
    expect(adjacentFlag(FLAGS, 10.5, -1)).toBeNull();
    expect(adjacentFlag(FLAGS, 100, -1)?.startSeconds).toBe(50);
  });

  it('groups moments by their entry, leaving out moments of no entry', () => {
    const grouped = flagsByEntry([...FLAGS, flag(40, 'slow_turn', 4)]);
    expect([...grouped.keys()]).toEqual([1, 4]);
    expect(grouped.get(4)?.map((f) => f.startSeconds)).toEqual([30, 40]);
  });
});

describe('the table', () => {
  it('maps each key to one shortcut only', () => {
    expect(
      shortcutFor({ key: 'ArrowLeft', shiftKey: false, ctrlKey: false, metaKey: false, altKey: false })?.action,
    ).toEqual({ kind: 'skip', seconds: -5 });
    const chords = SHORTCUTS.flatMap((s) =>
      s.chords.map((c) => `${c.key}|${String(c.shift)}|${String(c.mod)}|${String(c.alt)}`),
    );
    expect(new Set(chords).size).toBe(chords.length);
  });
});

describe('keys the buttons announce', () => {
  /** An `aria-keyshortcuts` token ("Alt+ArrowUp", "Shift+?", "Control+F", "M") as a key press. */
  function pressOf(token: string): KeyPress {
    const parts = token.split('+');
    const key = parts.pop() ?? '';
    return {
      key: key === 'Space' ? ' ' : key,
      shiftKey: parts.includes('Shift'),
      ctrlKey: parts.includes('Control'),
      metaKey: parts.includes('Meta'),
      altKey: parts.includes('Alt'),
    };
  }

  /** Every `aria-keyshortcuts` of the renderer's source, written out or taken from the table. */
  function announcedKeys(): Array<{ file: string; token: string }> {
    const sources = import.meta.glob<string>('../../../renderer/src/**/*.svelte', {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    return Object.entries(sources).flatMap(([file, text]) => {
      const written = [...text.matchAll(/aria-keyshortcuts="([^"]+)"/g)].map((m) => m[1] ?? '');
      const fromTable = [...text.matchAll(/aria-keyshortcuts=\{ariaKeysOf\('([a-z-]+)'\)\}/g)].map((m) =>
        ariaKeysOf(m[1] as ShortcutAction['kind']),
      );
      return [...written, ...fromTable].flatMap((keys) => keys.split(' ').map((token) => ({ file, token })));
    });
  }

  it('announces only keys of the table, each key for one shortcut', () => {
    const announced = announcedKeys();
    // The queue's, the sheet's, the search's, the note's, and the listening aids' at least.
    expect(announced.length).toBeGreaterThanOrEqual(9);
    const actionByKey = new Map<string, string>();
    for (const { file, token } of announced) {
      const shortcut = shortcutFor(pressOf(token));
      expect(shortcut, `${token} in ${file}`).not.toBeNull();
      const action = JSON.stringify(shortcut?.action);
      const key = token.toLowerCase();
      expect(actionByKey.get(key) ?? action, `${token} in ${file}`).toBe(action);
      actionByKey.set(key, action);
    }
  });

  it('names the table’s keys as aria-keyshortcuts does', () => {
    expect(ariaKeysOf('skip-silences')).toBe('S');
    expect(ariaKeysOf('toggle-play')).toBe('Space K');
    expect(ariaKeysOf('search')).toBe('/ Control+F Meta+F');
    expect(ariaKeysOf('queue-step')).toBe('Alt+ArrowDown');
  });
});
