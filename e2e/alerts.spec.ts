import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, test } from './fixtures.ts';
import { BASE_URL } from './support/stack.ts';

// Low-rating alerts in the browser: an owner has them on from the start, a staff member turns
// them on in the Notifications page (this stack has no mail server: the page says so, and the
// bell is the way), a customer leaves 1★, the bell shows it, opening it marks it read, and its
// link opens the review's detail. The stack polls every 2 seconds (playwright.config.ts).

test('a new low rating reaches the bell; opening it marks it read and its link opens the review', async ({
  signedIn,
}) => {
  const owner = await signedIn('owner');
  const staff = await signedIn('staff');

  // Whatever earlier tests raised for the owner is read: the bell counts from here.
  await owner.request.post(`${BASE_URL}/bff/alerts/read`, {
    data: { all: true },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL },
  });
  await owner.goto('/notifications');
  // Owners hear of low ratings without having to find this page first.
  await expect(owner.getByRole('switch', { name: /Alert me about low ratings/ })).toBeChecked();
  for (const page of [owner, staff]) {
    await page.goto('/notifications');
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    // `npm start` has no mail server: alert emails are kept on the BFF's development outbox.
    await expect(page.getByTestId('dev-outbox')).toContainText('/dev/outbox.json');
    await page.getByRole('switch', { name: /Alert me about low ratings/ }).check();
    await page.getByLabel('Threshold', { exact: true }).selectOption('2');
    await page.getByRole('radio', { name: 'The bell only' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Notification settings saved.')).toBeVisible();
  }
  // Staff read reviews, not analytics: alerts yes, the digest no.
  await expect(staff.getByRole('checkbox', { name: /Weekly digest/ })).toBeDisabled();
  // Saved: a reload shows it.
  await owner.reload();
  await expect(owner.getByLabel('Threshold', { exact: true })).toHaveValue('2');
  await expect(owner.getByRole('switch', { name: /Alert me about low ratings/ })).toBeChecked();

  // The first poll after turning alerts on is the baseline: from then on every new review counts.
  for (const page of [owner, staff])
    await expect
      .poll(async () => {
        const reply = await page.request.get(`${BASE_URL}/bff/alerts`);
        return ((await reply.json()) as { data: { activeSince: string | null } }).data.activeSince;
      })
      .not.toBeNull();

  // A customer leaves 1★ through a link request (sent through the BFF as the dashboard does).
  const customer = `Bell E2E ${Date.now()}`;
  const sent = await owner.request.post(`${BASE_URL}/api/v1/requests/send`, {
    data: { channel: 'link', customerName: customer },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL, 'idempotency-key': crypto.randomUUID() },
  });
  expect(sent.status()).toBe(200);
  const { reviewLink } = ((await sent.json()) as { data: { reviewLink: string } }).data;
  const customerPage = await owner.context().newPage();
  await customerPage.goto(reviewLink);
  await customerPage.getByLabel(/1 star\b/).check();
  await customerPage.getByLabel(/Anything you would like to tell us/).fill(`Cold and late — ${customer}`);
  await customerPage.getByRole('button', { name: 'Send feedback' }).click();
  await expect(customerPage.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await customerPage.close();

  // Raised within a poll or two; the bell reads the list every minute, and at once on a load.
  await expect
    .poll(
      async () => {
        const reply = await owner.request.get(`${BASE_URL}/bff/alerts`);
        const { data } = (await reply.json()) as {
          data: { alerts: { excerpt: string | null; read: boolean }[] };
        };
        return data.alerts.some((a) => a.excerpt?.includes(customer) && !a.read);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await owner.goto('/reviews');
  await expect(owner.getByRole('button', { name: /^Notifications, \d+ unread$/ })).toBeVisible();
  const bell = owner.getByRole('button', { name: /^Notifications/ });
  await bell.click();
  const list = owner.getByRole('dialog', { name: 'Low ratings' });
  const item = list.getByRole('link', { name: new RegExp(customer) });
  await expect(item).toBeVisible();
  await expect(item.getByRole('img', { name: '1 out of 5 stars' })).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications');

  await item.click();
  const detail = owner.getByRole('dialog', { name: 'Review details' });
  await expect(detail).toContainText(`Cold and late — ${customer}`);

  // Staff get it too, in their own bell.
  await staff.goto('/reviews');
  await expect(staff.getByRole('button', { name: /^Notifications, \d+ unread$/ })).toBeVisible();
});
