/**
 * File > Export… and File > Download Recording… from the native menu, handed from the app shell
 * (which receives menu commands) to the call shown: the Calls view's export controls act on
 * a new request; with no call shown, the view says to open one first.
 */

/** One menu request; `id` grows with every request, so choosing the item twice acts twice. */
export interface FileCommandRequest {
  id: number;
  command: 'export' | 'download';
}

const state = $state<{ current: FileCommandRequest | null }>({ current: null });
let nextId = 1;

/** The latest request, or null before any (read it inside an effect to follow it). */
export function fileCommand(): FileCommandRequest | null {
  return state.current;
}

/** Asks the call shown to export its transcript (the format is chosen there) or download its recording. */
export function requestFileCommand(command: FileCommandRequest['command']): void {
  state.current = { id: nextId++, command };
}
