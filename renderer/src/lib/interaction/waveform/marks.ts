/**
 * Pure helpers for what is drawn over the waveform: the colours of role regions and flagged
 * moments, the words a hover shows, and the merging of search-match ticks so thousands of matches
 * cost no more than one tick per pixel. Times are in seconds.
 */
import type { FlaggedMoment, RoleRegion, SpeakerKind } from '../analysis/types';

/** Solid colour of each speaker kind, the same as the transcript rows' role colours. */
export const ROLE_COLOURS: Readonly<Record<SpeakerKind, string>> = {
  agent: '#4f46e5',
  user: '#0d9488',
  event: '#64748b',
};

/** What the legend calls each speaker kind. */
export const ROLE_LEGEND: Readonly<Record<SpeakerKind, string>> = {
  agent: 'Agent',
  user: 'Caller',
  event: 'Event',
};

/** Shading of a role region: the role's colour at low alpha, so the waveform stays readable. */
export const REGION_FILLS: Readonly<Record<SpeakerKind, string>> = {
  agent: 'rgba(79, 70, 229, 0.13)',
  user: 'rgba(13, 148, 136, 0.16)',
  event: 'rgba(100, 116, 139, 0.14)',
};

/** Marker colour of each kind of flagged moment (the span is the same colour, lightly shaded). */
export const FLAG_COLOURS: Readonly<Record<FlaggedMoment['kind'], string>> = {
  slow_turn: '#ea580c',
  talk_over: '#dc2626',
  silence: '#a16207',
  note: '#7c3aed',
};

/** Colour of a search-match tick (the transcript's current-match amber). */
export const TICK_COLOUR = '#d97706';

/** Most ticks drawn at once; beyond it, nearby matches share a tick. */
export const MAX_TICKS = 2000;

/** Longest line a hover shows before it is cut with an ellipsis. */
const HOVER_TEXT_CHARS = 140;

/**
 * The words a hover over a role region shows: the role, then the line, shortened to about
 * {@link HOVER_TEXT_CHARS} characters at a word boundary.
 */
export function regionHoverText(region: Pick<RoleRegion, 'roleLabel' | 'text'>): string {
  const line = region.text.replace(/\s+/g, ' ').trim();
  if (line === '') return region.roleLabel;
  return `${region.roleLabel}: ${shorten(line, HOVER_TEXT_CHARS)}`;
}

/** `text` cut to at most `max` characters (ellipsis included), at a space when one is near the end. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** A flagged moment's span colour: its marker colour at low alpha. */
export function flagFill(kind: FlaggedMoment['kind']): string {
  return `${FLAG_COLOURS[kind]}2e`;
}

/**
 * Where to draw the ticks of search matches: fractions (0..1) of the recording, sorted, with
 * matches closer than `minGapPx` pixels on a waveform `widthPx` wide merged into the first of
 * them. When more than `maxTicks` remain, the gap doubles until they fit. Times outside the
 * recording and non-numbers are dropped.
 * @param times match times in seconds, in any order
 * @param durationSeconds length of the recording
 * @param widthPx full width of the drawn waveform (zoomed), in CSS pixels
 */
export function mergeTicks(
  times: readonly number[],
  durationSeconds: number,
  widthPx: number,
  maxTicks = MAX_TICKS,
): number[] {
  if (!(durationSeconds > 0) || !(widthPx > 0) || times.length === 0) return [];
  const fractions = times
    .filter((t) => Number.isFinite(t) && t >= 0 && t <= durationSeconds)
    .map((t) => t / durationSeconds)
    .sort((a, b) => a - b);
  let gap = 1 / widthPx;
  let ticks = spaced(fractions, gap);
  while (ticks.length > Math.max(1, maxTicks)) {
    gap *= 2;
    ticks = spaced(ticks, gap);
  }
  return ticks;
}

/** Sorted `fractions` keeping only those at least `gap` after the last one kept. */
function spaced(fractions: readonly number[], gap: number): number[] {
  const out: number[] = [];
  let last = -Infinity;
  for (const f of fractions) {
    if (f - last < gap) continue;
    out.push(f);
    last = f;
  }
  return out;
}
