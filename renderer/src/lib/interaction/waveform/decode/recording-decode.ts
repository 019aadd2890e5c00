/**
 * A recording decoded to peaks in the page: read from the URL the player plays (main's recording
 * protocol, which serves it from the one download main makes of each recording) and handed to the
 * page's peaks worker (page-decoder.ts), made on the first decode and kept warm for the next call.
 */
import { ApiError } from '$shared/errors';
import type { ComputedPeaks } from '$shared/peaks-reducer';
import { createPageDecoder, type PageDecodeRequest, type PageDecoder } from './page-decoder';

let decoder: PageDecoder | null = null;

/** Longest part of the recording protocol's answer quoted in an error, in characters. */
const MAX_QUOTED = 300;

/**
 * Fetches `src` (the recording's URL as the player has it, e.g.
 * `vr-recording://local/recording/<sid>`) and resolves with its peaks and exact duration, decoded
 * with Chromium's decoders; `request.onProgress` gets the peaks decoded so far a few times a second.
 * @throws ApiError kind 'network' with the recording protocol's words when it does not answer
 *   with the recording; the decoder's errors (page-decoder.ts: 'invalid_response' in the words
 *   main's decoder uses, a failed download's own error, an `AbortError` when `request.signal` aborts)
 */
export async function decodeRecordingInPage(src: string, request: PageDecodeRequest = {}): Promise<ComputedPeaks> {
  const response = await fetch(src, request.signal ? { signal: request.signal } : {});
  if (!response.ok || !response.body) {
    const said = (await response.text().catch(() => '')).trim().slice(0, MAX_QUOTED);
    throw new ApiError({
      kind: 'network',
      message: said || `The recording could not be read for the waveform (HTTP ${response.status}).`,
      status: response.status,
    });
  }
  decoder ??= createPageDecoder();
  return decoder.decode(response.body, request);
}
