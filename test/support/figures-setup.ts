import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Figure, Result } from './figures.ts';

// Global set-up of the system suite: a file the test files append their figures and results to,
// printed at the end of the run as two tables — one row per promise (tests passed, what was
// counted, key figures, result), then every figure measured.

export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'review-desk-figures-'));
  const file = path.join(dir, 'figures.jsonl');
  project.provide('figuresFile', file);
  return () => {
    const lines = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Figure | Result)
      : [];
    rmSync(dir, { recursive: true, force: true });
    const results = lines.filter((l): l is Result => 'kind' in l && l.kind === 'result');
    const figures = lines.filter((l): l is Figure => !('kind' in l));
    if (results.length === 0 && figures.length === 0) return;
    const soak = process.env.RD_SOAK === '1';
    process.stdout.write(`\n${promiseTable(results, figures, soak)}\n\n${summaryTable(figures)}\n`);
    // The soak's fuzz promise is a count across two files: only here can it be checked.
    const fuzzCases = fuzzTotal(figures);
    if (soak && fuzzCases !== null && fuzzCases < SOAK_FUZZ_MINIMUM)
      throw new Error(`the soak ran ${fuzzCases} fuzz cases; it must run at least ${SOAK_FUZZ_MINIMUM}`);
  };
}

/** The promises of docs/reliability.md, the files of this project that prove them, and their figure areas. */
export const PROMISES: {
  id: string;
  promise: string;
  files: string[];
  areas: string[];
  elsewhere?: string;
}[] = [
  {
    id: '1',
    promise: 'faulty upstream: envelope, right status, in time, others served, memory bounded',
    files: ['faults.test.ts'],
    areas: ['faults'],
    elsewhere: 'browser: e2e/reliability-faults.spec.ts',
  },
  {
    id: '2',
    promise: 'at most one send per intent under faults',
    files: ['at-most-once.test.ts'],
    areas: ['at-most-once'],
  },
  {
    id: '3',
    promise: 'fuzzing: no 5xx, no crash, only envelopes, only the allow-list',
    files: ['fuzz-api.test.ts', 'fuzz-bff.test.ts'],
    areas: ['fuzz'],
  },
  {
    id: '4',
    promise: 'the API key never reaches a browser or a log',
    files: [],
    areas: [],
    elsewhere: 'e2e/reliability-secrets.spec.ts, apps/bff/test/secrets.test.ts (npm test)',
  },
  {
    id: '5',
    promise: 'durability: acknowledged writes survive SIGKILL',
    files: ['durability.test.ts'],
    areas: ['durability'],
  },
  {
    id: '6',
    promise: 'load: intended 429s only, memory and p99 stable',
    files: ['load-smoke.test.ts', 'soak/load.soak.ts'],
    areas: ['load (smoke)', 'load (soak)'],
  },
  {
    id: '7',
    promise: 'security: fixation, logout, roles, CORS, CSRF',
    files: ['security.test.ts'],
    areas: ['security'],
    elsewhere: 'cookies, CSP, throttling: apps/bff/test, e2e/reliability-secrets.spec.ts',
  },
];

/** Fuzz cases the soak run must reach in total (both fuzzers). */
export const SOAK_FUZZ_MINIMUM = 100_000;

/** Fuzz cases run by both fuzzers, or null when neither recorded any. */
function fuzzTotal(figures: Figure[]): number | null {
  const counts = figures.filter(
    (f) => f.area === 'fuzz' && f.what.endsWith('cases run') && typeof f.value === 'number',
  );
  return counts.length === 0 ? null : counts.reduce((sum, f) => sum + Number(f.value), 0);
}

const show = (f: Figure) =>
  `${f.what} ${typeof f.value === 'number' ? f.value.toLocaleString('en-US') : f.value}${f.unit ? ` ${f.unit}` : ''}`;

export function promiseTable(results: Result[], figures: Figure[], soak: boolean): string {
  const rows = PROMISES.map((p) => {
    const mine = results.filter((r) => p.files.includes(r.file));
    const passed = mine.filter((r) => r.state === 'pass').length;
    const failed = mine.filter((r) => r.state === 'fail').length;
    const own = figures.filter((f) => p.areas.includes(f.area));
    const counted = own.filter((f) => f.summary === 'counted').map(show);
    const key = own.filter((f) => f.summary === 'key').map(show);
    let result =
      mine.length === 0 ? 'not in this run' : failed > 0 ? 'FAIL' : passed > 0 ? 'pass' : 'skipped';
    if (p.id === '3' && mine.length > 0) {
      const total = fuzzTotal(figures) ?? 0;
      counted.unshift(`${total.toLocaleString('en-US')} fuzz cases in total`);
      if (soak && result === 'pass' && total < SOAK_FUZZ_MINIMUM)
        result = `FAIL (< ${SOAK_FUZZ_MINIMUM.toLocaleString('en-US')} cases)`;
    }
    if (mine.length === 0 && p.elsewhere) counted.push(p.elsewhere);
    else if (p.elsewhere) key.push(`also ${p.elsewhere}`);
    return [
      p.id,
      p.promise,
      mine.length === 0 ? '–' : `${passed}/${mine.length}`,
      counted.join('; '),
      key.join('; '),
      result,
    ];
  });
  return table(
    `Reliability and security — promises of this run (${soak ? 'soak' : 'fast'} sizes)`,
    ['#', 'promise', 'tests passed', 'counted', 'key figures', 'result'],
    rows,
    [],
  );
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
  return table(
    'Reliability and security — figures of this run',
    ['area', 'figure', 'value', 'unit'],
    rows,
    [2],
  );
}

function table(title: string, head: string[], rows: string[][], rightAligned: number[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (rightAligned.includes(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  return [title, line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join(
    '\n',
  );
}
