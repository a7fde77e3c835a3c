import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';
import { chooseChannel } from './support/channel.ts';
import { seriousViolations } from './support/pages.ts';

// axe-core on every page and its open states, in light and dark: no serious or critical
// violations. Then the main pages at 360 px: nothing wider than the screen. Then a strict CSP.

const PAGES = [
  { path: '/reviews', ready: 'review-row' },
  { path: '/inbox', ready: 'inbox-row' },
  { path: '/send', ready: null },
  { path: '/requests', ready: null },
  { path: '/analytics', ready: 'kpi-completed' },
  { path: '/users', ready: 'user-row' },
  { path: '/settings', ready: 'sms-preview' },
] as const;

async function open(page: Page, path: string, ready: string | null) {
  await page.goto(path);
  await expect(page.locator('#page-title')).toBeVisible();
  if (ready) await expect(page.getByTestId(ready).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
}

/** Checks the page as it is now, in light and then in dark (the app follows the system live). */
async function checkBothSchemes(page: Page, label: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    expect.soft(await seriousViolations(page), `${label} (${colorScheme})`).toEqual([]);
  }
}

test('axe: the sign-in page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await checkBothSchemes(page, '/login');
});

for (const { path, ready } of PAGES) {
  test(`axe: ${path}`, async ({ page }) => {
    await signIn(page, 'owner');
    await open(page, path, ready);
    await checkBothSchemes(page, path);
  });
}

test('axe: the inbox with a Google review open in its panel, the reply box and saved replies shown', async ({
  page,
}) => {
  await signIn(page, 'owner');
  await open(page, '/inbox?source=google', 'inbox-row');
  await page.getByTestId('inbox-row').first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Your reply')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await checkBothSchemes(page, 'inbox review panel');
});

/** The Reviews page with the first review's details open. */
async function openReviewDetails(page: Page) {
  await open(page, '/reviews', 'review-row');
  await page
    .getByRole('button', { name: /^Details of the review/ })
    .first()
    .click();
  await expect(page.getByRole('dialog', { name: 'Review details' })).toBeVisible();
}

test('axe: open states (review details, send form errors and result, dialogs, menus)', async ({ page }) => {
  await signIn(page, 'owner');
  await openReviewDetails(page);
  await checkBothSchemes(page, 'review details');

  await open(page, '/send', null);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(/^Phone number is required/)).toBeVisible();
  await checkBothSchemes(page, 'send form with errors');

  await chooseChannel(page, 'Link');
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByTestId('qr-code')).toBeVisible();
  await checkBothSchemes(page, 'send result with QR code');

  await open(page, '/users', 'user-row');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('dialog', { name: 'Add a user' })).toBeVisible();
  await checkBothSchemes(page, 'add user dialog');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: /^Account:/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  await checkBothSchemes(page, 'account menu');
});

test('at 360 px wide the main pages never scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, 'owner');
  for (const { path, ready } of PAGES) {
    await open(page, path, ready);
    const { scrollWidth, clientWidth } = await page.evaluate<{ scrollWidth: number; clientWidth: number }>(
      '({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })',
    );
    expect.soft(scrollWidth, `${path} at 360 px`).toBeLessThanOrEqual(clientWidth);
  }
  // The navigation is one tap away on a phone.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Recent requests' }).click();
  await expect(page).toHaveURL(/\/requests$/);
});

test('the dashboard runs under a CSP without unsafe-inline styles', async ({ page }) => {
  // Serve every document with the strictest policy the dashboard is meant to satisfy.
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const headers = { ...response.headers() };
    headers['content-security-policy'] =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'self'";
    return route.fulfill({ response, headers });
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await signIn(page, 'owner');
  for (const { path, ready } of PAGES) await open(page, path, ready);
  await page.getByRole('button', { name: /^Account:/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  await page.keyboard.press('Escape');
  await open(page, '/analytics', 'kpi-completed');
  await page.getByTestId('kpi-completed').hover();
  await expect(page.getByRole('tooltip')).toContainText('not proof a review was published');
  await openReviewDetails(page);
  expect(violations).toEqual([]);
});
