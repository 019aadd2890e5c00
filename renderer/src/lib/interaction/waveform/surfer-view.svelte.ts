/**
 * The drawn side of the waveform player: creates wavesurfer.js (with its plugins, see surfer.ts)
 * once there is something to draw, redraws it in place as newer peaks arrive, keeps the marks
 * (role regions, flagged moments, search ticks) in step with their props, and zooms. Construct it
 * while a component initialises: its effects live as long as the component. Times in seconds.
 */
import { untrack } from 'svelte';
import type { FlaggedMoment, LaneRoles, RoleRegion, TimeSpan } from '../analysis/types';
import type { waveformLayout } from './peaks';
import { afterNextPaint } from '../../idle';
import { addTimeline, createSurfer, laneStyles, type Surfer } from './surfer';
import { prefersDark, waveformColours } from './theme.svelte';
import { WaveformMarks, type MarkHover } from './waveform-marks';
import { fitPxPerSec, maxZoomLevel, pxPerSecAt, stepZoom, WHEEL_STEP_PX } from './zoom';

/** What the view reads from its component, as getters so the effects follow them. */
export interface SurferViewSource {
  media: () => HTMLMediaElement | undefined;
  container: () => HTMLElement | undefined;
  /** What to draw (null while nothing is), and over how many seconds. */
  layout: () => ReturnType<typeof waveformLayout> | null;
  /** Lanes to draw (1 mono, 2 stereo, 0 while nothing is), a value that changes only with the lane count. */
  lanes: () => number;
  drawnSeconds: () => number | undefined;
  /** The recording's best known length (zoom and marks are placed on it). */
  duration: () => number;
  /** Height of one lane (the whole waveform for mono), in CSS pixels. */
  laneHeight: () => number;
  regions: () => readonly RoleRegion[];
  flags: () => readonly FlaggedMoment[];
  matchTimes: () => readonly number[];
  laneRoles: () => LaneRoles | null;
  /** The playback position, kept in view when zooming. */
  current: () => number;
  /** A flagged moment was clicked: play from there. */
  onSeek: (seconds: number) => void;
}

/** The player's wavesurfer and what is drawn on it; see the module comment. */
export class SurferView {
  /** True once wavesurfer has drawn the peaks. */
  drawn = $state(false);
  /** Zoom level (0 shows the whole recording); see zoom.ts. */
  zoomLevel = $state(0);
  /** Width of the waveform's view, in CSS pixels (0 until drawn). */
  viewWidth = $state(0);
  /** The role region under the mouse, or null. */
  hover = $state<MarkHover | null>(null);
  /** Pixels per second of the zoomed waveform (0 at level 0, where it fits the view). */
  private pxPerSec = $state(0);
  /** How far the zoomed waveform is scrolled from its start, CSS pixels. */
  private scrollLeftPx = $state(0);

  private readonly source: SurferViewSource;
  private surfer = $state.raw<Surfer | null>(null);
  private marks = $state.raw<WaveformMarks | null>(null);
  /** The peak arrays wavesurfer was created with (not given to it again). */
  private createdWith: Float32Array[] | null = null;
  /** Unused wheel travel towards the next Ctrl/Cmd+wheel zoom step. */
  private wheelTravel = 0;

  constructor(source: SurferViewSource) {
    this.source = source;
    $effect(() => this.create());
    $effect(() => {
      this.redraw();
    });
    // The lanes take their speakers' colours once known, and the theme's colours when it changes.
    $effect(() => {
      const styles = laneStyles(source.laneRoles(), prefersDark());
      const instance = this.surfer?.surfer;
      if (!instance || source.lanes() !== 2) return;
      const options = untrack(() => instance.options);
      if (JSON.stringify(options.splitChannels) === JSON.stringify(styles)) return;
      instance.setOptions({ splitChannels: styles });
      this.renderHeld();
    });
    // Marks follow their props without re-creating wavesurfer; regions and flags are placed on
    // the recording's length, so they are placed again when it changes.
    $effect(() => {
      const dark = prefersDark();
      if (source.duration() > 0)
        this.marks?.drawRegions(source.regions(), source.laneRoles(), this.source.lanes(), dark);
    });
    $effect(() => this.followTheme(prefersDark()));
    $effect(() => {
      if (source.duration() > 0) this.marks?.drawFlags(source.flags());
    });
    $effect(() => {
      this.marks?.drawTicks(source.matchTimes());
    });
    $effect(() => this.listenForWheel());
  }

  /** Highest zoom level for this recording in this view. */
  get maxZoom(): number {
    return maxZoomLevel(fitPxPerSec(this.viewWidth, this.source.duration()));
  }

