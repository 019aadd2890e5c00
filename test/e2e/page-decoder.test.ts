/**
 * The page-side decoder in Chromium: the same call in every format a voice platform stores
 * (test/fixtures/call-formats.ts) decoded in the page's peaks worker, built by Vite as the app's
 * renderer is and served with the app's CSP (decoder-page-rig.ts). Every format gets a waveform
 * with its lanes (stereo: two), the duration of its sound (also live WebM, whose container states
 * none), and the turns where the original has them; where main's worker decodes the format too,
 * both draw the same waveform.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeToPeaks } from '../../electron/main/peaks/decode';
import type { ComputedPeaks } from '../../electron/shared/peaks-reducer';
import { speechActivity } from '../../renderer/src/lib/interaction/analysis/speech-activity';
import { encodeCall, encodeFormatMatrix, type EncodedCall } from '../fixtures/call-formats';
import { TONE_SECONDS } from '../fixtures/call-original';
import { startDecoderPage, type DecoderPageRig } from './decoder-page-rig';
import type { PageDecodeResult } from './decoder-page/page';

/** Formats main's worker does not decode (Chromium plays them): only the page draws their waveform. */
const PAGE_ONLY = new Set(['webm-opus', 'webm-opus-live', 'm4a-aac']);
/** Most a turn's start or end may differ from the WAV original's, seconds. */
const TURN_TOLERANCE_SECONDS = 0.05;

let rig: DecoderPageRig;
let calls: EncodedCall[];
/**
 * The original as 16-bit WAV at each format's rate and channel count (by "rate channels"): the
 * turns every format must keep. At the format's own rate, because an 8 kHz recording truly loses
 * what lies above 4 kHz (a word's final "s"), whatever its codec.
 */
const references = new Map<string, ComputedPeaks>();

async function* chunksOf(file: string): AsyncGenerator<Uint8Array> {
  const bytes = await readFile(file);
  for (let at = 0; at < bytes.length; at += 64 * 1024) yield new Uint8Array(bytes.subarray(at, at + 64 * 1024));
}

async function decodeInPage(call: EncodedCall): Promise<PageDecodeResult> {
  const url = rig.serve(call.file, call.mimeType);
  return rig.page.evaluate((u) => window.decoderPage.decode(u), url);
}

/** Per peak, the loudest of |min| and |max| of one channel. */
function envelope(channel: { min: number[]; max: number[] }): number[] {
  return channel.max.map((max, i) => Math.max(max, -channel.min[i]!));
}

/**
 * Where each turn (and tone) of the script starts and ends in `peaks`, as the call view finds
 * speech (speech-activity.ts): the first and last speech found in the turn's lane within 0.25 s of
 * the turn (turns are at least 0.5 s apart). NaN when none is found there. Seconds, shifted by
 * `-delaySeconds` to the original's timeline.
 */
function turnEdgesOf(peaks: ComputedPeaks, call: EncodedCall): Array<[number, number]> {
  const lanes = speechActivity({ ...peaks, fromCache: false })?.segments ?? [];
  const spans = [
    ...call.script.turns.map((t) => ({ ...t, lane: call.channels === 2 ? t.channel : 0 })),
    ...call.script.toneSeconds.map((t) => ({ startSeconds: t, endSeconds: t + TONE_SECONDS, lane: 0 })),
  ];
  return spans.map((turn) => {
    const from = turn.startSeconds - 0.25;
    const to = turn.endSeconds + 0.25;
    const inside = (lanes[turn.lane] ?? [])
      .map((s) => ({ start: s.startSeconds - call.delaySeconds, end: s.endSeconds - call.delaySeconds }))
      .filter((s) => s.end > from && s.start < to);
    return [inside[0]?.start ?? NaN, inside.at(-1)?.end ?? NaN];
  });
}

/** Largest distance between a format's turn edges and the original's (Infinity when a turn is missing). */
function worstEdgeSeconds(actual: Array<[number, number]>, expected: Array<[number, number]>): number {
  let worst = 0;
  for (const [i, [start, end]] of actual.entries()) {
    const [wantStart, wantEnd] = expected[i]!;
    const off = Math.max(Math.abs(start - wantStart), Math.abs(end - wantEnd));
    worst = Math.max(worst, Number.isNaN(off) ? Infinity : off);
  }
  return worst;
}

