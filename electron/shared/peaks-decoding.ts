/**
 * What both decoders of a recording to waveform peaks share (main's peaks worker and the page's
 * decoder): the caps, so a hostile or broken file is refused in words instead of exhausting
 * memory or keeping a decoder busy forever, and the words of a refusal.
 */

/** Most channels decoded (a call has one or two; 7.1 audio has eight). */
export const MAX_CHANNELS = 8;
/** Longest recording decoded, in seconds (6 hours). */
export const MAX_DURATION_SECONDS = 6 * 60 * 60;
/** Highest sample rate decoded, in Hz (studio audio goes to 384 kHz). */
export const MAX_SAMPLE_RATE = 384_000;

/** Message of the `invalid_response` error for audio that cannot be reduced to peaks. */
export const UNDECODABLE_MESSAGE =
  "The recording's audio format could not be decoded for the waveform; it may still play.";
