import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { type FakeTwilio, startFakeTwilio, twilioSettings } from '../test/support/fake-twilio.ts';
import { repoRoot } from '../test/support/processes.ts';
import {
  OWNER,
  type SystemApi,
  type SystemBff,
  startSystemApi,
  startSystemBff,
} from '../test/support/stack.ts';
import { uniquePhone } from './fixtures.ts';
import { fillPhone } from './support/pages.ts';

// Delivery as the dashboard shows it, with the API texting through the stand-in Twilio: the owner
// sends an SMS and Recent requests says Delivered once Twilio's signed receipts arrive; a number
// the carrier cannot reach says Not delivered, with the carrier's reason in words.

let fake: FakeTwilio;
let api: SystemApi;
let bff: SystemBff;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fake = await startFakeTwilio({ receiptDelayMs: 200 });
  api = await startSystemApi({
    DEV_OUTBOX: '0',
    ...twilioSettings(fake),
  });
  const key = await api.createKey();
  bff = await startSystemBff(api.url, {
    WEB_DIST_DIR: path.join(repoRoot, 'apps/web/dist'),
    UPSTREAM_API_KEY: key,
  });
});

test.afterAll(async () => {
  await bff?.cleanup();
  await api?.cleanup();
  await fake?.close();
});

async function signIn(page: Page) {
  const response = await page.request.post(`${bff.url}/auth/login`, {
    data: { email: OWNER.email, password: OWNER.password },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: bff.url },
  });
  expect(response.status()).toBe(200);
}

async function sendSms(page: Page, typed: string): Promise<string> {
  await page.goto(`${bff.url}/send`);
  await page.getByLabel('Customer name').fill('Ana Delivery');
  await fillPhone(page, typed);
  await page.getByRole('button', { name: 'Send request' }).click();
  const result = page.getByTestId('send-result');
  await expect(result).toContainText('Accepted for delivery');
  return ((await result.getByTestId('request-id').textContent()) ?? '').trim();
}

test('an SMS through Twilio reads Delivered in Recent requests once the receipts arrive', async ({
  page,
}) => {
  await signIn(page);
  const phone = uniquePhone();
  const requestId = await sendSms(page, phone.typed);
  expect(requestId).not.toBe('');
  expect(fake.count(phone.e164)).toBe(1);

  await page.goto(`${bff.url}/requests`);
  const leg = page.getByTestId('leg').first();
  // The page asks again while a message is on its way; the receipts come within a second.
  await expect(leg).toHaveAttribute('data-state', 'delivered', { timeout: 20_000 });
  await expect(leg).toContainText('SMS: Delivered');
  await expect(leg.locator('[title]').first()).toHaveAttribute('title', /reached the customer’s phone/);
  expect(fake.count(phone.e164)).toBe(1);
});

test('a phone the carrier cannot reach reads Not delivered, with the reason in words', async ({ page }) => {
  await signIn(page);
  const phone = uniquePhone();
  fake.on(phone.e164, { kind: 'accept', receipts: ['sent', 'undelivered'], errorCode: 30003 });
  await sendSms(page, phone.typed);
  await page.goto(`${bff.url}/requests`);
  const leg = page.locator('[data-testid="leg"][data-state="undelivered"]').first();
  await expect(leg).toBeVisible({ timeout: 20_000 });
  await expect(leg).toContainText('SMS: Not delivered');
  await expect(leg).toContainText('switched off or out of reach');
});
