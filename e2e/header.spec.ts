import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { repoRoot, runCli } from '../test/support/processes.ts';
import {
  ALL_SCOPES,
  OWNER,
  type SystemApi,
  type SystemBff,
  startSystemApi,
  startSystemBff,
  waitFor,
} from '../test/support/stack.ts';
import { expectDrawnRight, screenshot, WIDTHS } from './support/drawn-pages.ts';

// The header of an owner with two locations, one with the longest name a location may have:
// nine pages, the location switcher, the bell and the account button share one row. At 1024,
// 1280 and 1440 px every page of the navigation is reached by a click on its link (or on it in
// "More"), no link is covered by anything else, and the pages that compare locations are drawn
// right at desk and phone widths.

const SECRETS = randomBytes(32).toString('hex');
/** 80 characters: the most a location's name may hold (shared locationNameSchema). */
const LONGEST = 'The Corner Cafe and Bakery on Long Harbour Road, opposite the Old Fish Market 24';

let api: SystemApi;
let bff: SystemBff;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  expect(LONGEST).toHaveLength(80);
  api = await startSystemApi();
  await api.cli(['business', 'create', 'corner', 'Corner Cafe']);
  await api.cli(['generate', '--business', 'harbour', '--reviews', '30', '--requests', '30', '--days', '30']);
  // Enough reviews waiting for the inbox to show more than a phone's first ten.
  await api.cli(['generate', '--business', 'corner', '--reviews', '400', '--requests', '30', '--days', '60']);
  const harbour = await api.createKey();
  const corner = (await api.cli(['key', 'create', '--business', 'corner', '--scopes', ALL_SCOPES]))
    .trim()
    .split('\n')
    .at(-1)!
    .trim();
  bff = await startSystemBff(api.url, {
    WEB_DIST_DIR: path.join(repoRoot, 'apps/web/dist'),
    UPSTREAM_API_KEY: harbour,
    BFF_SECRETS_KEY: SECRETS,
  });
  const env = { BFF_DATABASE_PATH: bff.databasePath, BFF_SECRETS_KEY: SECRETS };
  await runCli('bff', ['location', 'add', '--slug', 'harbour', '--name', 'Harbour Street'], {
    env,
    stdin: `${harbour}\n`,
  });
  await runCli('bff', ['location', 'add', '--slug', 'corner', '--name', LONGEST], {
    env,
    stdin: `${corner}\n`,
  });
  const owner = await bff.owner();
  await waitFor(
    async () => (await owner.get('/bff/locations')).json?.data?.locations?.length === 2,
    10_000,
    'two locations',
  );
});

test.afterAll(async () => {
  await bff?.cleanup();
  await api?.cleanup();
});

async function signIn(page: Page) {
  const response = await page.request.post(`${bff.url}/auth/login`, {
    data: OWNER,
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: bff.url },
  });
  expect(response.status()).toBe(200);
}

/** The owner's navigation with two locations, in order, and the heading each page has. */
const NAVIGATION = [
  { label: 'Reviews', path: '/reviews', heading: 'Reviews' },
  { label: 'Inbox', path: '/inbox', heading: 'Inbox' },
  { label: 'Send request', path: '/send', heading: 'Send a review request' },
  { label: 'Recent requests', path: '/requests', heading: 'Recent requests' },
  { label: 'Analytics', path: '/analytics', heading: 'Analytics' },
  { label: 'Locations', path: '/locations', heading: 'Locations' },
  { label: 'Users', path: '/users', heading: 'Users' },
  { label: 'Settings', path: '/settings', heading: 'Settings' },
];

/**
 * Every link the header shows is whole inside the navigation and is what a click at its middle
 * hits, once the header has settled: it measures which links fit after it is drawn, and moves
 * the others under More.
 */
async function expectNothingCovered(page: Page, label: string) {
  const covered = () =>
    page.evaluate(() => {
      const nav = document.querySelector('nav[aria-label="Main"]')!.getBoundingClientRect();
      const problems: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>(
        'nav[aria-label="Main"] > a, nav[aria-label="Main"] > button',
      )) {
        const box = el.getBoundingClientRect();
        if (box.left < nav.left - 0.5 || box.right > nav.right + 0.5)
          problems.push(`${el.textContent} sticks out of the navigation`);
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (!hit || !el.contains(hit))
          problems.push(`${el.textContent} is covered by ${hit?.outerHTML.slice(0, 80)}`);
      }
      return problems;
    });
  await expect.poll(covered, { message: label }).toEqual([]);
}

for (const width of [1024, 1280, 1440]) {
  test(`at ${width} px with the longest location name, every navigation link is reached by a click`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page);
    await page.goto(`${bff.url}/l/corner/reviews`);
    await expect(page.getByRole('combobox', { name: 'Location' })).toHaveValue('corner');
    await expect(page.getByTestId('review-row').first()).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const item of NAVIGATION) {
      await expectNothingCovered(page, `${item.label} at ${width} px`);
      const link = nav.getByRole('link', { name: item.label, exact: true });
      if (await link.isVisible()) {
        await link.click();
      } else {
        await nav.getByRole('button', { name: 'More pages' }).click();
        await page.getByRole('menuitem', { name: item.label, exact: true }).click();
      }
      await expect(page).toHaveURL(`${bff.url}/l/corner${item.path}`);
      await expect(page.locator('#page-title')).toHaveText(item.heading);
    }
    if (width === 1280) await screenshot(page, 'header with two locations', WIDTHS[0], false);
  });
}

test('the pages that compare locations are drawn right at desk and phone widths', async ({ browser }) => {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width: width.width, height: width.height } });
    const page = await context.newPage();
    await signIn(page);
    for (const [path, ready] of [
      ['/locations', 'overview-table'],
      ['/inbox', 'inbox-row'],
    ] as const) {
      await page.goto(`${bff.url}/l/corner${path}`);
      await expect(page.getByTestId(ready).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectDrawnRight(page, `${path} at ${width.width} px`);
      await screenshot(page, path, width);
    }
    await context.close();
  }
});

test('on a phone the inbox shows ten reviews at a time, and the Locations totals line up with the rows', async ({
  browser,
}) => {
  const phone = WIDTHS[1];
  const context = await browser.newContext({ viewport: { width: phone.width, height: phone.height } });
  const page = await context.newPage();
  await signIn(page);
  await page.goto(`${bff.url}/l/corner/inbox`);
  const rows = page.getByTestId('inbox-row');
  await expect(rows.first()).toBeVisible();
  await expect(rows).toHaveCount(10);
  await page.waitForLoadState('networkidle');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThan(2_500);
  await page.getByRole('button', { name: 'Show more' }).click();
  await expect(rows).toHaveCount(20);

  await page.goto(`${bff.url}/l/corner/locations`);
  const totals = page.getByTestId('overview-totals');
  await expect(totals).toBeVisible();
  const xOf = async (scope: ReturnType<Page['getByTestId']>, figure: string) =>
    (await scope.locator(`[data-figure="${figure}"]`).first().boundingBox())!.x;
  const first = page.getByTestId('overview-row').first();
  for (const figure of ['sent', 'completionRate', 'reviews', 'avgRating']) {
    expect(Math.abs((await xOf(totals, figure)) - (await xOf(first, figure))), figure).toBeLessThan(2);
  }
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  await context.close();
});
