import type { Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, signIn, test } from './fixtures.ts';
import { expectDrawnRight, screenshot, WIDTHS } from './support/drawn-pages.ts';
import { BASE_URL } from './support/stack.ts';

// The bell in the header: on the first click after a fresh sign-in its list opens styled, just
// under the bell, at desk and phone widths; a user whose alerts are off is told so plainly and can
// turn them on from there (owners and managers have them on until they choose).

/** The box of an element, in the page's pixels. */
const box = async (page: Page, selector: Parameters<Page['locator']>[0]) => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not drawn`);
  return found;
};

test('the bell’s list opens styled, under the bell, on the first click after signing in', async ({
  browser,
}) => {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width: width.width, height: width.height } });
    const page = await context.newPage();
    await signIn(page, 'owner');
    await page.goto('/reviews');
    await expect(page.getByTestId('review-row').first()).toBeVisible();
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.click();
    const list = page.getByRole('dialog', { name: 'Low ratings' });
    await expect(list).toBeVisible();
    const header = await box(page, 'header');
    const bellBox = await box(page, 'button.bell');
    const listBox = (await list.boundingBox())!;
    // Just below the header, ending near the bell, inside the screen.
    expect(listBox.y, `list top at ${width.width} px`).toBeGreaterThanOrEqual(header.y + header.height - 8);
    expect(listBox.y, `list top at ${width.width} px`).toBeLessThan(header.y + header.height + 24);
    expect(listBox.x).toBeGreaterThanOrEqual(0);
    expect(listBox.x + listBox.width).toBeLessThanOrEqual(width.width);
    expect(Math.abs(listBox.x + listBox.width - (bellBox.x + bellBox.width))).toBeLessThan(width.width / 2);
    // Drawn as a card over the page, not as bare text.
    const background = await list.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    await expectDrawnRight(page, `the bell's list at ${width.width} px`);
    await screenshot(page, 'bell open', width, false);
    await context.close();
  }
});

test('alerts off: the bell says so and turns them on in one click; an owner’s are on from the start', async ({
  signedIn,
  browser,
}) => {
  const owner = await signedIn('owner');
  await owner.goto('/reviews');
  await owner.getByRole('button', { name: /^Notifications/ }).click();
  await expect(owner.getByRole('dialog', { name: 'Low ratings' })).toBeVisible();
  await expect(owner.getByTestId('alerts-off')).toHaveCount(0);

  // A new staff member: alerts are theirs to turn on.
  const email = `bell-staff-${Date.now()}@example.com`;
  const password = 'bell-staff-password-1';
  const added = await owner.request.post(`${BASE_URL}/bff/users`, {
    data: { email, password, role: 'staff' },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL },
  });
  expect(added.status()).toBe(201);
  const context = await browser.newContext();
  const staff = await context.newPage();
  const login = await staff.request.post(`${BASE_URL}/auth/login`, {
    data: { email, password },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL },
  });
  expect(login.status()).toBe(200);
  await staff.goto('/reviews');
  await staff.getByRole('button', { name: /^Notifications/ }).click();
  const list = staff.getByRole('dialog', { name: 'Low ratings' });
  await expect(list.getByTestId('alerts-off')).toContainText('Your alerts are off');
  await list.getByRole('button', { name: 'Turn alerts on' }).click();
  await expect(list.getByTestId('alerts-off')).toHaveCount(0);
  await expect(list).toContainText('No low ratings (2★ or lower) since your alerts were turned on');
  await staff.goto('/notifications');
  await expect(staff.getByRole('switch', { name: /Alert me about low ratings/ })).toBeChecked();
  await context.close();
});
