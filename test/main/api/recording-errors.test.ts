/**
 * The one mapping of what goes wrong with a recording to a `RecordingProblem` kind
 * (electron/main/api/recording-errors.ts): HTTP statuses, transport failures, the API's error
 * kinds and anything else; and every kind has its words in the page (shared/recording-problem.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  notAudio,
  problemOf,
  recordingStatusError,
  recordingTimedOut,
  recordingUnreachable,
  tooLarge,
} from '../../../electron/main/api/recording-errors';
import type { RecordingProblemKind } from '../../../electron/shared/contract';
import { ApiError, type ApiErrorKind } from '../../../electron/shared/errors';
import {
  isRecordingProblem,
  problemSentence,
  RECORDING_PROBLEM_KINDS,
  RECORDING_PROBLEM_WORDS,
} from '../../../electron/shared/recording-problem';

describe('problemOf', () => {
  it.each<[number, boolean, RecordingProblemKind]>([
    [404, false, 'gone'],
    [410, true, 'gone'],
    [401, true, 'refused'],
    [403, false, 'refused'],
    [500, false, 'server_error'],
    [503, true, 'server_error'],
    [418, false, 'server_error'],
  ])('maps HTTP %i (key sent: %s) to %s, with the status in its words', (status, keyAttached, kind) => {
    const problem = problemOf(recordingStatusError(status, keyAttached));
    expect(problem.kind).toBe(kind);
    expect(problem.message).toContain(`HTTP ${status}`);
  });

  it('asks for the key again only when the key was sent and refused', () => {
    expect(problemOf(recordingStatusError(401, true)).message).toMatch(/Enter the key again/);
    expect(problemOf(recordingStatusError(401, false)).message).toMatch(/link may have expired/);
  });

  it('keeps the kind of a transport failure, a page instead of audio and a recording too large', () => {
    expect(problemOf(recordingTimedOut(15_000))).toMatchObject({ kind: 'timed_out' });
    expect(problemOf(recordingUnreachable())).toMatchObject({ kind: 'unreachable' });
    const page = problemOf(notAudio('text/html'));
    expect(page.kind).toBe('not_audio');
    expect(page.message).toContain('text/html');
    const large = problemOf(tooLarge(2 * 1024 ** 3));
    expect(large.kind).toBe('too_large');
    expect(large.message).toContain('2.0 GiB');
  });

  it.each<[ApiErrorKind, RecordingProblemKind]>([
    ['timeout', 'timed_out'],
    ['network', 'unreachable'],
    ['not_found', 'no_recording'],
    ['invalid_response', 'undecodable'],
    ['server', 'server_error'],
    ['unauthorized', 'server_error'],
    ['keychain', 'server_error'],
  ])("maps the API's %s to %s, keeping the API's words", (apiKind, kind) => {
    const problem = problemOf(new ApiError({ kind: apiKind, message: 'What happened.' }));
    expect(problem).toEqual({ kind, message: 'What happened.' });
  });

  it('says anything else in general words, never its own message', () => {
    const problem = problemOf(new Error('ECONNRESET at socket 0x1234'));
    expect(problem.kind).toBe('server_error');
    expect(problem.message).not.toContain('ECONNRESET');
  });
});

describe('the words of each kind', () => {
  it('gives every kind a title and a next step, and Retry only where trying again can help', () => {
    for (const kind of RECORDING_PROBLEM_KINDS) {
      const words = RECORDING_PROBLEM_WORDS[kind];
      expect(words.title).toMatch(/^[A-Z]/);
      expect(words.next).toMatch(/^[A-Z].*\.$/);
    }
    expect(RECORDING_PROBLEM_WORDS.too_large.retry).toBe(false);
    expect(RECORDING_PROBLEM_WORDS.undecodable.retry).toBe(false);
    expect(RECORDING_PROBLEM_WORDS.unreachable.retry).toBe(true);
    expect(problemSentence({ kind: 'too_large', message: '' })).toBe(RECORDING_PROBLEM_WORDS.too_large.next);
  });

  it('recognises a problem as main sends it, and nothing else', () => {
    expect(isRecordingProblem({ kind: 'not_audio', message: 'A page, not audio.' })).toBe(true);
    expect(isRecordingProblem({ kind: 'haunted', message: 'Boo.' })).toBe(false);
    expect(isRecordingProblem({ kind: 'gone' })).toBe(false);
    expect(isRecordingProblem(null)).toBe(false);
  });
});
