/**
 * Role regions as the waveform draws them: only those in and near the view, at the view's pixel
 * resolution. wavesurfer's regions plugin keeps one element per region and checks each one on
 * every scroll, zoom and redraw (reading the layout after each change), so a 40-minute call with
 * 5,000 entries drawn one region per entry would hold the page for seconds at a time. Runs of the
 * same speaker become one span, and spans narrower than a few pixels join their neighbours (the
 * speaker who talks longest in the span gives its colour). Times are in seconds.
 */
import type { RoleRegion, SpeakerKind } from '../analysis/types';

/** A stretch of the waveform drawn as one region. */
export interface RoleSpan {
  kind: SpeakerKind;
  startSeconds: number;
  endSeconds: number;
}

/** The stretch of time to draw: the view and a margin on each side, and the narrowest span worth drawing. */
export interface SpanWindow {
  startSeconds: number;
  endSeconds: number;
  /** Spans shorter than this join their neighbours (a few pixels' worth of seconds). */
  minSeconds: number;
}

/**
 * Spans for the regions overlapping `window`, in time order: consecutive regions of one kind
 * merged, and a span shorter than `window.minSeconds` extended over the next regions until it
 * is long enough, taking the kind with the most time. O(regions in the window + log regions).
 * @param regions role regions sorted by `startSeconds`, not overlapping
 */
export function roleSpans(regions: readonly RoleRegion[], window: SpanWindow): RoleSpan[] {
  const spans: RoleSpan[] = [];
  let open: OpenSpan | null = null;
  for (let i = firstEndingAfter(regions, window.startSeconds); i < regions.length; i += 1) {
    const region = regions[i];
    if (!region || region.startSeconds >= window.endSeconds) break;
    if (!open || !joins(open, region, window.minSeconds)) {
      if (open) closeSpan(spans, open);
      open = { startSeconds: region.startSeconds, endSeconds: region.endSeconds, time: new Map() };
    }
    open.endSeconds = region.endSeconds;
    open.time.set(region.kind, (open.time.get(region.kind) ?? 0) + region.endSeconds - region.startSeconds);
  }
  if (open) closeSpan(spans, open);
  return spans;
}

/** A span being built: its stretch and each kind's seconds in it. */
interface OpenSpan {
  startSeconds: number;
  endSeconds: number;
  time: Map<SpeakerKind, number>;
}

/** True when `region` continues `open`: it follows on and `open` is too short or of the region's kind alone. */
function joins(open: OpenSpan, region: RoleRegion, minSeconds: number): boolean {
  if (open.endSeconds < region.startSeconds) return false;
  const onlyKind = open.time.size === 1 && open.time.has(region.kind);
  return onlyKind || open.endSeconds - open.startSeconds < minSeconds;
}

/** Ends `open` as a span of its longest kind, merged into the span before it when that is the same kind and adjoins. */
function closeSpan(spans: RoleSpan[], open: OpenSpan): void {
  let kind: SpeakerKind = 'event';
  let most = -1;
  for (const [candidate, seconds] of open.time) {
    if (seconds > most) [kind, most] = [candidate, seconds];
  }
  const last = spans[spans.length - 1];
  if (last && last.kind === kind && last.endSeconds >= open.startSeconds) last.endSeconds = open.endSeconds;
  else spans.push({ kind, startSeconds: open.startSeconds, endSeconds: open.endSeconds });
}

/**
 * The region under `seconds` (start inclusive, end exclusive), or null. Binary search.
 * @param regions role regions sorted by `startSeconds`, not overlapping
 */
export function regionAt(regions: readonly RoleRegion[], seconds: number): RoleRegion | null {
  const region = regions.at(firstEndingAfter(regions, seconds));
  return region && region.startSeconds <= seconds ? region : null;
}

/** Index of the first region ending after `seconds` (regions.length when none). */
function firstEndingAfter(regions: readonly RoleRegion[], seconds: number): number {
  let low = 0;
  let high = regions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((regions[middle]?.endSeconds ?? Infinity) <= seconds) low = middle + 1;
    else high = middle;
  }
  return low;
}
