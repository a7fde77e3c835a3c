import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Every benchmark returns tables; this prints them and writes bench/results/latest.{json,md}
// with the machine, the Node version and the date, so runs can be compared side by side.

export type Cell = string | number | null;
export type Table = {
  title: string;
  /** One line under the title: what the figures mean. */
  note?: string;
  columns: string[];
  rows: Cell[][];
};
export type Target = { name: string; target: string; measured: string; met: boolean };
export type Section = { name: string; tables: Table[]; targets: Target[]; notes?: string[] };

export const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');

export function machine() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpu: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString(),
  };
}

function format(cell: Cell): string {
  if (cell === null) return '—';
  if (typeof cell === 'number') {
    if (Number.isInteger(cell)) return cell.toLocaleString('en-US');
    return cell >= 100 ? cell.toFixed(0) : cell >= 10 ? cell.toFixed(1) : cell.toFixed(2);
  }
  return cell;
}

export function markdownTable(table: Table): string {
  const header = `| ${table.columns.join(' | ')} |`;
  const rule = `| ${table.columns.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`;
  const rows = table.rows.map((row) => `| ${row.map(format).join(' | ')} |`);
  return [`#### ${table.title}`, ...(table.note ? ['', table.note] : []), '', header, rule, ...rows].join(
    '\n',
  );
}

export function printTable(table: Table): void {
  const cells = [table.columns, ...table.rows.map((row) => row.map(format))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => String(row[i] ?? '').length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(`\n${table.title}`);
  if (table.note) console.log(table.note);
  console.log(line(cells[0] as string[]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row as string[]));
}

export function printTargets(targets: Target[]): void {
  for (const t of targets)
    console.log(`${t.met ? 'MET ' : 'MISS'}  ${t.name}: ${t.measured} (target ${t.target})`);
}

export type RunInfo = {
  quick: boolean;
  seconds: number;
  load: { before: number[]; after: number[] };
  /** The benchmarks run, when not all of them. */
  only?: string[];
};

const loadText = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

/** Writes the run's results and says under which name (`latest`, `latest-quick`, `latest-dashboard`…). */
export function writeResults(sections: Section[], run: RunInfo): string {
  mkdirSync(resultsDir, { recursive: true });
  const info = machine();
  const base = ['latest', ...(run.only ?? []), ...(run.quick ? ['quick'] : [])].join('-');
  const json = { machine: info, ...run, sections };
  writeFileSync(path.join(resultsDir, `${base}.json`), `${JSON.stringify(json, null, 2)}\n`);
  const targets = sections.flatMap((s) => s.targets.map((t) => ({ ...t, section: s.name })));
  const md = [
    `# Benchmark results${run.only ? `: ${run.only.join(', ')}` : ''}${run.quick ? ' (quick run: smaller data, shorter runs)' : ''}`,
    '',
    `${info.date} · ${info.cores} cores (${info.cpu}) · ${info.memoryGiB} GiB · Node ${info.node} · ${info.platform}`,
    '',
    `Run time ${Math.round(run.seconds)} s. Load average (1 / 5 / 15 min) before: ${loadText(run.load.before)}; after: ${loadText(run.load.after)}.`,
    '',
    `## Targets: ${targets.filter((t) => t.met).length} of ${targets.length} met`,
    '',
    '| Benchmark | Target | Goal | Measured | |',
    '| --- | --- | --- | --- | --- |',
    ...targets.map(
      (t) => `| ${t.section} | ${t.name} | ${t.target} | ${t.measured} | ${t.met ? 'met' : '**missed**'} |`,
    ),
    '',
    ...sections.flatMap((s) => [
      `## ${s.name}`,
      '',
      ...s.tables.flatMap((t) => [markdownTable(t), '']),
      ...(s.notes ?? []).map((n) => `- ${n}`),
      '',
    ]),
  ].join('\n');
  writeFileSync(path.join(resultsDir, `${base}.md`), md);
  return base;
}

/** Percentile of a sorted or unsorted sample, nearest-rank. */
export function percentile(sample: number[], p: number): number {
  if (sample.length === 0) return Number.NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(sample: number[]): number {
  return percentile(sample, 50);
}
