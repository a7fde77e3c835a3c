import type { Browser } from '@playwright/test';
import { chromiumLaunch, describeChromium } from '../e2e/support/chromium.ts';
import { median, type Section } from './lib/report.ts';
import { type Stack, signIn } from './lib/stack.ts';

// The inbox in headless Chromium against the whole stack (npm start: demo data, the demo location
// connected to the Google stand-in): navigation to the first waiting review visible, from the
// page's own Performance API mark, taken after the frame that shows the rows is painted — as the
// dashboard benchmark measures /reviews.

const INBOX_ROWS = 'rd:inbox-rows';
const REVIEWS_ROWS = 'rd:reviews-rows';

type Moment = { at: number; rows: number; locations: number; reviews: number };

/** Navigation to the page's first rows (its mark), and when its reads answered, in page time. */
async function firstRows(browser: Browser, stack: Stack, state: State, url: string, mark: string) {
  const context = await browser.newContext({ baseURL: stack.bffUrl, storageState: state });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction((n) => performance.getEntriesByName(n).length > 0, mark, {
    timeout: 30_000,
    polling: 'raf',
  });
  const moment = await page.evaluate((n): Moment => {
    // Runs in the page (this file is type-checked without the DOM library, hence the shapes).
    type Timing = { name: string; responseEnd: number };
    const entry = performance.getEntriesByName(n)[0] as unknown as {
      startTime: number;
      detail?: { rows?: number };
    };
    const resources = performance.getEntriesByType('resource' as never) as unknown as Timing[];
    const end = (test: (path: string) => boolean) =>
      Math.max(0, ...resources.filter((r) => test(new URL(r.name).pathname)).map((r) => r.responseEnd));
    return {
      at: entry.startTime,
      rows: entry.detail?.rows ?? 0,
      locations: end((p) => p === '/bff/locations'),
      reviews: end((p) => p.endsWith('/api/v1/reviews')),
    };
  }, mark);
  await context.close();
  return moment;
}
type State = Awaited<ReturnType<typeof signIn>>;

export async function inboxBrowserSection(browser: Browser, stack: Stack, quick: boolean): Promise<Section> {
  const state = await signIn(browser, stack);
  const runs = quick ? 3 : 10;
  const inbox: Moment[] = [];
  const reviews: Moment[] = [];
  // One warm-up round, then the measured ones; each page in a fresh context (nothing cached).
  for (let round = 0; round <= runs; round++) {
    const i = await firstRows(browser, stack, state, '/inbox', INBOX_ROWS);
    const r = await firstRows(browser, stack, state, '/reviews', REVIEWS_ROWS);
    if (round === 0) continue;
    inbox.push(i);
    reviews.push(r);
  }
  const firstRowsAt = inbox.map((m) => m.at);
  const rows = inbox.map((m) => m.rows);
  const firstRow = median(firstRowsAt);
  return {
    name: 'Review inbox in the browser',
    tables: [
      {
        title: `Headless Chromium against the whole stack (npm start), median of ${runs}, ms`,
        note: 'Each round in a fresh browser context, signed in as the owner (every location), demo data with the stand-in’s Google reviews.',
        columns: ['moment', 'median', 'min', 'max', 'rows shown'],
        rows: [
          [
            '/inbox: navigation → first waiting review visible',
            Math.round(firstRow),
            Math.round(Math.min(...firstRowsAt)),
            Math.round(Math.max(...firstRowsAt)),
            median(rows),
          ],
          [
            '/reviews (the same rounds, for comparison)',
            Math.round(median(reviews.map((m) => m.at))),
            Math.round(Math.min(...reviews.map((m) => m.at))),
            Math.round(Math.max(...reviews.map((m) => m.at))),
            median(reviews.map((m) => m.rows)),
          ],
        ],
      },
      {
        title: 'Where the time goes (medians, ms after navigation start)',
        columns: ['page', 'locations answered', 'reviews answered', 'first row painted'],
        rows: [inbox, reviews].map((sample, k) => [
          k === 0 ? '/inbox' : '/reviews',
          Math.round(median(sample.map((m) => m.locations))),
          Math.round(median(sample.map((m) => m.reviews))),
          Math.round(median(sample.map((m) => m.at))),
        ]),
      },
    ],
    targets: [
      {
        name: 'inbox: first row visible',
        target: '≤ 300 ms',
        measured: `${Math.round(firstRow)} ms`,
        met: firstRow <= 300 && median(rows) > 0,
      },
    ],
    notes: [
      `Chromium ${browser.version()}: ${describeChromium()}, headless, ${chromiumLaunch().args.join(' ')}; on the same cores as the API and the BFF.`,
    ],
  };
}
