/**
 * Builds the demo data set from the hand-written sources in resources/demo:
 *
 *   conversations.json  interactions (numbers, agents, variables, transcript lines without times)
 *   account.json        phones, SIP trunks and webhooks, already in the API's wire format (spec 2)
 *
 * and writes
 *
 *   recordings/<sid>.ogg  one Ogg/Opus file per finished interaction: every `agent` / `user` line spoken
 *                         with espeak-ng (one voice per role, the caller's voice varies per call),
 *                         separated by natural pauses, mono 16 kHz, 16 kbit/s; or stereo (32 kbit/s)
 *                         with the agent on one channel and the caller on the other when the
 *                         interaction sets `agent_channel`
 *   seed.json             what the demo server serves: interactions in wire format (spec 2) whose log
 *                         timestamps are the moments the lines are spoken in the recording, plus phones,
 *                         sip_trunks, webhooks and `interaction_labels` (sid -> short human label)
 *
 * A line may set `pause_before_seconds` (the silence before it, instead of a natural pause: a slow reply or
 * a long silence placed on purpose) or, in a stereo call, `overlap_seconds` (it starts that long before
 * the previous spoken line ends: talk-over). An interaction's optional `label` goes before its generated
 * label in the demo's call list.
 *
 * Existing recordings are kept as they are (so their bytes do not change with the encoder's version);
 * pass `--force` to encode every recording again.
 *
 * Lines with any other role (`system`, `tool`) are not spoken: they get the time at which they happen
 * between two spoken lines. The in-progress interaction gets no recording, but its lines are still
 * rendered (and thrown away) so that its timestamps are as realistic as the others.
 *
 * The spec gives no units for started_at / ended_at / duration / log timestamp (spec 2, "Gaps"), so the
 * seed deliberately mixes encodings; the app must cope with all of them. Per `timestamp_variant`:
 *
 *   A  started_at / ended_at: epoch seconds (integer); duration: seconds (integer);
 *      log timestamp: offset from the start in seconds (float, 2 decimals)
 *   B  started_at / ended_at: epoch milliseconds (integer); duration: seconds (integer);
 *      log timestamp: absolute epoch milliseconds (integer)
 *   C  started_at / ended_at: epoch seconds (integer); duration: seconds (integer);
 *      log timestamp: absolute epoch seconds (float, 2 decimals)
 *   D  as A, but duration is given in milliseconds (integer), which disagrees with started_at/ended_at
 *
 * The app's rule: an epoch value >= 1e11 is milliseconds, otherwise seconds; a log timestamp on the same
 * clock as started_at is absolute, otherwise it is an offset in seconds from the start.
 *
 * Run: `npm run audio` (scripts/generate-demo-audio.sh checks the tools, then runs this with tsx).
 * Needs espeak-ng, sox/soxi and opusenc on PATH. Output is deterministic for a given set of tools.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TRIM_SPEECH_SILENCE } from '../test/fixtures/sox-effects';

/** espeak-ng writes 22.05 kHz WAV; all timing is computed in samples at this rate. */
const RENDER_RATE = 22050;
/** Voice of the agent in every call. The caller's voice is set per interaction in conversations.json. */
const AGENT_VOICE = 'en-us+f3';
const AGENT_WORDS_PER_MINUTE = 165;
/** Silence before the first spoken line (the call connecting), seconds. */
const LEAD_IN_SECONDS = 0.35;
/** Silence after the last entry, so that a final system/tool entry still lies within the recording. */
const TAIL_SECONDS = 0.8;
/** Gap after a non-spoken entry (tool call, system event) before the next entry, seconds. */
const UNSPOKEN_GAP_SECONDS = 0.3;
const OPUS_BITRATE_KBPS = '16';
/** Stereo needs more: at low bitrates Opus codes the two channels jointly and they bleed into each other. */
const STEREO_OPUS_BITRATE_KBPS = '32';
/** Encode every recording again even when it exists (see the header). */
const FORCE = process.argv.includes('--force');

type TimestampVariant = 'A' | 'B' | 'C' | 'D';

interface SourceLine {
  role: string;
  message: string;
  /** Silence before this line, seconds, instead of a natural pause. */
  pause_before_seconds?: number;
  /** Stereo only: the line starts this many seconds before the previous spoken line ends. */
  overlap_seconds?: number;
}

