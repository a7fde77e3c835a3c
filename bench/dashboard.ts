import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { chromiumLaunch, describeChromium } from '../e2e/support/chromium.ts';
import {
  attribute,
  chunksContaining,
  type Manifest,
  pageFirstLoad,
  readManifest,
  staticClosure,
  sumSizes,
} from './lib/bundle.ts';
import { median, type Section, type Table, type Target } from './lib/report.ts';
import { type Stack, signIn } from './lib/stack.ts';

// Benchmark 3: the dashboard. What each route downloads on first load (gzip and brotli) against
// bench/budgets.json, with a breakdown of /reviews by package; then, in headless Chromium against
// the whole stack, the moments users wait for, from the dashboard's own Performance API marks.

type Budgets = {
  routes: Record<string, { module: string; gzipKB: number; goalKB: number }>;
  charts: { sources: string; onlyIn: string };
};

// fileURLToPath, not URL.pathname: a folder with a space in its name stays readable.
const budgetsFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'budgets.json');
const KB = 1024;
const kb = (bytes: number) => Math.round((bytes / KB) * 10) / 10;

export function bundleSection(distDir: string, buildMs: number): Section {
  const budgets = JSON.parse(readFileSync(budgetsFile, 'utf8')) as Budgets;
  const manifest: Manifest = readManifest(distDir);
  const rows: Table['rows'] = [];
  const targets: Target[] = [];
  const loads = new Map<string, string[]>();
  for (const [route, budget] of Object.entries(budgets.routes)) {
    const files = pageFirstLoad(distDir, manifest, budget.module);
    loads.set(route, files);
    const size = sumSizes(distDir, files);
    const within = size.gzip <= budget.gzipKB * KB;
    const atGoal = size.gzip <= budget.goalKB * KB;
    rows.push([
      route,
      kb(size.js.gzip),
      kb(size.css.gzip),
      kb(size.gzip),
      kb(size.brotli),
      kb(size.raw),
      files.length,
      budget.goalKB,
      budget.gzipKB,
      atGoal ? 'yes' : within ? 'no (within ceiling)' : 'NO',
    ]);
    targets.push({
      name: `first load of ${route}, gzip`,
      target: `≤ ${budget.goalKB} KB`,
      measured: `${kb(size.gzip)} KB (brotli ${kb(size.brotli)} KB)`,
      met: atGoal,
    });
  }

  // Chart code only where the budget file allows it.
  const pattern = new RegExp(budgets.charts.sources);
  const chartChunks = chunksContaining(distDir, manifest, pattern);
  const offenders = [...loads.entries()]
    .filter(([route]) => route !== budgets.charts.onlyIn)
    .flatMap(([route, files]) => files.filter((f) => chartChunks.includes(f)).map((f) => `${route}: ${f}`));
  const analyticsFiles = new Set(loads.get(budgets.charts.onlyIn) ?? []);
  // Lazily loaded chunks reached only from the analytics page count as "the analytics chunk" too.
  const analyticsKey = Object.keys(manifest).find((k) =>
    k.endsWith(`/${budgets.routes[budgets.charts.onlyIn]!.module}`),
  )!;
  const reachable = new Set(
    staticClosure(manifest, [analyticsKey, ...(manifest[analyticsKey]!.dynamicImports ?? [])]),
  );
  const stray = chartChunks.filter((f) => !analyticsFiles.has(f) && !reachable.has(f));
  targets.push({
    name: `chart code only in ${budgets.charts.onlyIn}'s chunks`,
    target: 'no other route loads it',
    measured:
      offenders.length + stray.length === 0
        ? `in ${chartChunks.map((f) => path.basename(f)).join(', ')} only`
        : [...offenders, ...stray].join('; '),
    met: offenders.length === 0 && stray.length === 0,
  });

  // Where the /reviews first load goes, by package (source maps; gzip share estimated per file).
  const reviewsFiles = loads.get('/reviews')!;
  const owners = [...attribute(distDir, reviewsFiles)].sort((a, b) => b[1].gzip - a[1].gzip);
  const cssGzip = sumSizes(distDir, reviewsFiles).css.gzip;
  const top = owners.slice(0, 14);
  const rest = owners.slice(14);
  const breakdown: Table['rows'] = top.map(([owner, v]) => [owner, kb(v.bytes), kb(v.gzip)]);
  if (rest.length > 0)
    breakdown.push([
      `${rest.length} more (app code, shared contract, small packages)`,
      kb(rest.reduce((a, [, v]) => a + v.bytes, 0)),
      kb(rest.reduce((a, [, v]) => a + v.gzip, 0)),
    ]);
  breakdown.push(['CSS (Mantine’s and ours)', null, kb(cssGzip)]);

  return {
    name: 'Dashboard bundle',
    tables: [
      {
        title: 'First load per route (entry + route chunk + their static imports)',
        note: 'KB of 1,024 bytes; gzip -9 and brotli 11 of each file, summed; raw = minified bytes.',
        columns: [
          'route',
          'JS gzip',
          'CSS gzip',
          'total gzip',
          'total brotli',
          'raw',
          'files',
          'goal',
          'ceiling',
          'within',
        ],
        rows,
      },
      {
        title: 'What the /reviews first load is made of',
        note: 'Minified bytes per package from the source maps; gzip share = each file’s gzip size split in proportion to the bytes (an estimate: gzip does not compress every part alike).',
        columns: ['package or folder', 'minified KB', 'gzip KB (est.)'],
        rows: breakdown,
      },
    ],
    targets,
    notes: [`Production build (vite build) in ${(buildMs / 1000).toFixed(1)} s.`],
  };
}

