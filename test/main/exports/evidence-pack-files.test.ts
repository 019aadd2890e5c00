import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildEvidencePack,
  entriesInRange,
  writeEvidencePack,
} from '../../../electron/main/exports/evidence-pack-files';
import type { DecodedAudio } from '../../../electron/main/exports/clip-wav';
import { createWavDecoder } from '../../../electron/main/peaks/wav-decoder';
import { evidencePackRequestSchema } from '../../../electron/shared/evidence-pack-request';
import { DEFAULT_REDACTION_SETTINGS } from '../../../electron/shared/redaction';
import type { ReviewRecord } from '../../../electron/shared/reviews';
import { tempDir } from '../reviews/fixtures/review-temp';

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const RATE = 8000;

const LOG = [
  { index: 0, role: 'agent', message: 'How can I help?', offsetSeconds: 0 },
  { index: 1, role: 'agent', message: 'Can I take the card number?', offsetSeconds: 10 },
  { index: 2, role: 'user', message: "It's four four seven nine one two three four", offsetSeconds: 13 },
  { index: 3, role: 'agent', message: 'Thank you.', offsetSeconds: 18 },
  { index: 4, role: 'user', message: 'Bye', offsetSeconds: 25 },
];

/** Thirty seconds of a mono 440 Hz tone. */
function tone(): DecodedAudio {
  const data = new Float32Array(30 * RATE).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / RATE + 0.1));
  return { channelData: [data], sampleRate: RATE };
}

const RECORD: ReviewRecord = {
  workspaceId: 'ws',
  sid: SID,
  verdict: 'fail',
  scores: {},
  rubricVersion: null,
  scorePercent: null,
  tags: ['pci'],
  ticket: { kind: 'id', id: 'SUP-9' },
  callStartedAtMs: null,
  notes: [
    { id: 'n', sid: SID, startSeconds: 13, endSeconds: null, text: 'Card read aloud', createdAtMs: 1, updatedAtMs: 1 },
  ],
  createdAtMs: 1,
  updatedAtMs: 1,
};

function source(request: Record<string, unknown>, audio: DecodedAudio | null = tone()) {
  return {
    request: evidencePackRequestSchema.parse({
      workspaceId: 'ws',
      sid: SID,
      range: { startSeconds: 8, endSeconds: 20 },
      ...request,
    }),
    workspaceName: 'Acme',
    log: LOG,
    recordingEndSeconds: 30,
    audio,
    audioProblem: audio ? null : 'This call has no recording.',
    record: RECORD,
    redaction: DEFAULT_REDACTION_SETTINGS,
  };
}

const text = (pack: ReturnType<typeof buildEvidencePack>, name: string) => {
  const file = pack.files.find((f) => f.name === name);
  if (!file || typeof file.content !== 'string') throw new Error(`no text file ${name}`);
  return file.content;
};

