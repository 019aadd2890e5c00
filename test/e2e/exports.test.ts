/**
 * Taking a call out of the app, end to end: the built renderer in Debian's Chromium with the built
 * preload, against the embedded demo service, main built by the app's composition root with its
 * save dialog stood in by a chooser of paths in a temporary folder. The page's own `window.api`
 * (the components are not placed in a view yet) exports a call's transcript as SubRip and WebVTT,
 * read back with media-captions; downloads its recording, compared byte for byte with the demo's
 * file; and lists the recent calls after three lookups through the lookup box.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseText, tokenizeVTTCue } from 'media-captions';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult, RecordingPeaks, VoiceReviewApi } from '../../electron/shared/contract';
import type { Interaction } from '../../electron/shared/domain';
import { speakerLabel } from '../../electron/shared/transcript-export';
import { ensureBuilt } from './build';
import { openDemoAfresh, ROOT, showInteraction, startHarness, type Harness } from './harness';

let h: Harness;
let saveDir: string;
/** Demo calls with a playable recording. */
let calls: Interaction[] = [];

beforeAll(async () => {
  ensureBuilt();
  saveDir = mkdtempSync(join(tmpdir(), 'vr-e2e-saves-'));
  h = await startHarness({ chooseSavePath: (request) => Promise.resolve(join(saveDir, request.defaultName)) });
  await h.session.openDemo();
  for (const demo of (await h.session.info()).demoInteractions) {
    const result = await h.handlers.getInteraction([demo.sid]);
    if (result.ok && (result.value as Interaction).recording.available) calls.push(result.value as Interaction);
  }
  calls = calls.filter((c) => c.log.some((e) => e.offsetSeconds !== null));
  expect(calls.length, 'the demo seed has three calls with a recording and a timed transcript').toBeGreaterThanOrEqual(
    3,
  );
});

beforeEach(async () => {
  h.pageErrors.length = 0;
  await openDemoAfresh(h);
});

afterEach(() => {
  expect(h.pageErrors).toEqual([]);
});

afterAll(async () => {
  await h.close();
  rmSync(saveDir, { recursive: true, force: true });
});

/**
 * Calls `window.api[method](...args)` in the page, as the renderer's bridge does (the raw bridge
 * answers with the IPC result: the value, or the error as data, which is thrown here).
 */
async function inPage<K extends 'exportTranscript' | 'downloadRecording' | 'listRecentCalls' | 'clearRecentCalls'>(
  method: K,
  ...args: Parameters<VoiceReviewApi[K]>
): Promise<Awaited<ReturnType<VoiceReviewApi[K]>>> {
  const result = await h.page.evaluate(
    ([m, a]) => {
      const api = (window as unknown as { api: Record<string, (...x: unknown[]) => Promise<unknown>> }).api;
      return api[m]!(...a);
    },
    [method, args] as const,
  );
  const answer = result as IpcResult<Awaited<ReturnType<VoiceReviewApi[K]>>>;
  if (!answer.ok) throw new Error(`${method} failed: ${answer.error.message}`);
  return answer.value;
}

describe('exports through the page', () => {
  it('exports SubRip and WebVTT whose cues read back with the transcript’s times, voices and texts', async () => {
    const call = calls[0]!;
    await showInteraction(h.page, call.sid);
    const peaks = await h.handlers.getPeaks([call.sid]);
    const endSeconds = peaks.ok ? (peaks.value as RecordingPeaks).durationSeconds : null;
    const timed = call.log.filter((e) => e.offsetSeconds !== null);
    const starts = timed.map((e) => Math.round((e.offsetSeconds ?? 0) * 1000) / 1000);

    const srt = await inPage('exportTranscript', call.sid, 'srt');
    expect(srt.saved).toMatch(new RegExp(`^${call.sid}_\\d{4}-\\d\\d-\\d\\d_\\d{4}\\.srt$`));
    const srtCues = (await parseText(readFileSync(join(saveDir, srt.saved!), 'utf8'), { type: 'srt', strict: true }))
      .cues;
    expect(srtCues.map((c) => c.startTime)).toEqual(starts);
    expect(srtCues.map((c) => c.text.split(':')[0])).toEqual(timed.map((e) => speakerLabel(e.role)));

    const vtt = await inPage('exportTranscript', call.sid, 'vtt');
    const parsed = await parseText(readFileSync(join(saveDir, vtt.saved!), 'utf8'), { type: 'vtt', strict: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.map((c) => c.startTime)).toEqual(starts);
    for (const [i, cue] of parsed.cues.entries()) {
      expect(cue.endTime).toBeGreaterThan(cue.startTime);
      if (endSeconds !== null) expect(cue.endTime).toBeLessThanOrEqual(Math.max(endSeconds, cue.startTime + 0.5));
      const [voice] = tokenizeVTTCue(cue);
      expect(voice?.type === 'v' ? voice.voice : null).toBe(speakerLabel(timed[i]!.role));
    }
    expect(parsed.cues.map((c) => c.endTime).slice(0, -1)).toEqual(
      starts.slice(1).map((next, i) => (next > starts[i]! ? next : starts[i]! + 0.5)),
    );
  });

  it('downloads the recording into the chosen folder, byte for byte as the demo serves it', async () => {
    const call = calls[1]!;
    await showInteraction(h.page, call.sid);
    const result = await inPage('downloadRecording', call.sid);
    expect(result.saved).toMatch(/\.ogg$/);
    const saved = readFileSync(join(saveDir, result.saved!));
    const served = readFileSync(join(ROOT, 'resources', 'demo', 'recordings', `${call.sid}.ogg`));
    expect(saved.equals(served)).toBe(true);
  });

  it('lists the recent calls after three lookups, most recent first', async () => {
    await inPage('clearRecentCalls');
    for (const call of calls.slice(0, 3)) await showInteraction(h.page, call.sid);
    const recent = await inPage('listRecentCalls');
    expect(recent.map((c) => c.sid)).toEqual(
      calls
        .slice(0, 3)
        .map((c) => c.sid)
        .reverse(),
    );
    expect(recent[0]).toMatchObject({ fromNumber: calls[2]!.fromNumber, direction: calls[2]!.direction });
  });
});
