/**
 * CPU priority of the peaks worker thread. Decoding a long recording is seconds of CPU; on a
 * machine with few cores it would otherwise share the CPU evenly with the renderer (the
 * transcript, Play, the playback highlight) and with main's event loop (IPC, the recording
 * protocol that feeds the player), and the first sound of a 40-minute call would wait for it.
 */
import { setPriority } from 'node:os';

/** The peaks thread's nice value on Linux (0 is normal, 19 the lowest priority). */
export const PEAKS_THREAD_NICE = 10;

/**
 * Lowers the calling thread's CPU priority to nice {@link PEAKS_THREAD_NICE}, on Linux only:
 * there a nice value belongs to one thread, while on macOS and Windows the same call would lower
 * the whole main process. Call it from the worker thread itself.
 * @returns true when lowered; false on other platforms or when the system refused (the thread
 *   then runs at its usual priority; never throws)
 */
export function lowerThisThreadsPriority(platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    setPriority(PEAKS_THREAD_NICE);
    return true;
  } catch {
    return false;
  }
}
