import type { Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, test, uniquePhone } from './fixtures.ts';
import { chooseChannel } from './support/channel.ts';
import { fillPhone } from './support/pages.ts';
import { BASE_URL } from './support/stack.ts';

// What a person reads names things as the page labels them: the form's own words in every
// message, never the code's field names; and a search of Recent requests takes a number as people
// write it at home.

const CODE_NAMES =
  /\b(customerName|customerPhone|customerEmail|smsTemplate|emailSubject|emailTemplate|reminderAfterDays|quietHours|timeZone|reviewSiteUrl|reviewLeft|dailyCap)\b|\(channel \w+\)|\(extension\)|\(legacy\)|Request failed \(HTTP/;

async function expectNoCodeNames(page: Page, where: string) {
  const text = await page.locator('main').innerText();
  expect(text, where).not.toMatch(CODE_NAMES);
}

test('the send form’s messages name its fields as it labels them', async ({ signedIn }) => {
  const page = await signedIn('staff');
  await page.goto('/send');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Phone number is required to send by SMS')).toBeVisible();
  await expectNoCodeNames(page, 'send form, nothing filled in');
  await fillPhone(page, '415 555 01');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(/^Phone number is not valid/)).toBeVisible();
  await expectNoCodeNames(page, 'send form, a number too short');
  await chooseChannel(page, 'Both');
  await fillPhone(page, uniquePhone().typed);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Customer email is required to send by SMS and email')).toBeVisible();
  await expectNoCodeNames(page, 'send form, both channels');
});

test('the Settings page’s messages name its fields as it labels them', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.goto('/settings');
  const sms = page.getByLabel('SMS message', { exact: true });
  await sms.fill('Hi {first_name}, thanks!');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText(/^SMS message has an unknown placeholder \{first_name\}/)).toBeVisible();
  await expectNoCodeNames(page, 'settings with a bad placeholder');
});

test('Recent requests finds a send by the number as people write it, and says plainly what it cannot read', async ({
  signedIn,
}) => {
  const page = await signedIn('staff');
  const phone = uniquePhone();
  const name = `Local Search ${Date.now()}`;
  const sent = await page.request.post(`${BASE_URL}/api/v1/requests/send`, {
    data: { channel: 'sms', customerPhone: phone.e164, customerName: name },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL, 'idempotency-key': crypto.randomUUID() },
  });
  expect(sent.status()).toBe(200);
  await page.goto('/requests');
  const contact = page.getByRole('textbox', { name: 'Contact' });
  // The browser's region is the US (en-US): "415 …" is a US number.
  await contact.fill(phone.typed);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('send-row')).toHaveCount(1);
  await expect(page.getByTestId('send-row')).toContainText(name);
  await expect(page.getByTestId('error-state')).toHaveCount(0);

  await contact.fill('12');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(contact).toHaveAccessibleDescription(/Contact must be an email address or a phone number/);
  await expect(page.getByTestId('error-state')).toHaveCount(0);
  await expectNoCodeNames(page, 'recent requests with an unreadable contact');
});

test('Analytics names every figure in words', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.goto('/analytics');
  await expect(page.getByTestId('kpi-completed')).toBeVisible();
  await expectNoCodeNames(page, 'analytics');
});
