import { readFileSync } from 'node:fs';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, test, uniquePhone } from './fixtures.ts';
import { screenshot, WIDTHS } from './support/drawn-pages.ts';
import { seriousViolations } from './support/pages.ts';
import { API_URL, BASE_URL } from './support/stack.ts';

// Send to a list, the whole way: a 20-row CSV with two bad rows and a duplicate, checked in the
// browser, confirmed with the count, sent by the dashboard server; a reload keeps the progress,
// and the API's outbox holds exactly one message per valid row.

test('a list with bad rows and a duplicate sends each valid row once; a reload keeps the progress', async ({
  signedIn,
  request,
}) => {
  const page = await signedIn('staff');
  const tag = `list-${Date.now()}`;
  const good = Array.from({ length: 17 }, (_, i) => ({
    name: `Guest ${i + 1}`,
    email: `${tag}-${i}@example.com`,
  }));
  const lines = [
    'Name,Email',
    ...good.slice(0, 5).map((g) => `${g.name},${g.email}`),
    'No Address,not-an-email',
    `"Lee, Ann",${good[0]!.email.toUpperCase()}`,
    ...good.slice(5, 12).map((g) => `${g.name},${g.email}`),
    'Missing,',
    ...good.slice(12).map((g) => `${g.name},${g.email}`),
  ];
  expect(lines.length - 1).toBe(20);

  await page.goto('/send');
  await page.getByRole('link', { name: 'Send to a list' }).click();
  await expect(page).toHaveURL(/\/send\/list$/);
  await page.getByLabel(/Customer list/).setInputFiles({
    name: 'customers.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`),
  });
  await expect(page.getByText('customers.csv: 20 rows')).toBeVisible();
  await expect(page.getByLabel('Send by')).toHaveValue('email');
  await expect(page.getByTestId('preflight-valid')).toContainText('17');
  await expect(page.getByTestId('preflight-errors')).toContainText('2');
  await expect(page.getByTestId('preflight-duplicates')).toContainText('1');
  const errors = page.getByRole('table', { name: 'Rows with errors' });
  await expect(errors).toContainText('Customer email must be a valid email address');
  await expect(errors).toContainText('Customer email is required to send by email');

  await page.getByRole('button', { name: 'Check recent requests' }).click();
  await expect(page.getByTestId('preflight-recent')).toContainText('0');
  await page.getByRole('button', { name: 'Send 17 requests' }).click();
  await expect(page).toHaveURL(/\/send\/list\?job=/);
  const address = page.url();

  // Closing or reloading the page does not stop the list; its address shows its progress again.
  await expect(page.getByTestId('bulk-progress')).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(address);
  await expect(page.getByText(/of 17 rows done/)).toBeVisible();
  await expect(page.getByTestId('bulk-status')).toHaveText('Finished', { timeout: 90_000 });
  await expect(page.getByText('17 of 17 rows done')).toBeVisible();
  await expect(page.getByTestId('count-sent')).toContainText('17');
  await expect(page.getByTestId('count-unknown')).toContainText('0');
  expect.soft(await seriousViolations(page), 'the progress view').toEqual([]);

  for (const guest of good) {
    const response = await request.get(`${API_URL}/dev/outbox.json?to=${encodeURIComponent(guest.email)}`);
    const body = (await response.json()) as { data: { messages: unknown[] } };
    expect(body.data.messages, guest.email).toHaveLength(1);
  }

  // The results file has one line per sent row, and a reload still shows the finished job.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download results as CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.trim().split('\r\n')).toHaveLength(18);
  expect(csv.match(/,sent,/g)).toHaveLength(17);
});

test('a list with phone and email columns: each row by the contact it has, the recent one skipped and in the results', async ({
  signedIn,
  outbox,
}) => {
  const page = await signedIn('staff');
  const [recent, phoneOnly, phoneAndEmail] = [uniquePhone(), uniquePhone(), uniquePhone()];
  const tag = `either-${Date.now()}`;
  const sent = await page.request.post(`${BASE_URL}/api/v1/requests/send`, {
    data: { channel: 'sms', customerPhone: recent.e164 },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL, 'idempotency-key': crypto.randomUUID() },
  });
  expect(sent.status()).toBe(200);
  const lines = [
    'Name,Phone,Email',
    `Asked Recently,${recent.typed},`,
    `Phone Only,${phoneOnly.typed},`,
    `Email Only,,${tag}-c@example.com`,
    `Both Contacts,${phoneAndEmail.typed},${tag}-d@example.com`,
    `Phone Again,${phoneOnly.typed},`,
  ];
  await page.goto('/send/list');
  await page.getByLabel(/Customer list/).setInputFiles({
    name: 'mixed.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${lines.join('\n')}\n`),
  });
  // The default sends every row it can: a text where there is a phone, else an email.
  await expect(page.getByLabel('Send by')).toHaveValue('sms_or_email');
  await expect(page.getByTestId('preflight-valid')).toContainText('4');
  await expect(page.getByTestId('preflight-errors')).toContainText('0');
  await expect(page.getByText('1 duplicate row: each contact gets one request')).toBeVisible();
  await page.getByRole('button', { name: 'Check recent requests' }).click();
  const recentAlert = page.getByTestId('preflight-recent-alert');
  await expect(recentAlert).toContainText('1 contact was sent a request');
  // Sent just now: the line says when it can be asked again, 30 days on.
  const askAgain = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(Date.now() + 30 * 86_400_000),
  );
  await expect(recentAlert).toContainText(`Line 2: you can ask again on ${askAgain}`);
  await expect(page.getByRole('checkbox', { name: /anyway/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Send 3 requests' }).click();
  await expect(page.getByTestId('bulk-status')).toHaveText('Finished', { timeout: 90_000 });
  await expect(page.getByTestId('count-sent')).toContainText('3');
  await expect(page.getByTestId('count-skipped')).toContainText('1');
  // Finished: no row is left reading Waiting, without a reload.
  await expect(page.getByRole('table', { name: 'Rows' }).getByText('Waiting')).toHaveCount(0);
  await screenshot(page, 'send-to-a-list progress', WIDTHS[0]);

  expect(await outbox.to(recent.e164)).toHaveLength(1);
  expect(await outbox.to(phoneOnly.e164)).toHaveLength(1);
  expect(await outbox.to(phoneAndEmail.e164)).toHaveLength(1);
  expect(await outbox.to(`${tag}-c@example.com`)).toHaveLength(1);
  expect(await outbox.to(`${tag}-d@example.com`)).toHaveLength(0);

  // The results hold every row sent to the server, the skipped one too, with why.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download results as CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.trim().split('\r\n')).toHaveLength(5);
  expect(csv).toMatch(/Asked Recently,.*,skipped,recently_sent/);
});

test('axe: the list page with its preflight, light and dark', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.goto('/send/list');
  await expect(page.locator('#page-title')).toHaveText('Send to a list');
  await page.getByLabel(/Customer list/).setInputFiles({
    name: 'few.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,phone\nAnn,+1 415 555 0134\nBo,12\nCy,+1 415 555 0134\n'),
  });
  await expect(page.getByTestId('preflight-errors')).toContainText('1');
  await page.getByText(/with errors (is|are) not sent/).click();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    expect.soft(await seriousViolations(page), `/send/list (${colorScheme})`).toEqual([]);
  }
});
