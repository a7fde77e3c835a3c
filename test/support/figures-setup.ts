import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Figure } from './figures.ts';

// Global set-up of the system suite: a file the test files append their figures to, printed as a
// summary table at the end of the run.

export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'review-desk-figures-'));
  const file = path.join(dir, 'figures.jsonl');
  project.provide('figuresFile', file);
  return () => {
    const figures: Figure[] = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Figure)
      : [];
    rmSync(dir, { recursive: true, force: true });
    if (figures.length === 0) return;
    process.stdout.write(`\n${summaryTable(figures)}\n`);
  };
}

export function summaryTable(figures: Figure[]): string {
  const rows = figures
    .sort((a, b) => a.area.localeCompare(b.area))
    .map((f) => [
      f.area,
      f.what,
      typeof f.value === 'number' ? f.value.toLocaleString('en-US') : f.value,
      f.unit ?? '',
    ]);
  const head = ['area', 'figure', 'value', 'unit'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  return [
    'Reliability and security — figures of this run',
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map((r) => line(r.map(String))),
  ].join('\n');
}
