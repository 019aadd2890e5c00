/**
 * What the player draws over its wavesurfer: role regions (as spans at the view's resolution, see
 * region-spans.ts) and flagged moments through the regions plugin, and search-match ticks in a
 * layer of its own inside wavesurfer's wrapper (which is as wide as the zoomed waveform and
 * scrolls with it, so positions in percent follow zoom and scrolling). Everything can be redrawn
 * on its own without re-creating wavesurfer. Times are in seconds.
 */
import type WaveSurfer from 'wavesurfer.js';
import type { Region } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import type { FlaggedMoment, LaneRoles, RoleRegion, SpeakerKind } from '../analysis/types';
import { FLAG_COLOURS, flagFill, mergeTicks, regionHoverText, TICK_COLOUR } from './marks';
import { regionAt, roleSpans, type RoleSpan, type SpanWindow } from './region-spans';
import { regionFills } from './theme.svelte';
import type { Surfer } from './surfer';

/** What a hover over a role region shows, and where (the mouse's x in the viewport). */
export interface MarkHover {
  text: string;
  clientX: number;
}

/** What the marks tell the player. */
export interface MarkHooks {
  /** The mouse entered a role region (its words), or left it (null). */
  onHover: (hover: MarkHover | null) => void;
  /** A flagged moment was clicked: play from `seconds`. */
  onSeek: (seconds: number) => void;
}

/** Draws and redraws the marks of one wavesurfer; see the module comment. */
export class WaveformMarks {
  private readonly surfer: WaveSurfer;
  private readonly plugin: Surfer['regions'];
  private readonly tickLayer: HTMLDivElement;
  /** The role spans drawn, by kind, stretch, lane and colour. */
  private readonly roleRegions = new KeyedRegions();
  private roles: RoleLayer = { regions: [], laneRoles: null, lanes: 0, dark: false };
  /** The stretch of time the drawn spans cover, and at how many seconds per pixel. */
  private drawnWindow: (SpanWindow & { secondsPerPx: number }) | null = null;
  private hovered: RoleRegion | null = null;
  /** The flagged moments drawn, by kind, stretch and label. */
  private readonly flagRegions = new KeyedRegions();
  private matchTimes: readonly number[] = [];
  private readonly tickPath: SVGPathElement;
  /** Width of the whole (zoomed) waveform in pixels, measured after zoom, redraw and resize; 0 = not yet. */
  private wrapperPx = 0;
  private readonly unsubscribe: Array<() => void> = [];
  /** The timer that lays the regions' layer out again (see holdLayerLayout), or null. */
  private layerRelease: ReturnType<typeof setTimeout> | null = null;

  constructor(
    { surfer, regions }: Surfer,
    private readonly hooks: MarkHooks,
  ) {
    this.surfer = surfer;
    this.plugin = regions;
    this.tickLayer = document.createElement('div');
    this.tickLayer.setAttribute('part', 'match-ticks');
    Object.assign(this.tickLayer.style, {
      position: 'absolute',
      inset: '0',
      zIndex: '6',
      pointerEvents: 'none',
    });
    this.tickPath = tickPathElement(this.tickLayer);
    surfer.getWrapper().appendChild(this.tickLayer);
    // Zooming or resizing changes the waveform's width and how many pixels apart the matches
    // are: measure again, merge again. (Registered before the spans follow these events.)
    const retick = () => {
      this.wrapperPx = 0;
      this.drawTicks(this.matchTimes);
    };
    for (const event of ['zoom', 'redraw', 'resize'] as const) this.unsubscribe.push(surfer.on(event, retick));
    // The spans follow the view: scrolled out of what is drawn, zoomed, resized or re-timed.
    const follow = () => {
      this.placeRoleSpans(false);
    };
    for (const event of ['scroll', 'zoom', 'redraw', 'resize'] as const)
      this.unsubscribe.push(surfer.on(event, follow));
    this.listenForHover();
  }

  /**
   * Draws the role regions, coloured by speaker kind, as spans of the view (see region-spans.ts).
   * On a stereo recording whose lanes are known, agent and caller spans sit in their own lane;
   * events span both. A hover anywhere over the waveform names the entry under the mouse.
   */
  drawRegions(regions: readonly RoleRegion[], laneRoles: LaneRoles | null, lanes: number, dark = false): void {
    this.roles = { regions, laneRoles, lanes, dark };
    this.placeRoleSpans(true);
  }