describe('evidence pack', () => {
  it('holds a clip of the range with the PII turn silenced, the masked texts and the link', async () => {
    const pack = buildEvidencePack(
      source({
        timing: {
          gaps: [{ startSeconds: 16, endSeconds: 18, gapSeconds: 2 }],
          talkOver: [],
          silences: [],
          slowGapSeconds: 1.5,
          basis: 'audio',
          basisNote: null,
        },
        flagged: [{ startSeconds: 16, endSeconds: 18, label: 'Slow reply: 2.0 s' }],
      }),
    );
    expect(pack.folderName).toBe(`${SID}_00-08–00-20`);
    expect(pack.files.map((f) => f.name)).toEqual([
      'clip.wav',
      'ticket.md',
      'excerpt.txt',
      'link.txt',
      'timing.txt',
      'README.txt',
    ]);

    const wav = pack.files[0]!.content as Uint8Array;
    const decoder = await createWavDecoder();
    const pcm = await decoder.decode(wav);
    const samples = pcm!.channelData[0]!.subarray(0, pcm!.samplesDecoded);
    expect(samples.length / RATE).toBe(12);
    // The caller's turn runs 13–18 s; with 0.25 s each side that is 4.75–10.25 s into the clip.
    const zeros = [...samples.keys()].filter((i) => samples[i] === 0);
    expect(zeros[0]! / RATE).toBeCloseTo(4.75, 3);
    expect((zeros.at(-1)! + 1) / RATE).toBeCloseTo(10.25, 3);
    expect(zeros.length).toBe(5.5 * RATE);

    expect(text(pack, 'excerpt.txt')).toContain("[00:13] Caller: It's [number]");
    expect(text(pack, 'excerpt.txt')).toContain('[00:10] Agent: Can I take the card number?');
    expect(text(pack, 'ticket.md')).toContain('**Verdict:** Fail');
    expect(text(pack, 'ticket.md')).toContain('Slow reply: 2.0 s');
    expect(text(pack, 'link.txt')).toBe(`voice-review://interactions/${SID}?t=8&workspace=Acme\n`);
    expect(text(pack, 'timing.txt')).toContain('Slow replies (over 1.5 s): 00:16 (2.0 s)');
    expect(text(pack, 'README.txt')).toContain('Masked (times in the call): 00:12–00:18.');
    for (const file of pack.files) {
      if (typeof file.content === 'string') expect(file.content).not.toMatch(/four four seven/);
    }
  });

  it('leaves text and audio as they are when redaction is off, and says so', () => {
    const pack = buildEvidencePack(source({ redact: false }));
    expect(text(pack, 'excerpt.txt')).toContain('four four seven nine');
    expect(text(pack, 'README.txt')).toContain('The audio was not redacted');
    const wav = pack.files[0]!.content as Uint8Array;
    // A 440 Hz tone crosses zero now and then, never for long: nothing was silenced.
    expect(new Int16Array(wav.buffer.slice(44)).filter((x) => x === 0).length).toBeLessThan(RATE / 10);
  });

  it('still writes the texts when there is no audio, saying why there is no clip', () => {
    const pack = buildEvidencePack(source({}, null));
    expect(pack.files.map((f) => f.name)).toEqual(['ticket.md', 'excerpt.txt', 'link.txt', 'README.txt']);
    expect(text(pack, 'README.txt')).toContain('No audio clip: This call has no recording.');
  });

  it('takes the entries spoken in the range, the one already speaking at its start included', () => {
    expect(entriesInRange(LOG, { startSeconds: 11, endSeconds: 17 }, 30).map((e) => e.index)).toEqual([1, 2]);
    expect(entriesInRange(LOG, { startSeconds: 26, endSeconds: 28 }, 30).map((e) => e.index)).toEqual([4]);
    expect(entriesInRange(LOG, { startSeconds: 31, endSeconds: 40 }, 30)).toEqual([]);
  });

  it('writes a new folder of private files and never over an existing one', async () => {
    const dir = join(tempDir(), 'pack');
    const pack = buildEvidencePack(source({}));
    const paths = await writeEvidencePack(dir, pack);
    expect(paths.map((p) => p.slice(dir.length + 1))).toEqual(pack.files.map((f) => f.name));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const path of paths) expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'clip.wav')).equals(pack.files[0]!.content as Uint8Array)).toBe(true);
    await expect(writeEvidencePack(dir, pack)).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('refuses a request with an inverted or over-long range, or a hostile label, at the schema', () => {
    const base = { workspaceId: 'ws', sid: SID };
    expect(evidencePackRequestSchema.safeParse({ ...base, range: { startSeconds: 5, endSeconds: 4 } }).success).toBe(
      false,
    );
    expect(evidencePackRequestSchema.safeParse({ ...base, range: { startSeconds: 0, endSeconds: 3600 } }).success).toBe(
      false,
    );
    const label = { startSeconds: 1, endSeconds: 2, label: 'x'.repeat(121) };
    expect(
      evidencePackRequestSchema.safeParse({ ...base, range: { startSeconds: 0, endSeconds: 5 }, flagged: [label] })
        .success,
    ).toBe(false);
    expect(evidencePackRequestSchema.parse({ ...base, range: { startSeconds: 0, endSeconds: 5 } })).toMatchObject({
      mask: 'silence',
      redact: true,
      timing: null,
      flagged: [],
    });
  });
});
