/**
 * One entry of the call lists (queue, recent calls): from → to, a short time, the status. Every
 * part is known for a call opened before (the recent calls list keeps them); a queued call not
 * opened yet is named by its SID.
 */
import type { RecentCall } from '$shared/contract';
import { formatE164, formatLocalTime, formatShortTime, humanize } from '../../format';
import { statusTone, type StatusTone } from '../call-status';

/** What a list entry shows. `full` is the whole entry in words (its tooltip). */
export interface CallLine {
  sid: string;
  numbers: string;
  time: string;
  status: string | null;
  tone: StatusTone;
  full: string;
}

/** The entry of `sid`, from what `known` (its recent call) says about it, else its SID alone. */
export function callLine(sid: string, known: RecentCall | undefined, nowMs: number = Date.now()): CallLine {
  if (!known) return { sid, numbers: sid, time: 'Not opened yet', status: null, tone: 'neutral', full: sid };
  const numbers = `${formatE164(known.fromNumber)} → ${formatE164(known.toNumber)}`;
  const status = known.status === null ? null : humanize(known.status);
  return {
    sid,
    numbers,
    time: formatShortTime(known.startedAtMs, nowMs),
    status,
    tone: statusTone(known.status),
    full: [numbers, formatLocalTime(known.startedAtMs), status, sid].filter(Boolean).join(', '),
  };
}
