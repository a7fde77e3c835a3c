import path from 'node:path';
import type { Browser } from '@playwright/test';
import { ALL_SCOPES, OWNER, startSystemApi } from '../test/support/stack.ts';
import { generateHistory } from './lib/generate.ts';
import { storeLocations } from './lib/locations.ts';
import { ENTRIES, startServer, tempDir } from './lib/processes.ts';
import { median, percentile, type Section } from './lib/report.ts';

// The Locations overview for 50 locations on one upstream (50 businesses of the real API, each
// with a key of its own and generated history): time from navigation to the table with all its
// rows, and from a window change to the new table; the BFF's CPU per overview (one
// GET /bff/overview, which makes 150 upstream calls: analytics and two one-row review counts per
// location).

const LOCATIONS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

export async function locationsSection(browser: Browser, distDir: string, quick: boolean): Promise<Section> {
  const temp = tempDir('rd-bench-locations-');
  const api = await startSystemApi();
  const slugs = Array.from({ length: LOCATIONS }, (_, i) => `loc-${String(i + 1).padStart(2, '0')}`);
  const keys = new Map<string, string>();
  await inBatches(slugs, 4, async (slug) => {
    await api.cli(['business', 'create', slug, `Location ${slug}`]);
    await generateHistory(api.cli, slug, {
      reviews: 40,
      requests: 60,
      days: 60,
      seed: slug.length + keys.size,
    });
    const out = await api.cli([
      'key',
      'create',
      '--business',
      slug,
      '--scopes',
      ALL_SCOPES,
      '--rate-limit',
      '100000',
    ]);
    keys.set(slug, out.trim().split('\n').at(-1)!.trim());
  });
  const bffEnv = await storeLocations(
    temp.dir,
    slugs.map((slug) => ({ slug, name: `Location ${slug}`, key: keys.get(slug)! })),
  );

  const bff = await startServer('bff', ENTRIES.bff, {
    logFile: path.join(temp.dir, 'bff.log'),
    env: {
      UPSTREAM_URL: api.url,
      UPSTREAM_API_KEY: keys.get(slugs[0]!)!,
      ...bffEnv,
      WEB_DIST_DIR: distDir,
      LOG_LEVEL: 'warn',
    },
  });
  const context = await browser.newContext({ baseURL: bff.url });
  try {
    const login = await context.request.post('/auth/login', {
      headers: { 'x-csrf': '1', origin: bff.url },
      data: OWNER,
    });
    if (login.status() !== 200) throw new Error(`sign-in failed: HTTP ${login.status()}`);
    const page = await context.newPage();
    const rounds = quick ? 4 : 10;
    const tableReady = `[data-testid="overview-table"] [data-testid="overview-row"]:nth-child(${LOCATIONS})`;
    // Warm-up: the page's code and the BFF's connections.
    await page.goto('/locations?days=30');
    await page.waitForSelector(tableReady);

    const cold: number[] = [];
    for (let i = 0; i < rounds; i++) {
      await page.goto(`/locations?days=${30 + i}`);
      await page.waitForSelector(tableReady);
      cold.push(await page.evaluate(() => performance.now()));
    }
    const change: number[] = [];
    const cpu: number[] = [];
    const windows = [7, 90, 365, 30];
    for (let i = 0; i < rounds; i++) {
      const days = windows[i % windows.length]!;
      await sleep(50);
      const before = bff.cpuMs();
      const started = await page.evaluate(() => performance.now());
      await page.getByLabel('Window').selectOption(String(days));
      await page.waitForFunction(
        ({ d, n }) => {
          // In the page (no DOM types in this project): the new window's rows, no longer busy.
          const g = globalThis as unknown as {
            location: { search: string };
            document: {
              querySelectorAll(s: string): { length: number };
              querySelector(s: string): unknown;
            };
          };
          return (
            new URLSearchParams(g.location.search).get('days') === String(d) &&
            g.document.querySelectorAll('[data-testid="overview-row"]').length === n &&
            g.document.querySelector('[aria-busy="true"] [data-testid="overview-table"]') === null
          );
        },
        { d: days, n: LOCATIONS },
      );
      change.push((await page.evaluate(() => performance.now())) - started);
      cpu.push(bff.cpuMs() - before);
      await page.goto(`/locations?days=${days === 30 ? 14 : 30}`);
      await page.waitForSelector(tableReady);
    }
    const ms = (v: number) => Math.round(v);
    return {
      name: `Locations overview (${LOCATIONS} locations, one upstream)`,
      tables: [
        {
          title: `Time to the table of ${LOCATIONS} locations (ms, ${rounds} rounds)`,
          note: 'Navigation: from the start of the page load to all rows in the DOM. Window change: from choosing a window to the new rows.',
          columns: ['measure', 'median', 'p90', 'max'],
          rows: [
            ['navigation → table', ms(median(cold)), ms(percentile(cold, 90)), ms(Math.max(...cold))],
            [
              'window change → table',
              ms(median(change)),
              ms(percentile(change, 90)),
              ms(Math.max(...change)),
            ],
          ],
        },
        {
          title: 'BFF CPU per overview (ms of user + system time)',
          note: `One window change: one GET /bff/overview, ${LOCATIONS * 3} upstream calls (analytics and two one-row review counts per location).`,
          columns: ['measure', 'median', 'p90'],
          rows: [['BFF CPU per overview', ms(median(cpu)), ms(percentile(cpu, 90))]],
        },
      ],
      targets: [
        {
          name: `navigation → table of ${LOCATIONS} locations`,
          target: '≤ 500 ms',
          measured: `${ms(median(cold))} ms`,
          met: median(cold) <= 500,
        },
      ],
      notes: ['A shared two-core machine: indicative figures only.'],
    };
  } finally {
    await context.close();
    await bff.stop();
    await api.cleanup();
    temp.cleanup();
  }
}
