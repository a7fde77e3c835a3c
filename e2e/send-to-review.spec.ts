import { expect, test, uniquePhone } from './fixtures.ts';
import { fillPhone, kpiValue } from './support/pages.ts';
import { API_URL, PASSWORD, USERS } from './support/stack.ts';

// The whole loop a business relies on: staff send a request, the customer gets the message,
// leaves a rating, and the owner finds it in Reviews and in Analytics.

test('staff send an SMS, the customer leaves 5★, the owner sees it in Reviews and Analytics', async ({
  page,
  signedIn,
  outbox,
}) => {
  const owner = await signedIn('owner');
  await owner.goto('/analytics?days=7');
  const completedBefore = await kpiValue(owner, 'kpi-completed');

  // Staff sign in through the login page.
  await page.goto('/send');
  await expect(page).toHaveURL(/\/login\?next=%2Fsend$/);
  await page.getByLabel('Email').fill(USERS.staff);
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Send a review request' })).toBeVisible();

  const phone = uniquePhone();
  const customer = `Ana E2E ${Date.now()}`;
  await expect(page.getByRole('radio', { name: 'SMS' })).toBeChecked();
  await page.getByLabel('Customer name').fill(customer);
  await fillPhone(page, phone.typed);
  await expect(page.getByTestId('phone-preview')).toContainText('Will be sent to +1 415');
  await page.getByRole('button', { name: 'Send request' }).click();

  const result = page.getByTestId('send-result');
  // One state; what it means is a tap away.
  await result.getByRole('button', { name: 'Accepted for delivery' }).click();
  await expect(result).toContainText('Accepted for delivery. Not a delivery receipt, and not a review.');
  const requestId = ((await result.getByTestId('request-id').textContent()) ?? '').trim();

  // The message, as the API's outbox holds it.
  const [message] = await outbox.forRequest(requestId);
  expect(message).toMatchObject({ channel: 'sms', to: phone.e164, status: 'accepted' });

  // The customer opens it from the outbox page and follows the review link.
  const customerPage = await page.context().newPage();
  await customerPage.goto(`${API_URL}/dev/outbox`);
  await customerPage
    .getByRole('row')
    .filter({ hasText: requestId })
    .getByRole('link', { name: 'Open review link' })
    .click();
  await expect(customerPage.getByRole('heading', { name: /How was your visit/ })).toBeVisible();
  const comment = `Perfect flat white — e2e ${requestId}`;
  await customerPage.getByLabel(/5 stars/).check();
  await customerPage.getByLabel(/Anything you would like to tell us/).fill(comment);
  await customerPage.getByRole('button', { name: 'Send feedback' }).click();
  await expect(customerPage.getByRole('heading', { name: 'Thank you!' })).toBeVisible();

  // The owner filters Reviews to pending and 5★ and finds it.
  await owner.goto('/reviews');
  await owner.getByLabel('Status').selectOption('pending');
  await owner.getByLabel('Rating', { exact: true }).selectOption('5-5');
  await expect(owner).toHaveURL(/status=pending&minRating=5/);
  const row = owner.getByTestId('review-row').filter({ hasText: comment });
  await expect(row).toBeVisible();
  await expect(row.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
  await expect(row).toContainText(customer.split(' ')[0]!);

  // Analytics: completed rose by exactly one.
  await owner.goto('/analytics?days=7');
  await expect.poll(() => kpiValue(owner, 'kpi-completed')).toBe(completedBefore + 1);
});
