import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { type FakeUpstream, startFakeUpstream } from '../test/support/fault-upstream.ts';
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

// Three locations on two upstreams: two businesses of the real API (Harbour, with its key as
// the BFF's configured one, and Cafe) and one on the minimal stand-in that answers only the
// documented fields (Corner). The owner switches between them and compares them; a staff member
// of Cafe sees Cafe only and is refused another location's address; one upstream down shows in
// its row while the others render.

const SECRETS = randomBytes(32).toString('hex');
const STAFF = { email: 'cafe-staff@example.com', password: 'cafe-staff-password-1', role: 'staff' };
const DAYS = 30;

let api: SystemApi;
let minimal: FakeUpstream;
let bff: SystemBff;
const keys = { harbour: '', cafe: '' };

test.describe.configure({ mode: 'serial' });

async function bffCli(args: string[], stdin: string) {
  await runCli('bff', args, {
    env: { BFF_DATABASE_PATH: bff.databasePath, BFF_SECRETS_KEY: SECRETS },
    stdin,
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  [api, minimal] = await Promise.all([startSystemApi(), startFakeUpstream()]);
  await api.cli(['business', 'create', 'cafe', 'Corner Cafe']);
  await api.cli([
    'generate',
    '--business',
    'harbour',
    '--reviews',
    '80',
    '--requests',
    '120',
    '--days',
    '60',
    '--seed',
    '3',
  ]);
  await api.cli([
    'generate',
    '--business',
    'cafe',
    '--reviews',
    '25',
    '--requests',
    '40',
    '--days',
    '60',
    '--seed',
    '7',
  ]);
  keys.harbour = await api.createKey();
  const cafe = await api.cli(['key', 'create', '--business', 'cafe', '--scopes', ALL_SCOPES]);
  keys.cafe = cafe.trim().split('\n').at(-1)!.trim();
  bff = await startSystemBff(api.url, {
    WEB_DIST_DIR: path.join(repoRoot, 'apps/web/dist'),
    UPSTREAM_API_KEY: keys.harbour,
    BFF_SECRETS_KEY: SECRETS,
  });
  await bffCli(['location', 'add', '--slug', 'harbour', '--name', 'Harbour Street'], `${keys.harbour}\n`);
  await bffCli(['location', 'add', '--slug', 'cafe', '--name', 'Corner Cafe'], `${keys.cafe}\n`);
  const minimalKey = path.join(bff.dir, 'minimal.key');
  writeFileSync(minimalKey, 'rk_minimal_key');
  await runCli(
    'bff',
    [
      'location',
      'add',
      '--slug',
      'corner',
      '--name',
      'Old Town',
      '--upstream',
      minimal.url,
      '--key-file',
      minimalKey,
    ],
    { env: { BFF_DATABASE_PATH: bff.databasePath, BFF_SECRETS_KEY: SECRETS } },
  );
  const owner = await bff.owner();
  // The running BFF reads the new locations within its reload interval.
  await waitFor(
    async () => (await owner.get('/bff/locations')).json?.data?.locations?.length === 3,
    10_000,
    'three locations',
  );
  const created = await owner.post('/bff/users', STAFF);
  await owner.request('PUT', `/bff/users/${created.json.data.user.id}/locations`, {
    json: { all: false, slugs: ['cafe'] },
  });
});

test.afterAll(async () => {
  await bff?.cleanup();
  await minimal?.close();
  await api?.cleanup();
});

async function signIn(page: Page, who: { email: string; password: string }) {
  const response = await page.request.post(`${bff.url}/auth/login`, {
    data: { email: who.email, password: who.password },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: bff.url },
  });
  expect(response.status()).toBe(200);
}

/** A business's own analytics, straight from the API with its key. */
async function upstreamAnalytics(key: string) {
  const response = await fetch(`${api.url}/api/v1/analytics?days=${DAYS}`, { headers: { 'x-api-key': key } });
  return (
    (await response.json()) as {
      data: {
        requests: { sent: number; completed: number };
        reviews: { total: number; avgRating: number | null };
      };
    }
  ).data;
}

const number = (n: number) => new Intl.NumberFormat('en-US').format(n);
const percent = (n: number) =>
  new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(n);

