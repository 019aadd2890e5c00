/**
 * How a call's status (spec 2: an open set; `in_progress` is the one value named) is coloured:
 * a failure stands out, a call still running is marked, an ended call stays neutral.
 */

/** The colour family of a status badge. */
export type StatusTone = 'failed' | 'running' | 'neutral';

const FAILED = /fail|error|busy|no[_ -]?answer|cancel|reject|abandon/i;
const RUNNING = /in[_ -]?progress|ringing|queued|initiated|active/i;

/** The tone of `status` (as the server sent it); unknown values and null are neutral. */
export function statusTone(status: string | null | undefined): StatusTone {
  if (!status) return 'neutral';
  if (FAILED.test(status)) return 'failed';
  if (RUNNING.test(status)) return 'running';
  return 'neutral';
}
