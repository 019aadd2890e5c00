/**
 * Creates the player's wavesurfer.js instance with its plugins: a hover line with the time under
 * the mouse and the regions plugin that draws role regions and flagged moments (see
 * WaveformMarks); the timeline of mm:ss labels under the waveform is added by {@link addTimeline}. wavesurfer only draws: it is given the
 * player's media element plus peaks and a duration, so it neither fetches nor decodes.
 */
import WaveSurfer from 'wavesurfer.js';
import HoverPlugin from 'wavesurfer.js/dist/plugins/hover.esm.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';
import { formatClock } from '../../format';
import type { LaneRoles } from '../analysis/types';
import { WAVEFORM_STYLE } from './peaks';
import { stereoLaneColours, waveformColours, type LaneColours } from './theme.svelte';

/** Height of the timeline under the waveform, in CSS pixels. */
export const TIMELINE_HEIGHT = 18;

/** Most labelled notches on the timeline (each costs the plugin a layout pass when drawn). */
const TIMELINE_MAX_NOTCHES = 12;
/** Steps the timeline's notches may be apart, in seconds (whole, readable clock steps). */
const TIMELINE_STEPS_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];

/**
 * Seconds between the timeline's labelled notches for a recording of `durationSeconds`: the
 * smallest clock step that gives at most {@link TIMELINE_MAX_NOTCHES} notches (a 1-minute call is
 * labelled every 5 s, a 40-minute one every 5 minutes). The timeline plugin measures every label
 * it places, so its own default (a notch per second or more) would cost a 40-minute call hundreds
 * of layouts each time the waveform is drawn.
 */
export function timelineStepSeconds(durationSeconds: number): number {
  const wanted = durationSeconds / TIMELINE_MAX_NOTCHES;
  return TIMELINE_STEPS_SECONDS.find((step) => step >= wanted) ?? Math.ceil(wanted / 3600) * 3600;
}

/** What {@link createSurfer} needs: where to draw, the media element, and what to draw. */
export interface SurferSetup {
  container: HTMLElement;
  media: HTMLMediaElement;
  /** wavesurfer `peaks` (see waveformLayout). */
  channelData: Float32Array[];
  /** 1 for mono, 2 for stereo (one lane per channel). */
  lanes: number;
  durationSeconds: number;
  /** Height of one lane (the whole waveform for mono), in CSS pixels. */
  laneHeight: number;
  /** Which lane carries whom (colours the lanes), or null. */
  laneRoles: LaneRoles | null;
  /** Draw in the dark theme's colours. */
  dark: boolean;
}

/** The player's wavesurfer and its regions plugin (for role regions and flags). */
export interface Surfer {
  surfer: WaveSurfer;
  regions: ReturnType<typeof RegionsPlugin.create>;
}

/**
 * Creates the wavesurfer of {@link SurferSetup}. Zoomed in, the view follows playback, keeping the
 * cursor in the middle (`autoScroll`, `autoCenter`); the scroll bar is hidden so the box keeps
 * its height (the view is moved by playback, clicks, and horizontal wheel or trackpad motion).
 */
export function createSurfer(setup: SurferSetup): Surfer {
  const surfer = WaveSurfer.create({
    container: setup.container,
    media: setup.media,
    peaks: setup.channelData,
    duration: setup.durationSeconds,
    height: setup.laneHeight,
    ...WAVEFORM_STYLE,
    ...waveformColours(setup.dark),
    ...(setup.lanes === 2 ? { splitChannels: laneStyles(setup.laneRoles, setup.dark) } : {}),
    autoScroll: true,
    autoCenter: true,
    hideScrollbar: true,
    plugins: [
      HoverPlugin.create({
        lineColor: 'var(--muted)',
        lineWidth: 1,
        labelBackground: 'var(--tooltip-bg)',
        labelColor: 'var(--tooltip-text)',
        labelSize: 11,
        formatTimeCallback: formatClock,
      }),
    ],
  });
  const regions = surfer.registerPlugin(RegionsPlugin.create());
  return { surfer, regions };
}

/**
 * Adds the timeline of mm:ss labels under `surfer`'s waveform (created without it, so the waveform
 * reaches the screen first: the plugin lays the page out once per label it places). Its space under
 * the waveform is reserved by the player's box ({@link TIMELINE_HEIGHT}), so nothing moves.
 * @param durationSeconds the recording's length, which sets the labels' step (timelineStepSeconds)
 */
export function addTimeline(surfer: WaveSurfer, durationSeconds: number): void {
  const step = timelineStepSeconds(durationSeconds);
  surfer.registerPlugin(
    TimelinePlugin.create({
      height: TIMELINE_HEIGHT,
      // Every notch labelled (intervals in seconds).
      timeInterval: step,
      primaryLabelInterval: step,
      secondaryLabelInterval: step,
      formatTimeCallback: formatClock,
      secondaryLabelOpacity: 0.5,
      // The page's colours (custom properties reach into wavesurfer's shadow root).
      style: { fontSize: '10.5px', color: 'var(--muted)' },
    }),
  );
}

/**
 * Colours of the two lanes (wavesurfer's `splitChannels`), left then right: the agent's lane in the
 * agent's indigo and the caller's in teal, as the transcript colours them, once the lanes are
 * known; otherwise indigo on the left and teal on the right.
 */
export function laneStyles(laneRoles: LaneRoles | null, dark = false): LaneColours[] {
  const [indigo, teal] = stereoLaneColours(dark);
  return laneRoles?.kind === 'inferred' && laneRoles.agentChannel === 1 ? [teal, indigo] : [indigo, teal];
}
