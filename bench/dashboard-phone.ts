import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LighthouseFigures, openLighthouseBrowser } from './lib/lighthouse.ts';
import type { Section, Table, Target } from './lib/report.ts';
import type { Stack } from './lib/stack.ts';

// The dashboard on a phone: Lighthouse's performance audit of the sign-in page (signed out) and
// of every page of bench/budgets.json (signed in as the owner on the demo data), with the
// targets of budgets.json's "phone". Each round visits every page once, so a spell of load on
// the shared machine spreads over the pages instead of landing on one; a page's figures are
// those of its median run by score.

type PhoneTargets = {
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  pages: Record<string, { score?: number; lcpMs?: number; signedOut?: true }>;
};

const budgetsFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'budgets.json');

function medianRun(runs: LighthouseFigures[]): LighthouseFigures {
  const sorted = [...runs].sort((a, b) => a.score - b.score || b.lcpMs - a.lcpMs);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function phoneSection(stack: Stack, quick: boolean): Promise<Section> {
  const budgets = JSON.parse(readFileSync(budgetsFile, 'utf8')) as {
    routes: Record<string, unknown>;
    phone: PhoneTargets;
  };
  const phone = budgets.phone;
  const signedOut = Object.keys(phone.pages).filter((p) => phone.pages[p]!.signedOut);
  const pages = [...signedOut, ...Object.keys(budgets.routes).filter((p) => !signedOut.includes(p))];
  const rounds = quick ? 1 : 3;
  const runs = new Map<string, LighthouseFigures[]>(pages.map((p) => [p, []]));
  const loadBefore = os.loadavg()[0]!;
  const browser = await openLighthouseBrowser(stack);
  try {
    for (let round = 0; round < rounds; round++)
      for (const page of pages) runs.get(page)!.push(await browser.audit(page, !signedOut.includes(page)));
  } finally {
    await browser.close();
  }
  const loadAfter = os.loadavg()[0]!;

  const rows: Table['rows'] = [];
  const targets: Target[] = [];
  const warnings = new Set<string>();
  const largest: string[] = [];
  for (const page of pages) {
    const all = runs.get(page)!;
    const run = medianRun(all);
    for (const w of all.flatMap((r) => r.warnings)) warnings.add(`${page}: ${w}`);
    largest.push(`${page}: ${run.lcpElement || 'not reported'}`);
    const want = { ...phone, ...phone.pages[page] };
    const scores = all.map((r) => r.score);
    rows.push([
      page,
      run.score,
      all.length > 1 ? `${Math.min(...scores)}–${Math.max(...scores)}` : String(run.score),
      seconds(run.fcpMs),
      seconds(run.lcpMs),
      `${Math.round(run.tbtMs)} ms`,
      run.cls.toFixed(3),
      seconds(run.speedIndexMs),
      `${Math.round(run.bytes / 1024)} KB`,
      `${run.load[0].toFixed(1)}–${run.load[1].toFixed(1)}`,
      Math.round(run.benchmarkIndex),
    ]);
    const met =
      run.score >= want.score && run.lcpMs <= want.lcpMs && run.tbtMs <= want.tbtMs && run.cls <= want.cls;
    targets.push({
      name: `${page} on a phone (Lighthouse${want.signedOut ? ', signed out' : ''})`,
      target: `score ≥ ${want.score}, largest paint ≤ ${seconds(want.lcpMs)}, blocking ≤ ${want.tbtMs} ms, layout shift ≤ ${want.cls}`,
      measured: `${run.score}, ${seconds(run.lcpMs)}, ${Math.round(run.tbtMs)} ms, ${run.cls.toFixed(3)}`,
      met,
    });
  }
  return {
    name: 'Dashboard on a phone (Lighthouse)',
    tables: [
      {
        title: `Lighthouse mobile performance, ${rounds === 1 ? 'one run' : `median of ${rounds} runs`} per page`,
        note: 'Lighthouse’s mobile defaults: 412×823 screen, simulated slow 4G (150 ms round trip, 1.6 Mbit/s) and 4× CPU slowdown. Signed in as the owner on the demo data (the sign-in page signed out). Bytes: everything transferred, compressed. Load: the one-minute load average at the start and end of the median run; CPU index: Lighthouse’s measure of the host’s speed during it (higher is faster).',
        columns: [
          'page',
          'performance',
          'range',
          'first paint',
          'largest paint',
          'blocking time',
          'layout shift',
          'speed index',
          'bytes',
          'load',
          'CPU index',
        ],
        rows,
      },
    ],
    targets,
    notes: [
      `Lighthouse ${lighthouseVersion()} in the same Chromium as the browser tests, on the same cores as the API and the BFF; load average ${loadBefore.toFixed(2)} before the audits, ${loadAfter.toFixed(2)} after. Simulated throttling scales the CPU time it observes, so blocking time rises with the machine's load.`,
      `Largest paint, per page (the median run's element): ${largest.join('; ')}.`,
      ...[...warnings].map((w) => `Lighthouse warned: ${w}`),
    ],
  };
}

function lighthouseVersion(): string {
  const file = fileURLToPath(import.meta.resolve('lighthouse/package.json'));
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
