/**
 * The benchmark's calls, as data: how each recording is made, the links it is measured on and
 * which targets judge its waveform. No I/O here (scripts/bench/call-files.ts makes the files), so
 * the report and the targets can use the list without starting anything.
 */
import type { FormatRequest } from '../../test/fixtures/call-formats';
import type { RecordingRequest } from '../../test/fixtures/long-call';

/** The two links of the benchmark: loopback, and recording bodies paced at 16 Mbit/s. */
export type LinkName = 'loopback' | '16 Mbit/s';
export const LINK_NAMES: readonly LinkName[] = ['loopback', '16 Mbit/s'];

export type CallName = '1 min' | '3 min' | '3 min WebM/Opus' | '3 min M4A/AAC' | '40 min' | '2 h';

/** One call of the benchmark. */
export interface BenchCall {
  /**
   * The recording test/fixtures/long-call.ts generates (espeak-ng speech repeated by sox). With
   * {@link transcode}, the source that ffmpeg then encodes.
   */
  recording: RecordingRequest;
  /** Encode {@link recording} again with ffmpeg (test/fixtures/call-formats.ts), or undefined to serve it as is. */
  transcode?: FormatRequest;
  /** Transcript entries of the call's interaction. */
  entries: number;
  /** For the report, e.g. "8 kHz mono MP3, 32 kbit/s". */
  description: string;
  /** Links the call is measured on. */
  links: readonly LinkName[];
  /**
   * A long call: its waveform is judged against 0.8x wavesurfer's full fetch on loopback and
   * against one plain download of the file at 16 Mbit/s (its first quarter too), its renderer
   * memory against 0.4x wavesurfer's; a short one's waveform against 1.0x wavesurfer's full fetch.
   */
  long: boolean;
}

const BOTH = LINK_NAMES;

/**
 * What desks see most (a 1-minute MP3; 3-minute calls as dual-channel µ-law WAV, WebM/Opus and
 * M4A/AAC) and long ones (a 40-minute MP3; a 2-hour dual-channel WAV, only over the 16 Mbit/s link,
 * where the question is whether the waveform keeps up with the download).
 */
export const CALLS: Record<CallName, BenchCall> = {
  '1 min': {
    recording: { seconds: 60, format: 'mp3' },
    entries: 20,
    description: '8 kHz mono MP3, 32 kbit/s',
    links: BOTH,
    long: false,
  },
  '3 min': {
    recording: { seconds: 180, format: 'wav', channels: 2, wavEncoding: 'mu-law' },
    entries: 60,
    description: '8 kHz dual-channel (caller / agent) G.711 µ-law WAV',
    links: BOTH,
    long: false,
  },
  // 48 kHz stereo, as a browser's or a WebRTC platform's recorder writes WebM (Opus codes at 48 kHz).
  '3 min WebM/Opus': {
    recording: { seconds: 180, format: 'wav', channels: 2 },
    transcode: { format: 'webm-opus', sampleRate: 48_000, channels: 2 },
    entries: 60,
    description: 'dual-channel WebM/Opus, 48 kHz, libopus VBR at 32 kbit/s, from the 8 kHz call',
    links: BOTH,
    long: false,
  },
  // 16 kHz stereo: AAC has no common telephone-rate profile; 16 kHz is what wideband exports use.
  '3 min M4A/AAC': {
    recording: { seconds: 180, format: 'wav', channels: 2 },
    transcode: { format: 'm4a-aac', sampleRate: 16_000, channels: 2 },
    entries: 60,
    description: 'dual-channel M4A/AAC-LC, 16 kHz, 48 kbit/s, from the 8 kHz call',
    links: BOTH,
    long: false,
  },
  '40 min': {
    recording: { seconds: 2400, format: 'mp3' },
    entries: 500,
    description: '8 kHz mono MP3, 32 kbit/s',
    links: BOTH,
    long: true,
  },
  // Two 8-bit µ-law channels: 8,000 B/s per channel, 115 MB for two hours.
  '2 h': {
    recording: { seconds: 7200, format: 'wav', channels: 2, wavEncoding: 'mu-law' },
    entries: 1500,
    description: '8 kHz dual-channel G.711 µ-law WAV',
    links: ['16 Mbit/s'],
    long: true,
  },
};
export const CALL_NAMES = Object.keys(CALLS) as CallName[];

/** The calls among `calls` that are measured on `link`, in the order given. */
export function callsOnLink(calls: readonly CallName[], link: LinkName): CallName[] {
  return calls.filter((call) => CALLS[call].links.includes(link));
}