// --- In the browser ------------------------------------------------------------------------

type Entry = { name: string; startTime: number };

async function marks(page: Page, name: string): Promise<Entry[]> {
  return page.evaluate(
    (n) => performance.getEntriesByName(n).map((e) => ({ name: e.name, startTime: e.startTime })),
    name,
  );
}

async function waitForMark(page: Page, name: string, after = 0, timeout = 30_000): Promise<number> {
  await page.waitForFunction(
    ([n, t]) => performance.getEntriesByName(n as string).some((e) => e.startTime > (t as number)),
    [name, after] as const,
    { timeout, polling: 'raf' },
  );
  const found = (await marks(page, name)).filter((e) => e.startTime > after);
  return Math.min(...found.map((e) => e.startTime));
}

/** Remembers the time of the latest user input event (change, click), in page time. */
const INPUT_TIMES = `
  window.__rdInput = {};
  for (const type of ['change', 'click']) {
    addEventListener(type, (event) => { window.__rdInput[type] = event.timeStamp; }, true);
  }
`;

export type Waterfall = { html: number; scripts: number; me: number; reviews: number; firstRow: number };

async function firstRowWaterfall(page: Page, firstRow: number): Promise<Waterfall> {
  return page.evaluate((rowAt) => {
    // Runs in the page (this file is type-checked without the DOM library, hence the shapes).
    type Timing = { name: string; startTime: number; responseEnd: number };
    const nav = performance.getEntriesByType('navigation' as never)[0] as unknown as Timing;
    const resources = performance.getEntriesByType('resource' as never) as unknown as Timing[];
    const end = (test: (r: Timing) => boolean) =>
      Math.max(0, ...resources.filter((r) => test(r) && r.startTime < rowAt).map((r) => r.responseEnd));
    return {
      html: nav.responseEnd,
      scripts: end((r) => /\.(js|css)$/.test(new URL(r.name).pathname)),
      me: end((r) => new URL(r.name).pathname === '/auth/me'),
      reviews: end((r) => new URL(r.name).pathname === '/api/v1/reviews'),
      firstRow: rowAt,
    };
  }, firstRow);
}

