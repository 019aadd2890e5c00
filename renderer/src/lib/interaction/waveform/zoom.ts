/**
 * Zoom levels of the waveform. Level 0 fits the whole recording in the box; each level up doubles
 * the pixels per second, up to {@link MAX_PX_PER_SEC}. Values are wavesurfer's `minPxPerSec`.
 */

/** Most detail offered: pixels per second of recording at the highest zoom level. */
export const MAX_PX_PER_SEC = 300;

/** Wheel travel (deltaY, in pixels) that makes one zoom step, so a trackpad does not race. */
export const WHEEL_STEP_PX = 40;

/**
 * Pixels per second that fit the whole recording into `widthPx`, or 0 when either is unknown.
 * @param widthPx width of the waveform box, in CSS pixels
 */
export function fitPxPerSec(widthPx: number, durationSeconds: number): number {
  return widthPx > 0 && durationSeconds > 0 ? widthPx / durationSeconds : 0;
}

/** Highest zoom level for a recording that fits at `fit` pixels per second (0: no zoom possible). */
export function maxZoomLevel(fit: number): number {
  if (!(fit > 0) || fit >= MAX_PX_PER_SEC) return 0;
  return Math.ceil(Math.log2(MAX_PX_PER_SEC / fit));
}

/** wavesurfer's `minPxPerSec` for `level` (0 fits the recording, so 0). */
export function pxPerSecAt(level: number, fit: number): number {
  if (level <= 0 || !(fit > 0)) return 0;
  return Math.min(MAX_PX_PER_SEC, fit * 2 ** level);
}

/** `level + step`, kept between 0 and {@link maxZoomLevel}. */
export function stepZoom(level: number, step: number, fit: number): number {
  return Math.max(0, Math.min(maxZoomLevel(fit), level + step));
}
