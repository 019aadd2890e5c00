/**
 * The waveform's colours in the light and the dark theme. The page follows the system's setting
 * through CSS (`prefers-color-scheme` in app.css); wavesurfer draws on a canvas, which CSS cannot
 * colour, so its colours come from here: {@link prefersDark} is reactive (it follows the system's
 * setting as it changes), and {@link waveformColours}, {@link stereoLaneColours} and
 * {@link regionFills} give the palette for either theme.
 */
import type { SpeakerKind } from '../analysis/types';
import { STEREO_LANE_STYLES, WAVEFORM_STYLE } from './peaks';
import { REGION_FILLS } from './marks';

/** The colours of one lane of a stereo recording (wavesurfer's `splitChannels` entry). */
export interface LaneColours {
  waveColor: string;
  progressColor: string;
}

const scheme = $state({ dark: false });
let watching = false;

/** Starts following the system's colour scheme, once (matchMedia is missing without a layout engine). */
function watch(): void {
  if (watching || typeof window === 'undefined' || typeof window.matchMedia !== 'function') return;
  watching = true;
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  scheme.dark = query.matches;
  query.addEventListener('change', (event) => (scheme.dark = event.matches));
}

/** True while the system asks for dark colours (reactive: read it in an effect or a derived). */
export function prefersDark(): boolean {
  watch();
  return scheme.dark;
}

/** wavesurfer's colours (unplayed wave, played wave, cursor) for the light or the dark theme. */
export function waveformColours(dark: boolean): { waveColor: string; progressColor: string; cursorColor: string } {
  if (!dark) {
    return {
      waveColor: WAVEFORM_STYLE.waveColor,
      progressColor: WAVEFORM_STYLE.progressColor,
      cursorColor: WAVEFORM_STYLE.cursorColor,
    };
  }
  // Played is a lighter shade of the same hue than unplayed, never near-white (which reads as a selection).
  return { waveColor: '#4338ca', progressColor: '#818cf8', cursorColor: '#f8fafc' };
}

/** The colours of a stereo recording's lanes, indigo then teal, for the light or the dark theme. */
export function stereoLaneColours(dark: boolean): readonly [LaneColours, LaneColours] {
  if (!dark) return STEREO_LANE_STYLES;
  return [
    { waveColor: '#4338ca', progressColor: '#818cf8' },
    { waveColor: '#115e59', progressColor: '#2dd4bf' },
  ];
}

/**
 * Dark-theme region shading: lighter hues than the light theme's, at an opacity that stays
 * visible on the dark box (about twice the light theme's).
 */
const DARK_REGION_FILLS: Readonly<Record<SpeakerKind, string>> = {
  agent: 'rgba(165, 180, 252, 0.3)',
  user: 'rgba(94, 234, 212, 0.28)',
  event: 'rgba(163, 177, 198, 0.26)',
};

/** Shading of the role regions for the light or the dark theme. */
export function regionFills(dark: boolean): Readonly<Record<SpeakerKind, string>> {
  return dark ? DARK_REGION_FILLS : REGION_FILLS;
}