beforeAll(async () => {
  calls = await encodeFormatMatrix();
  for (const { sampleRate, channels } of calls) {
    const key = `${sampleRate} ${channels}`;
    if (references.has(key)) continue;
    const reference = await encodeCall({ format: 'wav-s16', sampleRate, channels });
    references.set(key, await decodeToPeaks(chunksOf(reference.file)));
  }
  rig = await startDecoderPage();
  return () => rig.close();
}, 300_000);

describe('the page decodes every format Chromium plays', () => {
  it('draws each format with its lanes, its duration and the original turns', async () => {
    const report: string[] = [];
    for (const call of calls) {
      const result = await decodeInPage(call);
      expect(result.error, call.label).toBeNull();
      const peaks = result.peaks!;
      expect(peaks.channels, `${call.label}: lanes`).toHaveLength(call.channels);
      const expectedSeconds = call.script.durationSeconds + call.delaySeconds;
      // Decoders hand out whole frames; the container says where the sound ends (WebM's padding aside: 7 ms).
      expect(Math.abs(peaks.durationSeconds - expectedSeconds), `${call.label}: duration`).toBeLessThan(0.03);
      expect(result.progressCount, `${call.label}: progressive`).toBeGreaterThanOrEqual(1);

      const reference = turnEdgesOf(references.get(`${call.sampleRate} ${call.channels}`)!, {
        ...call,
        delaySeconds: 0,
      });
      const worst = worstEdgeSeconds(turnEdgesOf(peaks, call), reference);
      report.push(
        `${call.label.padEnd(28)} ${peaks.durationSeconds.toFixed(4)} s, turns within ${(worst * 1000).toFixed(0)} ms`,
      );
      expect(worst, `${call.label}: turns against the original`).toBeLessThanOrEqual(TURN_TOLERANCE_SECONDS);
    }
    console.info(`Page decoder, every format:\n${report.join('\n')}`);
  });

  it('draws the waveform main draws for every format both decode', async () => {
    const report: string[] = [];
    for (const call of calls.filter((c) => !PAGE_ONLY.has(c.format))) {
      const [page, main] = [(await decodeInPage(call)).peaks!, await decodeToPeaks(chunksOf(call.file))];
      expect(page.channels.length, call.label).toBe(main.channels.length);
      expect(Math.abs(page.durationSeconds - main.durationSeconds), `${call.label}: duration`).toBeLessThan(0.002);
      expect(Math.abs(page.length - main.length), `${call.label}: peak count`).toBeLessThanOrEqual(1);
      let worstMean = 0;
      for (const [c, channel] of page.channels.entries()) {
        const a = envelope(channel);
        const b = envelope(main.channels[c]!);
        const n = Math.min(a.length, b.length);
        let sum = 0;
        for (let i = 0; i < n; i++) sum += Math.abs(a[i]! - b[i]!);
        worstMean = Math.max(worstMean, sum / n);
      }
      report.push(`${call.label.padEnd(28)} mean |page - main| ${worstMean.toFixed(4)}`);
      // Different decoders of the same stream differ by rounding: far below a pixel of the waveform.
      expect(worstMean, `${call.label}: waveform against main's`).toBeLessThan(0.005);
    }
    console.info(`Page decoder against main's worker:\n${report.join('\n')}`);
  });

  it('refuses bytes that are not audio in the words main uses', async () => {
    const call = calls.find((c) => c.format === 'wav-s16')!;
    const notAudio = rig.serve(`${call.file}.json`.replace(/call-.*$/, 'original-48000hz-2ch.wav.json'), 'text/html');
    const result = await rig.page.evaluate((u) => window.decoderPage.decode(u), notAudio);
    expect(result.error).toEqual({
      kind: 'invalid_response',
      message: "The recording's audio format could not be decoded for the waveform; it may still play.",
    });
  });

  it('passes a failed download through as that failure, not as an undecodable recording', async () => {
    const call = calls.find((c) => c.format === 'webm-opus')!;
    const broken = rig.serveBroken(call.file, call.mimeType, 16 * 1024);
    const result = await rig.page.evaluate((u) => window.decoderPage.decode(u), broken);
    expect(result.peaks).toBeNull();
    expect(result.error?.kind).not.toBe('invalid_response');
    expect(result.error?.message).toMatch(/network|fetch|failed/i);
  });
});
