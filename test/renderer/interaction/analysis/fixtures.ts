/**
 * Synthetic peaks and transcripts for the call-analysis tests: speech is a stretch of loud peaks
 * on one channel, everything else near-silent hiss.
 */
import type { RecordingPeaks } from '$shared/contract';
import type { LogEntry } from '$shared/domain';

/** Speech on `channel` from `from` to `to` seconds at `amplitude` (0..1, default 0.6). */
export interface Speech {
  channel: number;
  from: number;
  to: number;
  amplitude?: number;
}

/** Peaks per second of the synthetic recordings (10 ms peaks, as main makes for short calls). */
const PEAKS_PER_SECOND = 100;
/** Amplitude of the hiss everywhere else. */
const HISS = 0.003;

/** Peaks of a `channels`-channel recording of `durationSeconds` with the given speech. */
export function syntheticPeaks(durationSeconds: number, channels: number, speech: readonly Speech[]): RecordingPeaks {
  const length = Math.round(durationSeconds * PEAKS_PER_SECOND);
  const out = Array.from({ length: channels }, () => ({
    min: new Array<number>(length).fill(-HISS),
    max: new Array<number>(length).fill(HISS),
  }));
  for (const s of speech) {
    const ch = out[s.channel];
    if (!ch) throw new Error(`No channel ${String(s.channel)}`);
    for (
      let i = Math.round(s.from * PEAKS_PER_SECOND);
      i < Math.min(length, Math.round(s.to * PEAKS_PER_SECOND));
      i += 1
    ) {
      // A little texture, so speech is not one flat level.
      const a = (s.amplitude ?? 0.6) * (0.7 + 0.3 * Math.abs(Math.sin(i / 3)));
      ch.min[i] = -a;
      ch.max[i] = a;
    }
  }
  return { durationSeconds, sampleRate: 16_000, length, channels: out, fromCache: false };
}

/** A transcript from [role, offset seconds or null, message?] rows, indexed in order. */
export function transcript(rows: readonly [string, number | null, string?][]): LogEntry[] {
  return rows.map(([role, offsetSeconds, message], index) => ({
    index,
    role,
    message: message ?? `${role} line ${String(index)}`,
    offsetSeconds,
  }));
}