  /** Places the spans for the current view, unless those drawn already cover it at this zoom. */
  private placeRoleSpans(force: boolean): void {
    const wanted = this.viewWindow();
    const drawn = this.drawnWindow;
    if (!wanted) return;
    const covered =
      drawn !== null &&
      drawn.secondsPerPx === wanted.secondsPerPx &&
      drawn.startSeconds <= wanted.viewStart &&
      drawn.endSeconds >= wanted.viewEnd;
    if (covered && !force) return;
    this.drawnWindow = wanted;
    const { regions, laneRoles, lanes, dark } = this.roles;
    const fills = regionFills(dark);
    // A span drawn already stays: the plugin shows a new region only after a timeout, so
    // removing and adding every span would blank the waveform's colours for a moment.
    const spans = roleSpans(regions, wanted).map((span) => {
      const channelIdx = laneOf(span.kind, laneRoles, lanes);
      const color = fills[span.kind];
      return {
        key: [span.kind, span.startSeconds, span.endSeconds, channelIdx, color].join('|'),
        span,
        color,
        channelIdx,
      };
    });
    const added = this.roleRegions.draw(spans, this.surfer.getDuration(), ({ span, color, channelIdx }) =>
      this.addRoleSpan(span, color, channelIdx),
    );
    if (added) this.holdLayerLayout();
  }

  /** Adds one role span to the regions plugin, marked with its speaker kind. */
  private addRoleSpan(span: RoleSpan, color: string, channelIdx: number): Region {
    const region = this.plugin.addRegion({
      start: span.startSeconds,
      end: span.endSeconds,
      color,
      drag: false,
      resize: false,
      channelIdx,
    });
    region.element?.setAttribute('data-role-kind', span.kind);
    return region;
  }

  /**
   * The view in seconds, with one view's width of margin on each side, and its scale; null
   * before wavesurfer knows the duration or has a width.
   */
  private viewWindow(): (SpanWindow & { secondsPerPx: number; viewStart: number; viewEnd: number }) | null {
    const duration = this.surfer.getDuration();
    const viewPx = this.surfer.getWidth();
    const totalPx = this.wrapperWidth();
    if (!(duration > 0) || !(totalPx > 0)) return null;
    const secondsPerPx = duration / totalPx;
    const viewStart = this.surfer.getScroll() * secondsPerPx;
    const viewEnd = viewStart + viewPx * secondsPerPx;
    const margin = viewPx * secondsPerPx;
    return {
      secondsPerPx,
      viewStart,
      viewEnd,
      startSeconds: Math.max(0, viewStart - margin),
      endSeconds: viewEnd + margin,
      minSeconds: MIN_SPAN_PX * secondsPerPx,
    };
  }

  /**
   * Width of the whole (possibly zoomed) waveform in pixels. The layout is read once after each
   * zoom, redraw and resize, not on every scroll event while the view follows playback.
   */
  private wrapperWidth(): number {
    if (this.wrapperPx === 0) {
      const wrapper = this.surfer.getWrapper();
      this.wrapperPx = wrapper.scrollWidth || wrapper.clientWidth || this.surfer.getWidth();
    }
    return this.wrapperPx;
  }

  // The entry under the mouse, from its x over the (possibly zoomed) waveform.
  private listenForHover(): void {
    const wrapper = this.surfer.getWrapper();
    const onMove = (event: PointerEvent) => {
      const box = wrapper.getBoundingClientRect();
      const seconds = ((event.clientX - box.left) / box.width) * this.surfer.getDuration();
      const region = box.width > 0 ? regionAt(this.roles.regions, seconds) : null;
      if (region === this.hovered) return;
      this.hovered = region;
      this.hooks.onHover(region ? { text: regionHoverText(region), clientX: event.clientX } : null);
    };
    const onLeave = () => {
      this.hovered = null;
      this.hooks.onHover(null);
    };
    wrapper.addEventListener('pointermove', onMove);
    wrapper.addEventListener('pointerleave', onLeave);
    this.unsubscribe.push(() => {
      wrapper.removeEventListener('pointermove', onMove);
      wrapper.removeEventListener('pointerleave', onLeave);
    });
  }

  /** Draws each flagged moment as a shaded span with a solid marker at its start; a click seeks there. */
  drawFlags(flags: readonly FlaggedMoment[]): void {
    // A flag drawn already stays (the plugin reads the page's layout for each region it adds).
    const keyed = flags.map((flag) => ({
      key: [flag.kind, flag.startSeconds, flag.endSeconds, flag.label].join('|'),
      flag,
    }));
    const added = this.flagRegions.draw(keyed, this.surfer.getDuration(), ({ flag }) => this.addFlag(flag));
    if (added) this.holdLayerLayout();
  }

  /** Adds one flagged moment to the regions plugin: a clickable stretch that seeks to its start. */
  private addFlag(flag: FlaggedMoment): Region {
    const region = this.plugin.addRegion({
      start: flag.startSeconds,
      end: Math.max(flag.endSeconds, flag.startSeconds),
      color: flagFill(flag.kind),
      drag: false,
      resize: false,
    });
    const element = region.element;
    if (element) {
      element.title = flag.label;
      element.setAttribute('aria-label', flag.label);
      element.setAttribute('data-flag-kind', flag.kind);
      element.style.borderLeft = `2px solid ${FLAG_COLOURS[flag.kind]}`;
      element.style.cursor = 'pointer';
    }
    region.on('click', (event) => {
      // The waveform under it would seek to the click; the flag seeks to its start instead.
      event.stopPropagation();
      this.hooks.onSeek(flag.startSeconds);
    });
    return region;
  }

