/**
 * Recordings main draws but the page's player cannot play: Chromium's media pipeline has no AIFF
 * (nor AIFF-C) demuxer, so an AIFF recording's waveform and lanes are drawn from main's peaks
 * while its media element fails. The recording's session then pushes this problem, which says so in words, with what to do, instead of the general "could not be played".
 */
import type { RecordingProblem } from '$shared/contract';
import { detectFormat } from './detect-format';

/** Bytes of a recording's start that tell an unplayable format apart. */
export const UNPLAYABLE_HEAD_BYTES = 12;

/** What the player says about an AIFF recording. */
export const AIFF_PLAYBACK_PROBLEM: RecordingProblem = {
  kind: 'unplayable_format',
  message:
    'This recording is in AIFF, which the player cannot play: its waveform is drawn, but it has no sound here. ' +
    'To listen, use Download recording and open the file in a player that reads AIFF (VLC, Audacity or QuickTime), ' +
    'or have the voice agent record calls in WAV, MP3 or Ogg.',
};

/**
 * The playback problem of a recording starting with `head` (its first
 * {@link UNPLAYABLE_HEAD_BYTES} bytes, or all of it when shorter), or null when its format is one
 * the player plays or main does not recognise.
 */
export function unplayableFormatProblem(head: Uint8Array): RecordingProblem | null {
  const guess = detectFormat(head, true);
  return guess.kind === 'format' && guess.format === 'aiff' ? AIFF_PLAYBACK_PROBLEM : null;
}
