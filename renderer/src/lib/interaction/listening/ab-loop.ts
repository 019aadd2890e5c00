/**
 * The A–B loop over a stretch of the call: the reviewer marks A, then B (or picks a selected
 * range), and playback that reaches B goes back to A until the loop is cleared. Pure state: the
 * player reads {@link loopJump} on each clock reading and seeks when it says so. Seconds.
 */

/** Shortest loop, seconds (shorter would stutter). */
export const MIN_LOOP_SECONDS = 0.25;

/** No loop; A marked and B awaited; or a loop from A to B. */
export type AbLoop =
  { kind: 'off' } | { kind: 'marked'; aSeconds: number } | { kind: 'looping'; aSeconds: number; bSeconds: number };

export const NO_LOOP: AbLoop = { kind: 'off' };

/**
 * The loop after the reviewer presses the loop key at `timeSeconds`: off → A marked there;
 * A marked → looping from A to here (A and B swapped when here is before A; a press less than
 * {@link MIN_LOOP_SECONDS} from A keeps waiting for B); looping → off.
 */
export function pressLoop(loop: AbLoop, timeSeconds: number): AbLoop {
  if (loop.kind === 'off') return { kind: 'marked', aSeconds: timeSeconds };
  if (loop.kind === 'looping') return NO_LOOP;
  return loopOver(loop.aSeconds, timeSeconds) ?? loop;
}

/**
 * A loop over the range `fromSeconds`–`toSeconds` (a selected region, in either order), or null
 * when it is shorter than {@link MIN_LOOP_SECONDS}.
 */
export function loopOver(fromSeconds: number, toSeconds: number): AbLoop | null {
  const aSeconds = Math.min(fromSeconds, toSeconds);
  const bSeconds = Math.max(fromSeconds, toSeconds);
  return bSeconds - aSeconds >= MIN_LOOP_SECONDS ? { kind: 'looping', aSeconds, bSeconds } : null;
}

/**
 * Where to seek when playback went from `previousSeconds` to `currentSeconds` (two readings of
 * the clock while playing): back to A once B was reached from inside the loop, else null. A seek
 * (a step back, or forward by more than `maxStepSeconds`) leaves the loop be: it resumes when
 * playback comes back into it. Reaching the end of the recording inside the loop also goes back
 * to A (`endSeconds`: the recording's length).
 */
export function loopJump(
  loop: AbLoop,
  previousSeconds: number,
  currentSeconds: number,
  endSeconds = Infinity,
  maxStepSeconds = 1,
): number | null {
  if (loop.kind !== 'looping') return null;
  const step = currentSeconds - previousSeconds;
  if (!(step > 0) || step > maxStepSeconds) return null;
  const b = Math.min(loop.bSeconds, endSeconds);
  const wasInside = previousSeconds >= loop.aSeconds && previousSeconds < b;
  return wasInside && currentSeconds >= b ? loop.aSeconds : null;
}

/** Words for the loop's state, for the player's status and the button's label. */
export function describeLoop(loop: AbLoop, format: (seconds: number) => string): string {
  if (loop.kind === 'off') return 'No loop';
  if (loop.kind === 'marked') return `Loop from ${format(loop.aSeconds)}: press again at its end`;
  return `Looping ${format(loop.aSeconds)}–${format(loop.bSeconds)}`;
}
