/**
 * Where the call's waveform comes from (renderer/src/lib/interaction/waveform/peaks-source.ts):
 * main's peaks, or the page's decode of the player's URL when main says it does not decode the
 * recording's format, with its progress, its hand-over to main's cache and its failures. Main and
 * the page's decoder are stand-ins driven by the test.
 */
import { describe, expect, it, vi } from 'vitest';
import type { PeaksProgress, RecordingPeaks } from '$shared/contract';
import { ApiError } from '$shared/errors';
import type { ComputedPeaks } from '$shared/peaks-reducer';
import {
  createPeaksSource,
  PageDecodeError,
  type PeaksSourceParts,
} from '../../../../renderer/src/lib/interaction/waveform/peaks-source';

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const SRC = `vr-recording://local/recording/${SID}`;

const WEBM_REFUSED = new ApiError({
  kind: 'invalid_response',
  message: "The recording's audio format (WebM/Matroska) could not be decoded for the waveform; it may still play.",
  detail: 'unsupported_format',
});
const BROKEN_REFUSED = new ApiError({
  kind: 'invalid_response',
  message: "The recording's audio format could not be decoded for the waveform; it may still play.",
});

/** Stereo peaks of `seconds` seconds, 4 per channel. */
function stereo(seconds: number): ComputedPeaks {
  return {
    durationSeconds: seconds,
    sampleRate: 48_000,
    length: 4,
    channels: [
      { min: [-0.5, -0.1, 0, -0.9], max: [0.25, 0.2, 0, 0.3] },
      { min: [-0.05, -0.6, -0.2, 0], max: [0.1, 0.4, 0.7, 0] },
    ],
  };
}

/** A page decode the test finishes: it reports progress and resolves or fails when told. */
function pageDecode() {
  let report: (peaks: ComputedPeaks) => void = () => undefined;
  let settle: { resolve: (peaks: ComputedPeaks) => void; reject: (error: unknown) => void } | null = null;
  let signal: AbortSignal | undefined;
  const decodeInPage = vi.fn<PeaksSourceParts['decodeInPage']>(
    (_src, request) =>
      new Promise<ComputedPeaks>((resolve, reject) => {
        report = request.onProgress;
        signal = request.signal;
        settle = { resolve, reject };
        request.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      }),
  );
  return {
    decodeInPage,
    progress: (peaks: ComputedPeaks) => report(peaks),
    finish: (peaks: ComputedPeaks) => settle?.resolve(peaks),
    fail: (error: unknown) => settle?.reject(error),
    signal: () => signal,
  };
}

function source(overrides: Partial<PeaksSourceParts> = {}) {
  const page = pageDecode();
  const parts = {
    getPeaks: vi.fn<PeaksSourceParts['getPeaks']>(() => Promise.reject(WEBM_REFUSED)),
    getPeaksProgress: vi.fn<PeaksSourceParts['getPeaksProgress']>(() => Promise.resolve(null)),
    storePeaks: vi.fn<PeaksSourceParts['storePeaks']>(() => Promise.resolve()),
    decodeInPage: page.decodeInPage,
    ...overrides,
  };
  return { peaksSource: createPeaksSource(parts), parts, page };
}

/** Resolves once `check` passes (the source's steps are promise hops apart). */
async function until(check: () => void): Promise<void> {
  await vi.waitFor(check);
}

