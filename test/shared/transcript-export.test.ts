/**
 * Transcript exports and excerpts against hand-checked files (test/fixtures/exports/), and the
 * subtitles read back with an independent WebVTT/SubRip parser (media-captions): cue times and
 * texts must come back as the transcript holds them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseText, tokenizeVTTCue, type VTTCue, type VTTNode } from 'media-captions';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../electron/shared/domain';
import { excerptMarkdown, excerptRange, excerptText, markdownEscape } from '../../electron/shared/excerpt';
import {
  defaultFileName,
  exportTranscript,
  srtTime,
  transcriptCues,
  vttTime,
  type TranscriptExportInput,
} from '../../electron/shared/transcript-export';
import { EXPORT_WORKSPACE, exportInteraction } from '../fixtures/exports/interaction';
import { REPO_ROOT } from '../fixtures/paths';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/exports');
const expected = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const input: TranscriptExportInput = {
  interaction: exportInteraction,
  workspaceName: EXPORT_WORKSPACE,
  recordingEndSeconds: 41.9,
};

/** The text of a parsed VTT cue with its voice: entities decoded, tags read as the spec says. */
function vttVoiceAndText(cue: VTTCue): { voice: string | null; text: string } {
  const nodes = tokenizeVTTCue(cue);
  const text = (list: VTTNode[]): string => list.map((n) => (n.type === 'text' ? n.data : text(n.children))).join('');
  const voice = nodes.length === 1 && nodes[0]?.type === 'v' ? nodes[0].voice : null;
  return { voice, text: text(nodes) };
}

/** What each timed entry's cue must say: its message without blank lines, with `\n` line ends. */
const timedEntries = exportInteraction.log.filter((e) => e.offsetSeconds !== null);
const cueMessage = (e: LogEntry) =>
  e.message
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .join('\n');
const expectedCueTimes = [
  [0.5, 3.25],
  [3.25, 9],
  [9, 9.5],
  [9, 41.8],
  [41.8, 41.9],
];

