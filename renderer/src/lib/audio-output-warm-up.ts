/**
 * Chromium starts its audio output (the audio service process, and the output device's details,
 * read on the page's own thread) the first time a page uses audio. Done when the first call's
 * player is created, it delays that call's view, so the first call of a session would paint its
 * transcript later than the next ones. So the output is started once the page is first idle
 * after it opens, while the person is still pasting a SID.
 */
import { whenIdle } from './idle';

/**
 * Creates a Web Audio context and closes it at once, when the page is first idle (nothing is
 * played; a page without Web Audio, or a machine without audio output, is left alone: the
 * player says so when it is used).
 * @returns a function that cancels the warm-up if it has not run
 */
export function warmUpAudioOutput(): () => void {
  return whenIdle(() => {
    const Context = globalThis.AudioContext;
    if (typeof Context !== 'function') return;
    try {
      void new Context().close().catch(() => undefined);
    } catch {
      // No audio output: nothing to warm up.
    }
  });
}
