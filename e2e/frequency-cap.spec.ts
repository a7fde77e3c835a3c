import { expect, test, uniquePhone } from './fixtures.ts';
import { fillPhone } from './support/pages.ts';

// The service takes one request per customer every FREQUENCY_CAP_DAYS (30 here). The send form
// never offers to send what the service will refuse: it says when the customer can be asked again
// and offers a review link instead, and nothing more reaches the customer.

test('a second request inside the cap is not offered: the date to ask again, and a link instead', async ({
  signedIn,
  outbox,
}) => {
  const page = await signedIn('staff');
  const phone = uniquePhone();
  await page.goto('/send');
  await page.getByLabel('Customer name').fill('Capped Customer');
  await fillPhone(page, phone.typed);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('send-state')).toHaveText('Accepted for delivery');

  await page.getByRole('button', { name: 'Send another request' }).click();
  await page.getByLabel('Customer name').fill('Capped Customer');
  await fillPhone(page, phone.typed);
  await page.getByRole('button', { name: 'Send request' }).click();
  const dialog = page.getByRole('dialog', { name: 'This customer was asked recently' });
  const askAgain = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(Date.now() + 30 * 86_400_000),
  );
  await expect(dialog.getByTestId('ask-again')).toHaveText(askAgain);
  await expect(dialog.getByRole('button', { name: /^Send/ })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Create a review link instead' }).click();
  await expect(page.getByTestId('qr-code')).toBeVisible();
  await expect(page.getByTestId('send-state')).toHaveText('Link created');
  expect(await outbox.to(phone.e164)).toHaveLength(1);
});
