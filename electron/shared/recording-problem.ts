/**
 * The words of each {@link RecordingProblemKind}: what the page says about a recording that
 * cannot be played or drawn, and what to do next. Main maps every failure to a kind once
 * (main/api/recording-errors.ts) and sends its own sentence with it (an HTTP status, a size);
 * the page heads that sentence with the kind's title, and falls back on the kind's next step
 * when it has no sentence.
 */
import type { RecordingProblem, RecordingProblemKind } from './contract';

/** What the page says about one kind of recording problem. */
export interface RecordingProblemWords {
  /** What happened, in a few words ("The recording is too large"). */
  title: string;
  /** What to do next, as a sentence. */
  next: string;
  /** True when trying again can help (the page offers Retry). */
  retry: boolean;
}

/** The words of every {@link RecordingProblemKind}. */
export const RECORDING_PROBLEM_WORDS: Readonly<Record<RecordingProblemKind, RecordingProblemWords>> = {
  no_recording: {
    title: 'No recording',
    next: 'This call has no recording; the transcript is all there is.',
    retry: false,
  },
  gone: {
    title: 'Recording link gone',
    next: 'Show the call again; if it stays, the recording was deleted.',
    retry: true,
  },
  refused: {
    title: 'Recording refused',
    next: "Show the call again; if it stays, enter the workspace's API key again.",
    retry: true,
  },
  redirect_refused: {
    title: 'Redirect not followed',
    next: "Ask the voice-agent service's administrator where its recording links lead.",
    retry: false,
  },
  unsafe_destination: {
    title: 'Recording address refused',
    next: "Ask the voice-agent service's administrator where its recording links lead.",
    retry: false,
  },
  timed_out: { title: 'Recording timed out', next: 'Check the connection, then press Retry.', retry: true },
  unreachable: {
    title: 'Recording server unreachable',
    next: 'Check the connection, then press Retry.',
    retry: true,
  },
  not_audio: {
    title: 'Not audio',
    next: 'The server sent a page instead of the recording; its link may have expired. Show the call again.',
    retry: true,
  },
  too_large: {
    title: 'Recording too large',
    next: 'Voice Review does not load recordings over 1 GiB; open it from the voice-agent service instead.',
    retry: false,
  },
  undecodable: {
    title: 'No waveform',
    next: "This recording's format has no waveform; playback may still work.",
    retry: false,
  },
  unplayable_format: {
    title: 'Cannot play this format',
    next: 'Use Download recording and open the file in a player that reads its format.',
    retry: false,
  },
  server_error: { title: 'Recording server failed', next: 'Try again in a moment.', retry: true },
};

/** The sentence to show for `problem`: main's own, else its kind's next step. */
export function problemSentence(problem: RecordingProblem): string {
  return problem.message.trim() === '' ? RECORDING_PROBLEM_WORDS[problem.kind].next : problem.message;
}

/** Every {@link RecordingProblemKind}, for checking a pushed value. */
export const RECORDING_PROBLEM_KINDS = Object.keys(RECORDING_PROBLEM_WORDS) as RecordingProblemKind[];

/** True when `value` is a {@link RecordingProblem} (a known kind and a message of sane length). */
export function isRecordingProblem(value: unknown): value is RecordingProblem {
  const v = value as { kind?: unknown; message?: unknown } | null;
  return (
    v !== null &&
    typeof v === 'object' &&
    RECORDING_PROBLEM_KINDS.includes(v.kind as RecordingProblemKind) &&
    typeof v.message === 'string' &&
    v.message.length <= 2000
  );
}
