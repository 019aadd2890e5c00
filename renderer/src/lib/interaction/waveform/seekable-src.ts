/**
 * Moves the player's media element to the recording's seekable variant (an MP3 rewrapped in MP4
 * by main once downloaded: the same frames, indexed so Chromium seeks to the exact frame; a VBR
 * MP3 played directly lands seconds off after a seek, and one without a Xing header cannot reach
 * its last minutes). Both play the same sound on the same timeline, so the element keeps its
 * position, speed and playing state across the move.
 *
 * When: at once while paused; while playing, at the next pause or seek (the moment a seek would
 * go wrong), so linear listening is never interrupted. Should the variant fail to load, the
 * element goes back to the original at the same position.
 */

/** The parts of a media element the move reads and sets (an HTMLMediaElement). */
export type SeekableMedia = Pick<
  HTMLMediaElement,
  'src' | 'currentTime' | 'paused' | 'playbackRate' | 'duration' | 'play' | 'addEventListener' | 'removeEventListener'
>;

/**
 * Moves `media` to `src` (the seekable variant's URL) as the module comment says. Returns a
 * function that cancels a move not yet started (the view moved on); a move under way completes.
 * Does nothing when `media` already plays `src`.
 */
export function moveToSeekableSrc(media: SeekableMedia, src: string): () => void {
  if (media.src === src) return () => undefined;
  let cancelled = false;
  const triggers = ['pause', 'seeking'] as const;
  const detach = () => {
    for (const type of triggers) media.removeEventListener(type, onTrigger);
  };
  const onTrigger = () => {
    detach();
    if (!cancelled) switchTo(media, src);
  };
  if (media.paused) switchTo(media, src);
  else for (const type of triggers) media.addEventListener(type, onTrigger);
  return () => {
    cancelled = true;
    detach();
  };
}

/**
 * Loads `src` in `media` at the position it had (during a seek: the position sought), playing on
 * when it was playing; back to the original URL should `src` fail.
 */
function switchTo(media: SeekableMedia, src: string): void {
  const original = media.src;
  const at = media.currentTime;
  const rate = media.playbackRate;
  const play = !media.paused;
  const restore = () => {
    media.currentTime = Number.isFinite(media.duration) ? Math.min(at, media.duration) : at;
    media.playbackRate = rate;
    if (play) void media.play().catch(() => undefined);
  };
  const onLoaded = () => {
    media.removeEventListener('error', onError);
    restore();
  };
  const onError = () => {
    media.removeEventListener('loadedmetadata', onLoaded);
    media.addEventListener('loadedmetadata', restore, { once: true });
    media.src = original;
  };
  media.addEventListener('loadedmetadata', onLoaded, { once: true });
  media.addEventListener('error', onError, { once: true });
  media.src = src;
}