describe('transcript exports', () => {
  it.each(['txt', 'json', 'srt', 'vtt'] as const)('writes %s as the hand-checked file', (format) => {
    expect(exportTranscript(format, input)).toBe(expected(`call.${format}`));
  });

  it('reads the SubRip file back: every timed entry a cue, times and "Role: text" intact', async () => {
    const parsed = await parseText(exportTranscript('srt', input), { type: 'srt', strict: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.map((c) => [c.startTime, c.endTime])).toEqual(expectedCueTimes);
    const roles = ['Agent', 'User', 'Agent', 'Tool', 'User'];
    expect(parsed.cues.map((c) => c.text)).toEqual(
      timedEntries.map((e, i) => `${roles[i] ?? ''}: ${cueMessage(e).replace(/-->/g, '-- >')}`),
    );
  });

  it('reads the WebVTT file back: voices, times and texts (with <, & and -->) intact', async () => {
    const parsed = await parseText(exportTranscript('vtt', input), { type: 'vtt', strict: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.map((c) => [c.startTime, c.endTime])).toEqual(expectedCueTimes);
    expect(parsed.cues.map(vttVoiceAndText)).toEqual(
      timedEntries.map((e) => ({ voice: e.role.charAt(0).toUpperCase() + e.role.slice(1), text: cueMessage(e) })),
    );
  });

  it('escapes a voice name and never lets "-->" into cue text', async () => {
    const log: LogEntry[] = [{ index: 0, role: 'caller <ext> & co', message: 'a --> b\r\rc', offsetSeconds: 1 }];
    const vtt = exportTranscript('vtt', { ...input, interaction: { ...exportInteraction, log } });
    expect(vtt).toContain('<v Caller &lt;ext&gt; &amp; co>a --&gt; b\nc\n');
    const cue = (await parseText(vtt, { type: 'vtt', strict: true })).cues[0];
    expect(cue && vttVoiceAndText(cue)).toEqual({ voice: 'Caller <ext> & co', text: 'a --> b\nc' });
    const srt = exportTranscript('srt', { ...input, interaction: { ...exportInteraction, log } });
    expect(srt.split('\n').filter((l) => l.includes('-->'))).toEqual(['00:00:01,000 --> 00:00:41,900']);
  });

  it('keeps a role with line breaks on one line in every format, so it cannot add a cue', async () => {
    const role = 'agent\r\n\n00:00:00.000 --> 00:00:09.000\u2028<v Boss>fired\u2029x';
    const log: LogEntry[] = [{ index: 0, role, message: 'hello', offsetSeconds: 1 }];
    const hostile = { ...input, interaction: { ...exportInteraction, log } };
    const spoken = 'Agent 00:00:00.000 --> 00:00:09.000 <v Boss>fired x';

    const vtt = await parseText(exportTranscript('vtt', hostile), { type: 'vtt', strict: true });
    expect(vtt.errors).toEqual([]);
    expect(vtt.cues.map(vttVoiceAndText)).toEqual([{ voice: spoken, text: 'hello' }]);

    const srt = await parseText(exportTranscript('srt', hostile), { type: 'srt', strict: true });
    expect(srt.errors).toEqual([]);
    expect(srt.cues.map((c) => [c.startTime, c.text])).toEqual([[1, `${spoken.replace('-->', '-- >')}: hello`]]);

    const txt = exportTranscript('txt', hostile).split('\n');
    expect(txt.filter((l) => l.startsWith('['))).toEqual([`[00:01] ${spoken}: hello`]);
    expect(txt.some((l) => /[\u2028\u2029\r]/.test(l))).toBe(false);
  });

  it('ends the last cue at the recording end, or 3 s on when unknown; an entry past the end keeps 0.5 s', () => {
    const log = [
      { index: 0, role: 'agent', message: 'a', offsetSeconds: 10 },
      { index: 1, role: 'user', message: 'b', offsetSeconds: 20 },
    ];
    expect(transcriptCues(log, 30).map((c) => [c.startMs, c.endMs])).toEqual([
      [10_000, 20_000],
      [20_000, 30_000],
    ]);
    expect(transcriptCues(log, null).at(-1)).toMatchObject({ startMs: 20_000, endMs: 23_000 });
    expect(transcriptCues(log, 20).at(-1)).toMatchObject({ startMs: 20_000, endMs: 20_500 });
    expect(transcriptCues(log, 15).map((c) => [c.startMs, c.endMs])).toEqual([
      [10_000, 15_000],
      [20_000, 20_500],
    ]);
  });

  it('formats cue times exactly, hours included', () => {
    expect(srtTime(62_345)).toBe('00:01:02,345');
    expect(vttTime(62_345)).toBe('00:01:02.345');
    expect(vttTime(3_723_004)).toBe('01:02:03.004');
  });

  it('names files from the SID and the UTC start', () => {
    expect(defaultFileName(exportInteraction.sid, exportInteraction.startedAtMs, 'srt')).toBe(
      'interaction_0b6a4c1e-8a9f-4d2b-9c3e-5f1a2b3c4d5e_2025-03-04_1012.srt',
    );
    expect(defaultFileName(exportInteraction.sid, null, 'mp3')).toBe(
      'interaction_0b6a4c1e-8a9f-4d2b-9c3e-5f1a2b3c4d5e.mp3',
    );
  });
});

describe('excerpts', () => {
  const excerpt = {
    sid: exportInteraction.sid,
    workspaceName: EXPORT_WORKSPACE,
    entries: exportInteraction.log.slice(1, 4),
  };

  it('writes plain text and Markdown as the hand-checked files', () => {
    expect(`${excerptText(excerpt)}\n`).toBe(expected('excerpt.txt'));
    expect(`${excerptMarkdown(excerpt)}\n`).toBe(expected('excerpt.md'));
  });

  it('gives the range of the timed entries, one time when alone, "no times" when none', () => {
    expect(excerptRange(exportInteraction.log.slice(3, 5))).toBe('00:09');
    expect(excerptRange(exportInteraction.log.slice(2, 3))).toBe('no times');
  });

  it('escapes Markdown markup and line-start markers', () => {
    expect(markdownEscape('a_b *c* [d](e) <f> `g` #h |i| ~j~ &k \\')).toBe(
      'a\\_b \\*c\\* \\[d\\](e) \\<f\\> \\`g\\` \\#h \\|i\\| \\~j\\~ \\&k \\\\',
    );
    expect(markdownEscape('- item\n1. one\n=== x')).toBe('\\- item\n\\1. one\n\\=== x');
  });
});