interface SourceInteraction {
  sid: string;
  topic: string;
  timestamp_variant: TimestampVariant;
  direction: string;
  type: string;
  status: string;
  from_number: string;
  to_number: string;
  agent_sid: string;
  /** ISO 8601 UTC start of the call. */
  started_at: string;
  user_voice: string;
  /** Set for a stereo recording: the channel the agent speaks on (the caller on the other). */
  agent_channel?: 'left' | 'right';
  /** Goes before the generated label in the demo's call list, e.g. "Slow reply (mono)". */
  label?: string;
  variables: Record<string, string>;
  log: SourceLine[];
}

/** An interaction in the wire format of spec 2. */
interface WireInteraction {
  sid: string;
  from_number: string;
  to_number: string;
  direction: string;
  type: string;
  status: string;
  agent_sid: string;
  started_at: number;
  ended_at?: number;
  duration?: number;
  variables: Record<string, string>;
  recording_url?: string;
  log: { role: string; message: string; timestamp: number }[];
}

const ROOT = path.resolve(__dirname, '..');
const DEMO_DIR = path.join(ROOT, 'resources', 'demo');
const RECORDINGS_DIR = path.join(DEMO_DIR, 'recordings');

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Small deterministic PRNG (mulberry32) so pauses are the same on every run. */
function seededRandom(seedText: string): () => number {
  let seed = 0;
  for (const char of seedText) seed = (Math.imul(seed, 31) + char.charCodeAt(0)) >>> 0;
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function isSpoken(role: string): boolean {
  return role === 'agent' || role === 'user';
}

function silenceFile(dir: string, samples: number): string {
  const file = path.join(dir, `silence-${samples}.wav`);
  if (!fs.existsSync(file)) {
    // Rate and channels go before `-n` (they describe the null input); otherwise sox trims at 48 kHz and resamples.
    run('sox', ['-r', String(RENDER_RATE), '-c', '1', '-n', '-b', '16', file, 'trim', '0', `${samples}s`]);
  }
  return file;
}

/** Speaks one line into a WAV with leading and trailing silence trimmed; returns the file and its length in samples. */
function renderLine(
  dir: string,
  name: string,
  text: string,
  voice: string,
  wordsPerMinute: number,
): { file: string; samples: number } {
  const raw = path.join(dir, `${name}-raw.wav`);
  const file = path.join(dir, `${name}.wav`);
  run('espeak-ng', ['-v', voice, '-s', String(wordsPerMinute), '-w', raw, text]);
  run('sox', [raw, '-r', String(RENDER_RATE), '-c', '1', '-b', '16', file, ...TRIM_SPEECH_SILENCE]);
  const samples = Number(run('soxi', ['-s', file]).trim());
  if (!Number.isInteger(samples) || samples <= 0) throw new Error(`soxi gave no length for ${file}`);
  return { file, samples };
}

function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
}

