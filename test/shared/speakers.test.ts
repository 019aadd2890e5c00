import { describe, expect, it } from 'vitest';
import { excerptMarkdown, excerptText } from '../../electron/shared/excerpt';
import { roleWord, speakerKind } from '../../electron/shared/speakers';
import { transcriptLines } from '../../electron/shared/transcript-export';
import type { LogEntry } from '../../electron/shared/domain';

describe('roleWord: the word a person reads for a role', () => {
  it('says Caller and Agent whatever the server calls them', () => {
    expect(['user', ' Customer ', 'CALLER'].map(roleWord)).toEqual(['Caller', 'Caller', 'Caller']);
    expect(['assistant', 'Agent'].map(roleWord)).toEqual(['Agent', 'Agent']);
    expect(['user', 'assistant', 'tool'].map(speakerKind)).toEqual(['user', 'agent', 'event']);
  });

  it('keeps other roles readable on one line, and names an empty one', () => {
    expect(roleWord('tool_call')).toBe('Tool call');
    expect(roleWord('system\n[00:09] Agent: fake line')).toBe('System [00:09] Agent: fake line');
    expect(roleWord('  ')).toBe('Unknown');
  });
});

const logEntry = (index: number, role: string, message: string, offsetSeconds: number): LogEntry => ({
  index,
  role,
  message,
  offsetSeconds,
});

describe('excerpts name the speakers as the screens do', () => {
  const entries = [logEntry(0, 'assistant', 'How can I help?', 1), logEntry(1, 'user', 'My card is blocked.', 4)];
  const input = { sid: 'interaction_1', workspaceName: 'Support', entries };

  it('in plain text and Markdown, while exported files keep the role as sent', () => {
    expect(excerptText(input)).toContain('[00:01] Agent: How can I help?\n[00:04] Caller: My card is blocked.');
    expect(excerptMarkdown(input)).toContain('**Caller:** My card is blocked.');
    expect(transcriptLines(entries)).toEqual([
      '[00:01] Assistant: How can I help?',
      '[00:04] User: My card is blocked.',
    ]);
  });
});
