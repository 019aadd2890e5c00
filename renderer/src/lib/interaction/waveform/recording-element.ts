/**
 * The player's media element, started ahead of the player: at "Show call" the call's recording
 * session (recording-session.svelte.ts) makes a detached `<audio>` on the URL main gives it, so
 * Chromium's media pipeline (the first request through main's recording protocol, demuxing, the
 * decoder) runs while the interaction is looked up and its view is built; the player then takes
 * that element instead of making one. Main's recording protocol waits for the same interaction
 * lookup (one GET), so the early request costs the server nothing.
 *
 * `crossOrigin = 'anonymous'`: the recording is fetched in CORS mode (main's recording protocol
 * allows the app's origin), so the lanes' mute and solo can read it through Web Audio; without it
 * a MediaElementAudioSourceNode outputs silence for another origin's media.
 *
 * `preload = 'metadata'`: only the first bytes are fetched until the user plays. Reading ahead
 * (`'auto'`) pulls the whole recording through the page's thread while the call's view is being
 * built, which delays a long call's waveform and does not bring its first audio any sooner.
 * Play works from the start: pressed before the metadata is in, playback begins as soon as the
 * element can play.
 */

/** A media element for the recording at `src`, fetching its first bytes once the task ends. */
export function createRecordingElement(src: string): HTMLAudioElement {
  const media = document.createElement('audio');
  media.crossOrigin = 'anonymous';
  media.preload = 'metadata';
  media.src = src;
  return media;
}

/** Stops `media`'s fetch and lets it go (no src, reloaded: Chromium drops its pipeline). */
export function stopRecordingElement(media: HTMLMediaElement): void {
  media.pause();
  media.removeAttribute('src');
  media.load();
}

/**
 * Longest a part of the call's view waits, in ms, for playback asked for before it was built
 * ({@link untilSounding}): the sound comes first, the view follows within half a second.
 */
export const SOUND_FIRST_MAX_MS = 500;

/** HTMLMediaElement.HAVE_FUTURE_DATA: enough data to move forward. */
const HAVE_FUTURE_DATA = 3;

/**
 * Resolves once `media` is sounding or will not be soon: at once when it is paused (nobody asked
 * for sound) or already playing; otherwise on its 'playing', 'pause' or 'error', or after
 * `maxMs` milliseconds, whichever comes first. Never rejects.
 */
export function untilSounding(media: HTMLMediaElement, maxMs: number): Promise<void> {
  if (media.paused || media.error || media.readyState >= HAVE_FUTURE_DATA) return Promise.resolve();
  return new Promise((resolve) => {
    const events = ['playing', 'pause', 'error'] as const;
    const done = () => {
      clearTimeout(timer);
      for (const type of events) media.removeEventListener(type, done);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    for (const type of events) media.addEventListener(type, done);
  });
}