test('the owner switches location: the address carries it, every call goes there, and the choice is remembered', async ({
  page,
}) => {
  await signIn(page, OWNER);
  await page.goto(`${bff.url}/reviews`);
  const switcher = page.getByRole('combobox', { name: 'Location' });
  await expect(switcher).toHaveValue('harbour');
  await expect(page.getByTestId('review-row').first()).toBeVisible();
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/')) calls.push(new URL(r.url()).pathname);
  });
  await switcher.selectOption('cafe');
  await expect(page).toHaveURL(`${bff.url}/l/cafe/reviews`);
  await expect(page.getByTestId('review-row').first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Location' })).toHaveValue('cafe');
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.every((p) => p.startsWith('/l/cafe/api/v1/'))).toBe(true);
  // An address without a location goes to the one this user chose last.
  await page.goto(`${bff.url}/analytics`);
  await expect(page).toHaveURL(`${bff.url}/l/cafe/analytics`);
  await expect(page.getByTestId('kpi-completed')).toBeVisible();
});

test("the overview's figures are each upstream's own analytics, with weighted totals", async ({ page }) => {
  await signIn(page, OWNER);
  const [harbour, cafe] = await Promise.all([upstreamAnalytics(keys.harbour), upstreamAnalytics(keys.cafe)]);
  await page.goto(`${bff.url}/locations?days=${DAYS}`);
  const table = page.getByTestId('overview-table');
  await expect(table.getByTestId('overview-row')).toHaveCount(3);
  const cell = (slug: string, figure: string) =>
    table.locator(`[data-testid="overview-row"][data-slug="${slug}"] [data-figure="${figure}"]`);
  for (const [slug, data] of [
    ['harbour', harbour],
    ['cafe', cafe],
  ] as const) {
    await expect(cell(slug, 'sent')).toHaveText(number(data.requests.sent));
    await expect(cell(slug, 'reviews')).toHaveText(number(data.reviews.total));
    await expect(cell(slug, 'completionRate')).toHaveText(
      percent(data.requests.completed / data.requests.sent),
    );
  }
  // The minimal upstream reports completions only: no sent count, no rate.
  await expect(cell('corner', 'sent')).toHaveText('—');
  const totals = page.getByTestId('overview-totals');
  await expect(totals.locator('[data-figure="sent"]')).toContainText(
    number(harbour.requests.sent + cafe.requests.sent),
  );
  await expect(totals.locator('[data-figure="completionRate"]')).toContainText(
    percent(
      (harbour.requests.completed + cafe.requests.completed) / (harbour.requests.sent + cafe.requests.sent),
    ),
  );
  // A row links into its location.
  await table.getByRole('link', { name: 'Corner Cafe' }).click();
  await expect(page).toHaveURL(`${bff.url}/l/cafe/analytics`);
});

test('a staff member of one location sees only it, and another location’s address is refused', async ({
  page,
}) => {
  await signIn(page, STAFF);
  await page.goto(`${bff.url}/reviews`);
  await expect(page.getByTestId('review-row').first()).toBeVisible();
  // One location: no switcher, no comparison pages (the inbox is there for every role).
  await expect(page.getByRole('combobox', { name: 'Location' })).toHaveCount(0);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Inbox' })).toBeVisible();
  const direct = await page.request.get(`${bff.url}/l/harbour/api/v1/reviews`, {
    headers: { 'x-csrf': '1' },
  });
  expect(direct.status()).toBe(403);
  expect((await direct.json()).code).toBe('location_forbidden');
  await page.goto(`${bff.url}/l/harbour/reviews`);
  await expect(page.getByTestId('error-state')).toContainText('You do not have access to this location');
});

test('one upstream down: its row says so, the others still render', async ({ page }) => {
  await signIn(page, OWNER);
  await minimal.close();
  await page.goto(`${bff.url}/locations?days=${DAYS}`);
  const rows = page.getByTestId('overview-row');
  await expect(rows).toHaveCount(3);
  await expect(page.locator('[data-slug="corner"]')).toContainText('Could not read this location');
  await expect(
    page.locator('[data-testid="overview-row"][data-slug="harbour"] [data-figure="sent"]'),
  ).not.toHaveText('—');
  await expect(page.getByTestId('overview-totals')).toContainText('All 2 of 3 locations');
  // The inbox's old address leads to it; the location down is named, the others listed.
  await page.goto(`${bff.url}/attention`);
  await expect(page).toHaveURL(`${bff.url}/inbox`);
  await expect(page.getByTestId('inbox-failed')).toContainText('Old Town');
  await expect(page.getByTestId('inbox-row').first()).toBeVisible();
});
