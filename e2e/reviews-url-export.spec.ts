import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { expect, test } from './fixtures.ts';
import { totalShown } from './support/pages.ts';

test('filters in the URL survive reload, Back and Forward', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.goto('/reviews');
  await page.getByLabel('Status').selectOption('responded');
  await expect(page).toHaveURL(/\/reviews\?status=responded$/);
  await page.getByLabel('Minimum rating').selectOption('4');
  await expect(page).toHaveURL(/\/reviews\?status=responded&minRating=4$/);
  await expect(page.getByTestId('page-range')).toContainText('1–20 of');
  const total = await totalShown(page);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\?status=responded&minRating=4&page=2$/);
  await expect(page.getByTestId('page-range')).toHaveText(`21–40 of ${total}`);

  await page.reload();
  await expect(page.getByLabel('Status')).toHaveValue('responded');
  await expect(page.getByLabel('Minimum rating')).toHaveValue('4');
  await expect(page.getByTestId('page-range')).toHaveText(`21–40 of ${total}`);

  await page.goBack();
  await expect(page).toHaveURL(/\?status=responded&minRating=4$/);
  await expect(page.getByTestId('page-range')).toHaveText(`1–20 of ${total}`);
  await page.goBack();
  await expect(page).toHaveURL(/\?status=responded$/);
  await expect(page.getByLabel('Minimum rating')).toHaveValue('any');
  await page.goForward();
  await expect(page.getByLabel('Minimum rating')).toHaveValue('4');
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