export const DASHBOARD_MARKS = {
  reviewsRows: 'rd:reviews-rows',
  analyticsChart: 'rd:analytics-chart',
  exportFetched: 'rd:export-fetched',
  exportDownloaded: 'rd:export-downloaded',
} as const;

export async function browserSection(browser: Browser, stack: Stack, quick: boolean): Promise<Section> {
  const state = await signIn(browser, stack);
  const runs = quick ? 3 : 10;
  const firstRows: number[] = [];
  const filterChanges: number[] = [];
  const charts: number[] = [];
  const waterfalls: Waterfall[] = [];
  // One warm-up round (the servers' JIT, the OS's file cache), then the measured rounds; every
  // round in fresh browser contexts, so nothing comes from the browser's cache.
  for (let round = 0; round <= runs; round++) {
    const context = await browser.newContext({ baseURL: stack.bffUrl, storageState: state });
    await context.addInitScript(INPUT_TIMES);
    const page = await context.newPage();
    await page.goto('/reviews');
    const firstRow = await waitForMark(page, DASHBOARD_MARKS.reviewsRows);
    const waterfall = await firstRowWaterfall(page, firstRow);
    // A filter this page has not loaded yet: the rows must come from the server.
    await page.getByLabel('Status').selectOption(round % 2 === 0 ? 'pending' : 'responded');
    const changedAt = await page.evaluate(
      () => (globalThis as unknown as { __rdInput: { change: number } }).__rdInput.change,
    );
    const rowsAt = await waitForMark(page, DASHBOARD_MARKS.reviewsRows, changedAt);
    await context.close();

    const analytics = await browser.newContext({ baseURL: stack.bffUrl, storageState: state });
    const chartPage = await analytics.newPage();
    await chartPage.goto('/analytics');
    const chartAt = await waitForMark(chartPage, DASHBOARD_MARKS.analyticsChart);
    await analytics.close();

    if (round === 0) continue;
    firstRows.push(firstRow);
    filterChanges.push(rowsAt - changedAt);
    charts.push(chartAt);
    waterfalls.push(waterfall);
  }

  const row = (name: string, sample: number[]): Table['rows'][number] => [
    name,
    Math.round(median(sample)),
    Math.round(Math.min(...sample)),
    Math.round(Math.max(...sample)),
    sample.length,
  ];
  const w = (key: keyof Waterfall) => Math.round(median(waterfalls.map((x) => x[key])));
  const firstRow = median(firstRows);
  const filterChange = median(filterChanges);
  return {
    name: 'Dashboard in the browser',
    tables: [
      {
        title: `Headless Chromium against the whole stack (npm start), median of ${runs}, ms`,
        note: 'Each round in fresh browser contexts (nothing cached), signed in as the owner, demo data. Times from the dashboard’s Performance API marks, taken after the frame that shows them is painted.',
        columns: ['moment', 'median', 'min', 'max', 'runs'],
        rows: [
          row('/reviews: navigation → first review row visible', firstRows),
          row('/reviews: filter change → new rows visible', filterChanges),
          row('/analytics: navigation → first chart drawn', charts),
        ],
      },
      {
        title: 'Where the first row’s time goes (medians, ms after navigation start)',
        columns: [
          'HTML received',
          'JS + CSS received',
          '/auth/me answered',
          'reviews answered',
          'first row painted',
        ],
        rows: [[w('html'), w('scripts'), w('me'), w('reviews'), w('firstRow')]],
      },
    ],
    targets: [
      {
        name: 'first review row visible',
        target: '≤ 300 ms',
        measured: `${Math.round(firstRow)} ms`,
        met: firstRow <= 300,
      },
      {
        name: 'filter change → new rows',
        target: '≤ 150 ms',
        measured: `${Math.round(filterChange)} ms`,
        met: filterChange <= 150,
      },
    ],
    notes: [
      `Chromium ${browser.version()}: ${describeChromium()}, headless, ${chromiumLaunch().args.join(' ')}; on the same cores as the API and the BFF.`,
    ],
  };
}
