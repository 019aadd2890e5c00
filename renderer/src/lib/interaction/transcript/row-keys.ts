/**
 * What a key pressed on a transcript row does, pure: Up/Down/Home/End move between rows (the
 * entry buttons skip entries that cannot be played; the pick boxes visit every entry),
 * Shift+Up/Down extends the excerpt pick to the next entry and moves to its pick box, and Escape
 * clears the pick. Indexes are positions in the transcript, from 0.
 */
import type { LogEntry } from '$shared/domain';
import { adjacentTimedEntry } from './transcript';

/** Which control of a row: the entry's button (seeks) or its pick box (for excerpts). */
export type RowPart = 'seek' | 'pick';

/** What a row key does; null when the key is not the transcript's. */
export type RowKeyAction =
  | { kind: 'focus'; index: number | null; part: RowPart }
  | { kind: 'extend'; direction: 1 | -1 }
  | { kind: 'clear' }
  | null;

/** The part of a row `target` is (the pick box is a checkbox input). */
export function rowPartOf(target: EventTarget | null): RowPart {
  return target instanceof HTMLInputElement ? 'pick' : 'seek';
}

/**
 * The action of `key` pressed on `part` of row `index`.
 * @param picked true while an excerpt pick exists (Escape clears it; otherwise Escape is left alone)
 * @param canSeek false without a recording: entry buttons cannot be focused
 */
export function rowKeyAction(
  event: Pick<KeyboardEvent, 'key' | 'shiftKey'>,
  index: number,
  part: RowPart,
  context: { log: readonly LogEntry[]; canSeek: boolean; picked: boolean },
): RowKeyAction {
  const { log } = context;
  if (event.key === 'Escape') return context.picked ? { kind: 'clear' } : null;
  const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : null;
  if (step !== null && event.shiftKey) return { kind: 'extend', direction: step };
  let from: number;
  let direction: 1 | -1;
  if (step !== null) [from, direction] = [index, step];
  else if (event.key === 'Home') [from, direction] = [-1, 1];
  else if (event.key === 'End') [from, direction] = [log.length, -1];
  else return null;
  if (part === 'pick') {
    const target = from + direction;
    return { kind: 'focus', index: target >= 0 && target < log.length ? target : null, part };
  }
  return { kind: 'focus', index: context.canSeek ? adjacentTimedEntry(log, from, direction) : null, part };
}
