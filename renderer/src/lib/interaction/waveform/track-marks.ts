/**
 * The marker track under the waveform: what happened when in the call, one row of marks over the
 * whole recording. Each kind has its own shape and colour (the legend shows them), so a flagged
 * moment, a search hit, a reviewer's note and a tool call never look alike. The player takes the
 * marks as data (`marks` on WaveformPlayer); whoever adds a kind adds it here and in
 * {@link TRACK_MARK_STYLES}. Times are in seconds from the start of the recording.
 */
import type { LogEntry } from '$shared/domain';
import type { FlaggedMoment } from '../analysis/types';

/** What a mark on the track stands for. */
export type TrackMarkKind = 'flag' | 'search' | 'note' | 'tool';

/** One mark on the track: a moment (`endSeconds` absent) or a stretch, with the words its tooltip shows. */
export interface TrackMark {
  kind: TrackMarkKind;
  startSeconds: number;
  endSeconds?: number;
  label: string;
}

/** How a kind is drawn and named in the legend. */
export interface TrackMarkStyle {
  /** Name in the legend. */
  legend: string;
  /** Drawn shape: a downward triangle, a thin bar, a dot, a diamond. */
  shape: 'triangle' | 'bar' | 'dot' | 'diamond';
  /** CSS colour, readable on the light and the dark track. */
  colour: string;
}

/** The style of each kind, in legend order. */
export const TRACK_MARK_STYLES: Readonly<Record<TrackMarkKind, TrackMarkStyle>> = {
  flag: { legend: 'Flagged moment', shape: 'triangle', colour: 'light-dark(#c2410c, #fb923c)' },
  search: { legend: 'Search match', shape: 'bar', colour: 'light-dark(#0369a1, #38bdf8)' },
  note: { legend: 'Note', shape: 'dot', colour: 'light-dark(#7e22ce, #d8b4fe)' },
  tool: { legend: 'Tool call', shape: 'diamond', colour: 'light-dark(#047857, #6ee7b7)' },
};

/** Kinds in the order the legend lists them. */
export const TRACK_MARK_KINDS: readonly TrackMarkKind[] = ['flag', 'search', 'note', 'tool'];

/** Flagged moments (slow replies, talk-over, silences) as marks. */
export function flagMarks(flags: readonly FlaggedMoment[]): TrackMark[] {
  return flags.map((f) => ({ kind: 'flag', startSeconds: f.startSeconds, endSeconds: f.endSeconds, label: f.label }));
}

/** Search matches (the times of the entries holding them) as marks. */
export function searchMarks(times: readonly number[]): TrackMark[] {
  return times.map((t) => ({ kind: 'search', startSeconds: t, label: 'Search match' }));
}

/** Roles of transcript entries that are tool or function calls. */
const TOOL_ROLE = /tool|function/i;

/** Timed tool and function-call entries of the transcript as marks, labelled with their first words. */
export function toolMarks(log: readonly LogEntry[]): TrackMark[] {
  return log.flatMap((entry) =>
    entry.offsetSeconds !== null && TOOL_ROLE.test(entry.role)
      ? [{ kind: 'tool' as const, startSeconds: entry.offsetSeconds, label: `Tool: ${firstWords(entry.message)}` }]
      : [],
  );
}

/** The first line of `text`, at most 80 characters. */
function firstWords(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`;
}

/**
 * Where a mark sits on a track `durationSeconds` long, as percentages of its width (left edge and
 * width; width 0 for a moment); null when it lies outside the recording or the length is unknown.
 */
export function markPlacement(mark: TrackMark, durationSeconds: number): { leftPct: number; widthPct: number } | null {
  if (!(durationSeconds > 0) || !Number.isFinite(mark.startSeconds)) return null;
  if (mark.startSeconds < 0 || mark.startSeconds > durationSeconds) return null;
  const end = Math.min(durationSeconds, Math.max(mark.startSeconds, mark.endSeconds ?? mark.startSeconds));
  return {
    leftPct: (mark.startSeconds / durationSeconds) * 100,
    widthPct: ((end - mark.startSeconds) / durationSeconds) * 100,
  };
}
