import { expect, test } from './fixtures.ts';
import { totalShown } from './support/pages.ts';
import { BASE_URL } from './support/stack.ts';

// An owner lists just the low ratings to answer them first: "1–2★" in the Rating filter asks the
// service for reviews rated at most 2 (its maxRating extension), and the page shows exactly those.

test('an owner lists only the 1–2★ reviews, every one of them and nothing else', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.goto('/reviews');
  await expect(page.getByTestId('review-row').first()).toBeVisible();
  await page.getByLabel('Rating', { exact: true }).selectOption({ label: '1–2★' });
  await expect(page).toHaveURL(/\/reviews\?maxRating=2$/);
  await expect(page.getByTestId('page-range')).toBeVisible();
  const reply = await page.request.get(`${BASE_URL}/api/v1/reviews?maxRating=2&limit=1`, {
    headers: { 'x-csrf': '1' },
  });
  const expected = ((await reply.json()) as { data: { total: number } }).data.total;
  expect(expected).toBeGreaterThan(0);
  expect(await totalShown(page)).toBe(expected);
  const ratings = await page
    .getByTestId('review-row')
    .getByRole('img', { name: /out of 5 stars$/ })
    .evaluateAll((els) => els.map((el) => Number.parseInt(el.getAttribute('aria-label') ?? '', 10)));
  expect(ratings.length).toBeGreaterThan(0);
  expect(ratings.every((rating) => rating >= 1 && rating <= 2)).toBe(true);
  await expect(page.getByTestId('range-not-offered')).toHaveCount(0);
  await expect(page.getByText('No reviews match')).toHaveCount(0);
});
