/**
 * The report as blocks (headings, lines of text, tables), printed as plain text for the terminal
 * or as Markdown for docs/performance.md (`--markdown FILE`).
 */

import type { RatioSummary } from './stats';

/** A ratio as "0.85x", or "—" when it is not a number. */
export const x = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');

/** A paired ratio as "0.85x (0.80x–0.91x, n=5)"; "1.20x (n=1)" for one run, "—" for none. */
export function formatRatio(s: RatioSummary): string {
  if (s.n === 0) return '—';
  return s.n === 1 ? `${x(s.median)} (n=1)` : `${x(s.median)} (${x(s.min)}–${x(s.max)}, n=${s.n})`;
}

/** One piece of the report. */
export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'text'; lines: string[] }
  | { kind: 'table'; header: string[]; rows: string[][] };

function textTable(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  return all.map((r) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** Plain text: headings underlined, tables aligned in columns. */
export function toText(blocks: Block[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading') out.push('', block.text, '-'.repeat(block.text.length));
    else if (block.kind === 'text') out.push(...block.lines);
    else out.push(...textTable(block.header, block.rows));
  }
  return `${out.join('\n').trim()}\n`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Markdown: `###` headings, each line of text a paragraph, pipe tables (figures right-aligned). */
export function toMarkdown(blocks: Block[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading') out.push('', `### ${block.text}`, '');
    else if (block.kind === 'text') for (const line of block.lines) out.push(cell(line.trim()), '');
    else {
      out.push(`| ${block.header.map(cell).join(' | ')} |`);
      out.push(`|${block.header.map((_, c) => (c === 0 ? '---' : '---:')).join('|')}|`);
      for (const row of block.rows) out.push(`| ${row.map(cell).join(' | ')} |`);
      out.push('');
    }
  }
  return `${out.join('\n').trim()}\n`;
}
