import type { Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, test, uniquePhone } from './fixtures.ts';
import { chooseChannel } from './support/channel.ts';
import { WIDTHS } from './support/drawn-pages.ts';
import { fillPhone } from './support/pages.ts';
import { BASE_URL } from './support/stack.ts';

// One clear state per request: a link reads "Link created" (nothing was sent), a message asked for
// outside the sending hours reads "Scheduled for <time>" in full at desk and phone widths — never
// "Accepted"/"Sent" beside a state that contradicts it. What a state means is a tap away.

const HEADERS = { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL };

/** Whether any of the element's text is cut off (it is wider than the room it is given). */
const isCut = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.some((el) => el.scrollWidth > el.clientWidth + 1));

test('a link reads “Link created” on the result and in Recent requests, with nothing called sent', async ({
  signedIn,
}) => {
  const page = await signedIn('staff');
  const customer = `Link State ${Date.now()}`;
  await page.goto('/send');
  await chooseChannel(page, 'Link');
  await page.getByLabel('Customer name').fill(customer);
  await page.getByRole('button', { name: 'Create link' }).click();
  const result = page.getByTestId('send-result');
  await expect(result.getByTestId('send-state')).toHaveText('Link created');
  await expect(result).not.toContainText('Accepted for delivery');
  await result.getByRole('button', { name: 'Link created' }).click();
  await expect(result).toContainText('No message was sent');

  await page.goto('/requests');
  const row = page.getByTestId('send-row').filter({ hasText: customer });
  await expect(row.locator('[data-outcome="link"]')).toHaveText('Link created');
  await expect(row).not.toContainText(/Accepted|Sent/);
});

test('a message held for the sending hours reads “Scheduled for …” in full, at desk and phone widths', async ({
  signedIn,
  browser,
}) => {
  const owner = await signedIn('owner');
  const settings = await owner.request.get(`${BASE_URL}/bff/settings`);
  const saved = ((await settings.json()) as { data: { settings: { quietHours: unknown; timeZone: string } } })
    .data.settings;
  // Sending hours that exclude now: one hour a day, twelve hours away.
  const hour = (new Date().getUTCHours() + 12) % 24;
  const at = (h: number) => `${String(h).padStart(2, '0')}:00`;
  try {
    const held = await owner.request.put(`${BASE_URL}/bff/settings`, {
      data: { quietHours: { start: at(hour), end: at((hour + 1) % 24) }, timeZone: 'UTC' },
      headers: HEADERS,
    });
    expect(held.status()).toBe(200);
    const phone = uniquePhone();
    await owner.goto('/send');
    await fillPhone(owner, phone.typed);
    await owner.getByRole('button', { name: 'Send request' }).click();
    const state = owner.getByTestId('send-result').getByTestId('send-state');
    await expect(state).toContainText(`Scheduled for ${at(hour)}`);

    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width: width.width, height: width.height } });
      const page = await context.newPage();
      await page.context().addCookies(await owner.context().cookies());
      await page.goto(`/requests?contact=${encodeURIComponent(phone.e164)}`);
      const row = page.getByTestId('send-row');
      await expect(row).toHaveCount(1);
      const leg = row.getByTestId('leg');
      await expect(leg).toHaveAttribute('data-state', 'scheduled');
      await expect(leg).toContainText(`SMS: Scheduled for ${at(hour)}`);
      expect(
        await isCut(page, '[data-testid="send-row"] [data-testid="leg"] button'),
        `${width.name}: cut off`,
      ).toBe(false);
      await expect(row).not.toContainText(/Accepted|\bSent\b/);
      await leg.getByRole('button').click();
      await expect(leg).toContainText('held, and sent once when they open');
      await context.close();
    }
  } finally {
    const restored = await owner.request.put(`${BASE_URL}/bff/settings`, {
      data: { quietHours: saved.quietHours, timeZone: saved.timeZone },
      headers: HEADERS,
    });
    expect(restored.status()).toBe(200);
  }
});