  /**
   * Called after adding regions: keeps the regions plugin's layer out of layout until the plugin
   * has attached them. The plugin attaches each new region in a task of its own after reading
   * the page's layout, so a few hundred spans (a 40-minute call at full view) would lay the page
   * out a few hundred times; with the layer's content skipped (`content-visibility: hidden`; its
   * own box, and so the widths the plugin reads, unchanged) those reads cost nothing, and the
   * layer is laid out once, after the plugin's tasks (queued before this timer).
   */
  private holdLayerLayout(): void {
    const layer = this.surfer.getWrapper().querySelector<HTMLElement>('[part~="regions-container"]');
    if (!layer) return;
    if (this.layerRelease !== null) clearTimeout(this.layerRelease);
    layer.style.contentVisibility = 'hidden';
    this.layerRelease = setTimeout(() => {
      this.layerRelease = null;
      layer.style.contentVisibility = '';
    }, 0);
  }

  /**
   * Draws a thin tick at each match time, merging ticks closer than a pixel. All ticks are one
   * SVG path scaled to the waveform's width, so a keystroke that matches thousands of entries
   * changes one attribute, and the width is measured only when zoom or size change.
   */
  drawTicks(times: readonly number[]): void {
    this.matchTimes = times;
    const ticks = mergeTicks(times, this.surfer.getDuration(), this.wrapperWidth());
    this.tickPath.setAttribute('d', ticks.map((fraction) => `M${(fraction * TICK_SCALE).toFixed(1)} 0V1`).join(''));
    this.tickLayer.dataset.ticks = String(ticks.length);
  }

  /** Removes every mark (wavesurfer itself is destroyed by its owner). */
  destroy(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
    if (this.layerRelease !== null) clearTimeout(this.layerRelease);
    this.tickLayer.remove();
    this.roleRegions.forget();
    this.flagRegions.forget();
  }
}

/** Horizontal units of the tick layer's SVG (its viewBox is TICK_SCALE wide, stretched to the waveform). */
const TICK_SCALE = 100_000;

/** An SVG filling `layer`, stretched to its width, with one path for every tick (2 px wide whatever the zoom). */
function tickPathElement(layer: HTMLElement): SVGPathElement {
  const svgNs = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', `0 0 ${String(TICK_SCALE)} 1`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('width', '100%');
  svg.setAttribute('height', '100%');
  svg.style.display = 'block';
  const path = document.createElementNS(svgNs, 'path');
  path.setAttribute('stroke', TICK_COLOUR);
  path.setAttribute('stroke-width', '2');
  path.setAttribute('stroke-opacity', '0.85');
  path.setAttribute('vector-effect', 'non-scaling-stroke');
  path.setAttribute('fill', 'none');
  svg.appendChild(path);
  layer.appendChild(svg);
  return path;
}

/** Narrowest role span drawn, in pixels: narrower ones join their neighbours. */
const MIN_SPAN_PX = 3;

/** What the role spans are drawn from. */
interface RoleLayer {
  regions: readonly RoleRegion[];
  laneRoles: LaneRoles | null;
  lanes: number;
  dark: boolean;
}

/** Lane (channel index) a span is drawn in: its speaker's lane when the lanes are known, else -1 (all). */
function laneOf(kind: SpeakerKind, laneRoles: LaneRoles | null, lanes: number): number {
  if (lanes !== 2 || laneRoles?.kind !== 'inferred' || kind === 'event') return -1;
  return kind === 'agent' ? laneRoles.agentChannel : 1 - laneRoles.agentChannel;
}

/**
 * Regions of the plugin drawn by key: drawing again keeps each region whose key is still wanted,
 * removes the others and adds the new ones. Regions are placed in fractions of wavesurfer's
 * duration, so a new duration removes them all and adds them anew.
 */
class KeyedRegions {
  private drawn = new Map<string, Region>();
  /** wavesurfer's duration when the drawn regions were added, in seconds. */
  private duration = 0;

  /** Draws `items` (each with its `key`) on wavesurfer's `duration`; true when a region was added. */
  draw<T extends { key: string }>(items: readonly T[], duration: number, add: (item: T) => Region): boolean {
    if (this.duration !== duration) {
      for (const region of this.drawn.values()) region.remove();
      this.drawn.clear();
      this.duration = duration;
    }
    const previous = this.drawn;
    this.drawn = new Map();
    let added = false;
    for (const item of items) {
      let region = previous.get(item.key);
      if (!region) {
        region = add(item);
        added = true;
      }
      this.drawn.set(item.key, region);
      previous.delete(item.key);
    }
    for (const region of previous.values()) region.remove();
    return added;
  }

  /** Forgets the regions drawn (wavesurfer, destroyed by its owner, removes them). */
  forget(): void {
    this.drawn.clear();
  }
}