function labelFor(source: SourceInteraction, recordingSeconds: number | null): string {
  const direction = source.direction.charAt(0).toUpperCase() + source.direction.slice(1);
  const kind = source.type === 'phone_call' ? direction : `${direction} ${source.type.replace(/_/g, ' ')}`;
  const parts = [...(source.label === undefined ? [] : [source.label]), kind, source.topic];
  if (source.status === 'in_progress') parts.push('in progress');
  else if (recordingSeconds !== null) parts.push(formatDuration(recordingSeconds));
  if (source.status !== 'completed' && source.status !== 'in_progress') parts.push(source.status.replace(/_/g, ' '));
  return parts.join(' · ');
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A spoken line placed in the recording. */
interface Placement {
  file: string;
  /** Where it starts, in samples at RENDER_RATE. */
  start: number;
  samples: number;
  agent: boolean;
}

interface Rendered {
  /** Offset of each log entry from the start of the call (and of the recording), seconds. */
  offsetsSeconds: number[];
  /** Length of the whole recording, seconds. */
  totalSeconds: number;
  /** WAV pieces in playback order (mono calls, which have no overlap). */
  pieces: string[];
  /** The spoken lines where they start (stereo calls build each channel from these). */
  placements: Placement[];
}

function renderInteraction(source: SourceInteraction, workDir: string): Rendered {
  const random = seededRandom(source.sid);
  const userWordsPerMinute = 150 + Math.floor(random() * 25);
  const pieces: string[] = [];
  const offsetsSeconds: number[] = [];
  let cursor = 0;
  const addSilence = (seconds: number): void => {
    const samples = Math.round(seconds * RENDER_RATE);
    pieces.push(silenceFile(workDir, samples));
    cursor += samples;
  };

  addSilence(LEAD_IN_SECONDS);
  let previousSpoken: boolean | null = null;
  const placements: Placement[] = [];
  source.log.forEach((line, index) => {
    const overlap = Math.round((line.overlap_seconds ?? 0) * RENDER_RATE);
    if (overlap > 0 && (source.agent_channel === undefined || !previousSpoken || !isSpoken(line.role))) {
      throw new Error(`${source.sid}: line ${index} overlaps, which needs a stereo call and two spoken lines`);
    }
    if (previousSpoken !== null && overlap === 0) {
      addSilence(line.pause_before_seconds ?? (previousSpoken ? 0.4 + random() * 0.5 : UNSPOKEN_GAP_SECONDS));
    }
    previousSpoken = isSpoken(line.role);
    const start = cursor - overlap;
    offsetsSeconds.push(start / RENDER_RATE);
    if (!isSpoken(line.role)) return;
    const agent = line.role === 'agent';
    const { file, samples } = renderLine(
      workDir,
      `line-${String(index).padStart(3, '0')}`,
      line.message,
      agent ? AGENT_VOICE : source.user_voice,
      agent ? AGENT_WORDS_PER_MINUTE : userWordsPerMinute,
    );
    pieces.push(file);
    placements.push({ file, start, samples, agent });
    cursor = Math.max(cursor, start + samples);
  });
  addSilence(TAIL_SECONDS);
  return { offsetsSeconds, totalSeconds: cursor / RENDER_RATE, pieces, placements };
}

/** One channel of a stereo call: the lines of one side at their places, silence elsewhere (a WAV at RENDER_RATE). */
function channelTrack(rendered: Rendered, agent: boolean, workDir: string): string {
  const pieces: string[] = [];
  let at = 0;
  for (const line of rendered.placements.filter((p) => p.agent === agent)) {
    if (line.start < at) throw new Error(`Two ${agent ? 'agent' : 'caller'} lines overlap on one channel`);
    if (line.start > at) pieces.push(silenceFile(workDir, line.start - at));
    pieces.push(line.file);
    at = line.start + line.samples;
  }
  const total = Math.round(rendered.totalSeconds * RENDER_RATE);
  if (total > at) pieces.push(silenceFile(workDir, total - at));
  const file = path.join(workDir, agent ? 'agent-track.wav' : 'caller-track.wav');
  run('sox', [...pieces, file]);
  return file;
}

/** The call as one 16 kHz WAV: mono from the pieces in order, or stereo with the agent on `agent_channel`. */
function mixCall(source: SourceInteraction, rendered: Rendered, wav: string, workDir: string): void {
  if (source.agent_channel === undefined) {
    // sox concatenates its inputs in order; `rate 16k` resamples, `norm -1` levels the two voices' mix.
    run('sox', [...rendered.pieces, '-r', '16000', '-c', '1', '-b', '16', wav, 'norm', '-1']);
    return;
  }
  const agent = channelTrack(rendered, true, workDir);
  const caller = channelTrack(rendered, false, workDir);
  const [left, right] = source.agent_channel === 'left' ? [agent, caller] : [caller, agent];
  // -M merges the inputs as channels: first input left, second right.
  run('sox', ['-M', left, right, '-r', '16000', '-b', '16', wav, 'norm', '-1']);
}

function encodeRecording(source: SourceInteraction, rendered: Rendered, workDir: string): string {
  const fileName = `${source.sid}.ogg`;
  const out = path.join(RECORDINGS_DIR, fileName);
  if (!FORCE && fs.existsSync(out)) return fileName;
  const wav = path.join(workDir, 'call-16k.wav');
  mixCall(source, rendered, wav, workDir);
  const wavSeconds = Number(run('soxi', ['-s', wav]).trim()) / 16000;
  if (Math.abs(wavSeconds - rendered.totalSeconds) > 0.01) {
    throw new Error(`${source.sid}: concatenated audio is ${wavSeconds} s, timeline says ${rendered.totalSeconds} s`);
  }
  const serial = String((seededRandom(source.sid + ':serial')() * 2 ** 31) >>> 0);
  run('opusenc', [
    '--quiet',
    '--bitrate',
    source.agent_channel === undefined ? OPUS_BITRATE_KBPS : STEREO_OPUS_BITRATE_KBPS,
    '--serial',
    serial,
    '--title',
    source.topic,
    '--artist',
    'Voice Review demo',
    wav,
    out,
  ]);
  return fileName;
}

/** The source log, each entry stamped with `toTimestamp` of its offset in the recording (seconds). */
function timedLog(
  source: SourceInteraction,
  rendered: Rendered,
  toTimestamp: (offsetSeconds: number) => number,
): WireInteraction['log'] {
  return source.log.map((line, index) => {
    const offset = rendered.offsetsSeconds[index];
    if (offset === undefined) throw new Error(`${source.sid}: log entry ${index} has no offset in the recording`);
    return { role: line.role, message: line.message, timestamp: toTimestamp(offset) };
  });
}

function toWire(source: SourceInteraction, rendered: Rendered, recordingFile: string | null): WireInteraction {
  const random = seededRandom(source.sid + ':ms');
  const startMs = Date.parse(source.started_at);
  if (Number.isNaN(startMs)) throw new Error(`Bad started_at for ${source.sid}: ${source.started_at}`);
  const startSeconds = Math.floor(startMs / 1000);
  const finished = source.status !== 'in_progress';
  const durationSeconds = Math.round(rendered.totalSeconds);
  const wire: WireInteraction = {
    sid: source.sid,
    from_number: source.from_number,
    to_number: source.to_number,
    direction: source.direction,
    type: source.type,
    status: source.status,
    agent_sid: source.agent_sid,
    started_at: startSeconds,
    variables: source.variables,
    log: [],
  };
  switch (source.timestamp_variant) {
    case 'A':
    case 'D':
      wire.started_at = startSeconds;
      if (finished) {
        wire.ended_at = startSeconds + durationSeconds;
        wire.duration = source.timestamp_variant === 'D' ? Math.round(rendered.totalSeconds * 1000) : durationSeconds;
      }
      wire.log = timedLog(source, rendered, round2);
      break;
    case 'B': {
      const startMsWithFraction = startSeconds * 1000 + Math.floor(random() * 1000);
      wire.started_at = startMsWithFraction;
      if (finished) {
        wire.ended_at = startMsWithFraction + Math.round(rendered.totalSeconds * 1000);
        wire.duration = durationSeconds;
      }
      wire.log = timedLog(source, rendered, (offset) => startMsWithFraction + Math.round(offset * 1000));
      break;
    }
    case 'C':
      wire.started_at = startSeconds;
      if (finished) {
        wire.ended_at = startSeconds + durationSeconds;
        wire.duration = durationSeconds;
      }
      wire.log = timedLog(source, rendered, (offset) => round2(startSeconds + offset));
      break;
    default:
      throw new Error(`Unknown timestamp_variant for ${source.sid}: ${String(source.timestamp_variant)}`);
  }
  if (recordingFile !== null) wire.recording_url = `recordings/${recordingFile}`;
  // Key order as in spec 2, so the seed reads like a real response.
  const { log, variables, recording_url, ...head } = wire;
  return { ...head, variables, ...(recording_url === undefined ? {} : { recording_url }), log };
}

function main(): void {
  const conversations = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, 'conversations.json'), 'utf8')) as {
    interactions: SourceInteraction[];
  };
  const account = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, 'account.json'), 'utf8')) as Record<string, unknown>;
  fs.mkdirSync(RECORDINGS_DIR, { recursive: true });

  const interactions: WireInteraction[] = [];
  const labels: Record<string, string> = {};
  let totalBytes = 0;
  for (const source of conversations.interactions) {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-review-demo-'));
    try {
      const rendered = renderInteraction(source, workDir);
      const finished = source.status !== 'in_progress';
      const recordingFile = finished ? encodeRecording(source, rendered, workDir) : null;
      interactions.push(toWire(source, rendered, recordingFile));
      labels[source.sid] = labelFor(source, finished ? rendered.totalSeconds : null);
      const bytes = recordingFile ? fs.statSync(path.join(RECORDINGS_DIR, recordingFile)).size : 0;
      totalBytes += bytes;
      console.log(
        `${source.sid}  ${String(source.log.length).padStart(2)} lines  ${rendered.totalSeconds.toFixed(1).padStart(6)} s  ` +
          `${recordingFile ? `${(bytes / 1024).toFixed(0)} KiB` : 'no recording'}  ${labels[source.sid]}`,
      );
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }

  const seed = {
    interactions,
    interaction_labels: labels,
    phones: account.phones,
    sip_trunks: account.sip_trunks,
    webhooks: account.webhooks,
  };
  fs.writeFileSync(path.join(DEMO_DIR, 'seed.json'), `${JSON.stringify(seed, null, 2)}\n`);
  console.log(
    `Wrote ${path.relative(ROOT, path.join(DEMO_DIR, 'seed.json'))}; recordings total ${(totalBytes / 1024).toFixed(0)} KiB.`,
  );
}

main();