  /**
   * The stretch of the recording the view shows across its width, in seconds: all of it unless
   * zoomed, else the scrolled window, so what is drawn over the view (the A–B loop) can be placed.
   */
  get viewSeconds(): TimeSpan {
    const whole = { startSeconds: 0, endSeconds: this.source.duration() };
    if (this.zoomLevel === 0 || !(this.pxPerSec > 0) || !(this.viewWidth > 0)) return whole;
    const startSeconds = this.scrollLeftPx / this.pxPerSec;
    return { startSeconds, endSeconds: startSeconds + this.viewWidth / this.pxPerSec };
  }

  /** Zooms in (1) or out (-1) one level, keeping the playback position in view. */
  zoomBy(step: 1 | -1): void {
    const instance = this.surfer?.surfer;
    if (!instance) return;
    const fit = fitPxPerSec(this.viewWidth || instance.getWidth(), this.source.duration());
    const level = stepZoom(this.zoomLevel, step, fit);
    if (level === this.zoomLevel) return;
    this.zoomLevel = level;
    const pxPerSec = pxPerSecAt(level, fit);
    instance.zoom(pxPerSec);
    this.pxPerSec = pxPerSec;
    if (pxPerSec > 0) instance.setScrollTime(Math.max(0, this.source.current() - instance.getWidth() / pxPerSec / 2));
    this.scrollLeftPx = instance.getScroll();
  }

  // wavesurfer draws on the same media element once the peaks are there; it follows the
  // element's time by itself, and clicks or drags on the waveform seek that element.
  // It is created once there is something to draw (again only if the lane count changes).
  private create(): (() => void) | undefined {
    const media = this.source.media();
    const container = this.source.container();
    const lanes = this.source.lanes();
    const data = untrack(() => this.source.layout());
    const durationSeconds = untrack(() => this.source.drawnSeconds());
    if (!media || !container || lanes === 0 || !data || !durationSeconds) return;
    this.createdWith = data.channelData;
    const created = untrack(() =>
      createSurfer({
        container,
        media,
        ...data,
        durationSeconds,
        laneHeight: this.source.laneHeight(),
        laneRoles: this.source.laneRoles(),
        dark: prefersDark(),
      }),
    );
    const instance = created.surfer;
    const measure = () => (this.viewWidth = instance.getWidth());
    let cancelDetails: (() => void) | null = null;
    instance.on('ready', () => {
      this.drawn = true;
      measure();
      // Drawn while paused part-way: show the progress at once, not on the next time update.
      if (media.paused && media.currentTime > 0) instance.setTime(media.currentTime);
      // The waveform is painted first; the timeline's labels and the marks (hundreds of regions
      // on a long call, and the analysis they come from) follow in a task after that frame.
      cancelDetails ??= afterNextPaint(() => {
        addTimeline(instance, durationSeconds);
        this.marks = new WaveformMarks(created, { onHover: (h) => (this.hover = h), onSeek: this.source.onSeek });
      });
    });
    instance.on('resize', measure);
    // Scrolled by the reviewer, or following playback while zoomed.
    instance.on('scroll', (_start, _end, leftPx) => (this.scrollLeftPx = leftPx));
    this.surfer = created;
    return () => {
      cancelDetails?.();
      this.marks?.destroy();
      this.marks = null;
      instance.destroy();
      this.surfer = null;
      this.drawn = false;
      this.zoomLevel = 0;
      this.pxPerSec = 0;
      this.scrollLeftPx = 0;
      this.hover = null;
    };
  }

  // The system switched between light and dark: the mono waveform and cursor take the other palette.
  private followTheme(dark: boolean): void {
    const instance = this.surfer?.surfer;
    if (!instance) return;
    const colours = waveformColours(dark);
    if (untrack(() => instance.options.waveColor) === colours.waveColor) return;
    instance.setOptions(colours);
    this.renderHeld();
  }

  // Newer partial peaks, then the final ones, redraw the same wavesurfer.
  private redraw(): void {
    const instance = this.surfer?.surfer;
    const data = this.source.layout();
    const durationSeconds = this.source.drawnSeconds();
    if (!instance || !data || !durationSeconds || data.channelData === this.createdWith) return;
    this.createdWith = null;
    instance.setOptions({ peaks: data.channelData, duration: durationSeconds });
    this.renderHeld();
  }

  // setOptions keeps new peaks but draws the old ones again: draw what wavesurfer now holds.
  private renderHeld(): void {
    const instance = this.surfer?.surfer;
    const decoded = instance?.getDecodedData();
    if (instance && decoded) void instance.getRenderer().render(decoded);
  }

  // Ctrl/Cmd + wheel over the waveform zooms (a listener that may prevent the page's own zoom).
  private listenForWheel(): (() => void) | undefined {
    const target = this.source.container();
    if (!target) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      this.wheelTravel += event.deltaY;
      if (Math.abs(this.wheelTravel) < WHEEL_STEP_PX) return;
      this.zoomBy(this.wheelTravel < 0 ? 1 : -1);
      this.wheelTravel = 0;
    };
    target.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      target.removeEventListener('wheel', onWheel);
    };
  }
}
