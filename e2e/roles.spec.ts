import { expect, test } from './fixtures.ts';

test('staff cannot reach Analytics: no nav item, and the direct URL says not allowed', async ({
  signedIn,
}) => {
  const page = await signedIn('staff');
  await page.goto('/reviews');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Reviews' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Send request' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Analytics' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);

  await page.goto('/analytics');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(page.getByTestId('not-allowed')).toContainText(
    'Your role (staff) does not give access to Analytics',
  );
  await expect(page.getByTestId('kpi-completed')).toHaveCount(0);

  // The BFF enforces it too: the UI only mirrors the rule.
  const direct = await page.request.get('/api/v1/analytics?days=7', { headers: { 'x-csrf': '1' } });
  expect(direct.status()).toBe(403);
});

test('managers see Analytics but not Users', async ({ signedIn }) => {
  const page = await signedIn('manager');
  await page.goto('/analytics');
  await expect(page.getByTestId('kpi-completed')).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }),
  ).toHaveCount(0);
});
