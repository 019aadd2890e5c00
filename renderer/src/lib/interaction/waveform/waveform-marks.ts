/**
 * What the player draws over its wavesurfer: role regions and flagged moments through the regions
 * plugin, and search-match ticks in a layer of its own inside wavesurfer's wrapper (which is as
 * wide as the zoomed waveform and scrolls with it, so positions in percent follow zoom and
 * scrolling). Everything can be redrawn on its own without re-creating wavesurfer. Times are in
 * seconds.
 */
import type WaveSurfer from 'wavesurfer.js';
import type { Region } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import type { FlaggedMoment, LaneRoles, RoleRegion } from '../analysis/types';
import { FLAG_COLOURS, flagFill, mergeTicks, regionHoverText, TICK_COLOUR } from './marks';
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
  private roleRegions: Region[] = [];
  private flagRegions: Region[] = [];
  private matchTimes: readonly number[] = [];
  private readonly unsubscribe: Array<() => void> = [];

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
    surfer.getWrapper().appendChild(this.tickLayer);
    // Zooming or resizing changes how many pixels apart the matches are: merge them again.
    const retick = () => {
      this.drawTicks(this.matchTimes);
    };
    this.unsubscribe.push(surfer.on('zoom', retick), surfer.on('redraw', retick));
  }

  /**
   * Draws one region per entry, coloured by speaker kind. On a stereo recording whose lanes are
   * known, agent and caller regions sit in their own lane; events span both.
   */
  drawRegions(regions: readonly RoleRegion[], laneRoles: LaneRoles | null, lanes: number, dark = false): void {
    for (const region of this.roleRegions) region.remove();
    const fills = regionFills(dark);
    this.roleRegions = regions.map((role) => {
      const region = this.plugin.addRegion({
        start: role.startSeconds,
        end: role.endSeconds,
        color: fills[role.kind],
        drag: false,
        resize: false,
        channelIdx: laneOf(role, laneRoles, lanes),
      });
      region.element?.setAttribute('data-role-kind', role.kind);
      region.on('over', (event) => {
        this.hooks.onHover({ text: regionHoverText(role), clientX: event.clientX });
      });
      region.on('leave', () => {
        this.hooks.onHover(null);
      });
      return region;
    });
  }

  /** Draws each flagged moment as a shaded span with a solid marker at its start; a click seeks there. */
  drawFlags(flags: readonly FlaggedMoment[]): void {
    for (const region of this.flagRegions) region.remove();
    this.flagRegions = flags.map((flag) => {
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
    });
  }

  /** Draws a thin tick at each match time, merging ticks closer than a pixel. */
  drawTicks(times: readonly number[]): void {
    this.matchTimes = times;
    const wrapper = this.surfer.getWrapper();
    const width = wrapper.scrollWidth || wrapper.clientWidth || this.surfer.getWidth();
    const ticks = mergeTicks(times, this.surfer.getDuration(), width);
    const fragment = document.createDocumentFragment();
    for (const fraction of ticks) {
      const tick = document.createElement('div');
      tick.style.cssText = `position:absolute;top:0;bottom:0;left:${(fraction * 100).toFixed(4)}%;width:2px;margin-left:-1px;background:${TICK_COLOUR};opacity:0.85`;
      fragment.appendChild(tick);
    }
    this.tickLayer.replaceChildren(fragment);
    this.tickLayer.dataset.ticks = String(ticks.length);
  }

  /** Removes every mark (wavesurfer itself is destroyed by its owner). */
  destroy(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
    this.tickLayer.remove();
    this.roleRegions = [];
    this.flagRegions = [];
  }
}

/** Lane (channel index) a region is drawn in: its speaker's lane when the lanes are known, else -1 (all). */
function laneOf(role: RoleRegion, laneRoles: LaneRoles | null, lanes: number): number {
  if (lanes !== 2 || laneRoles?.kind !== 'inferred' || role.kind === 'event') return -1;
  return role.kind === 'agent' ? laneRoles.agentChannel : 1 - laneRoles.agentChannel;
}