describe('the peaks source', () => {
  it("takes main's peaks when main decodes the recording, and never decodes in the page", async () => {
    const mains: RecordingPeaks = { ...stereo(42), fromCache: true };
    const { peaksSource, parts } = source({ getPeaks: vi.fn(() => Promise.resolve(mains)) });

    await expect(peaksSource.peaks(SID, { recordingSrc: () => SRC })).resolves.toBe(mains);
    expect(parts.decodeInPage).not.toHaveBeenCalled();
    expect(parts.storePeaks).not.toHaveBeenCalled();
  });

  it('decodes a format main does not read from the player URL, fills in as it goes, and hands the peaks to main', async () => {
    const { peaksSource, parts, page } = source();
    const asked = vi.fn(() => SRC);

    const result = peaksSource.peaks(SID, { recordingSrc: asked });
    await until(() => expect(parts.decodeInPage).toHaveBeenCalledTimes(1));
    expect(page.decodeInPage.mock.calls[0]?.[0]).toBe(SRC);

    // Before any audio: nothing so far. Then the page's own progress, not main's.
    await expect(peaksSource.progress(SID)).resolves.toBeNull();
    page.progress(stereo(10.5));
    const soFar: PeaksProgress | null = await peaksSource.progress(SID);
    expect(soFar).toEqual({ peaks: { ...stereo(10.5), fromCache: false }, coveredSeconds: 10.5, complete: false });
    expect(parts.getPeaksProgress).not.toHaveBeenCalled();

    page.finish(stereo(42.25));
    await expect(result).resolves.toEqual({ ...stereo(42.25), fromCache: false });
    expect(parts.storePeaks).toHaveBeenCalledWith(SID, stereo(42.25));
    // Done: the progress is main's again.
    await peaksSource.progress(SID);
    expect(parts.getPeaksProgress).toHaveBeenCalledWith(SID);
  });

  it("passes main's refusal of a broken recording on as it is, without decoding in the page", async () => {
    const { peaksSource, parts } = source({ getPeaks: vi.fn(() => Promise.reject(BROKEN_REFUSED)) });

    await expect(peaksSource.peaks(SID, { recordingSrc: () => SRC })).rejects.toBe(BROKEN_REFUSED);
    expect(parts.decodeInPage).not.toHaveBeenCalled();
  });

  it("keeps main's refusal when the player's URL is not known yet", async () => {
    const { peaksSource, parts } = source();

    await expect(peaksSource.peaks(SID, { recordingSrc: () => null })).rejects.toBe(WEBM_REFUSED);
    expect(parts.decodeInPage).not.toHaveBeenCalled();
  });

  it("fails a page decode that fails as a PageDecodeError in the decoder's words, not as main's refusal", async () => {
    const { peaksSource, page, parts } = source();
    const cause = new ApiError({
      kind: 'invalid_response',
      message: "The recording's audio format (aac) could not be decoded for the waveform; it may still play.",
    });

    const result = peaksSource.peaks(SID, { recordingSrc: () => SRC });
    await until(() => expect(parts.decodeInPage).toHaveBeenCalled());
    page.progress(stereo(3));
    page.fail(cause);

    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PageDecodeError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as PageDecodeError).message).toBe(cause.message);
    expect((error as PageDecodeError).cause).toBe(cause);
    expect(parts.storePeaks).not.toHaveBeenCalled();
    // No progress of a failed decode is left to draw.
    await peaksSource.progress(SID);
    expect(parts.getPeaksProgress).toHaveBeenCalled();
  });

  it("draws the waveform even when main cannot keep the page's peaks", async () => {
    const { peaksSource, page, parts } = source({
      storePeaks: vi.fn(() => Promise.reject(new ApiError({ kind: 'bad_input', message: 'Not asked for.' }))),
    });

    const result = peaksSource.peaks(SID, { recordingSrc: () => SRC });
    await until(() => expect(parts.decodeInPage).toHaveBeenCalled());
    page.finish(stereo(42));

    await expect(result).resolves.toEqual({ ...stereo(42), fromCache: false });
    expect(parts.storePeaks).toHaveBeenCalledTimes(1);
  });

  it('stops the page decode when its signal aborts, with the abort, not a decode failure', async () => {
    const { peaksSource, page, parts } = source();
    const controller = new AbortController();
    const readSignal = vi.fn(() => controller.signal);

    const result = peaksSource.peaks(SID, { recordingSrc: () => SRC, signal: readSignal });
    await until(() => expect(parts.decodeInPage).toHaveBeenCalled());
    expect(page.signal()).toBe(controller.signal);
    page.progress(stereo(5));
    controller.abort();

    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    await peaksSource.progress(SID);
    expect(parts.getPeaksProgress).toHaveBeenCalled();
  });

  it('reads the signal only once the page decodes, so waiting for main is never cancelled', async () => {
    const mains: RecordingPeaks = { ...stereo(42), fromCache: false };
    const { peaksSource } = source({ getPeaks: vi.fn(() => Promise.resolve(mains)) });
    const readSignal = vi.fn(() => new AbortController().signal);

    await peaksSource.peaks(SID, { recordingSrc: () => SRC, signal: readSignal });

    expect(readSignal).not.toHaveBeenCalled();
  });
});
