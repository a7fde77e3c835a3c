import { OUTBOX_FAULTS } from '@review-desk/shared/dev';
import { expect, test, uniquePhone } from './fixtures.ts';
import { chooseChannel } from './support/channel.ts';
import { fillPhone } from './support/pages.ts';

test('Both with a failing SMS leg shows the warning, and Recent requests badges it', async ({
  signedIn,
  outbox,
}) => {
  const page = await signedIn('staff');
  const phone = uniquePhone(OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith);
  const email = `both-${Date.now()}@example.com`;

  await page.goto('/send');
  await chooseChannel(page, 'Both');
  await expect(page.getByRole('radio', { name: 'Both' })).toBeChecked();
  // The highlight sits on the chosen channel, inside the control. It is laid over the options by
  // its own stylesheet; without it the highlight drifts out of the control.
  const control = page.getByRole('radiogroup', { name: 'Channel' });
  const highlight = control.locator('.mantine-SegmentedControl-indicator');
  const both = control.locator('label').filter({ hasText: /^Both$/ });
  await expect(async () => {
    const [outer, mark, label] = await Promise.all([
      control.boundingBox(),
      highlight.boundingBox(),
      both.boundingBox(),
    ]);
    if (!outer || !mark || !label) throw new Error('the channel control is not laid out');
    expect(mark.y).toBeGreaterThanOrEqual(outer.y);
    expect(mark.y + mark.height).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
    expect(Math.abs(mark.x + mark.width / 2 - (label.x + label.width / 2))).toBeLessThan(2);
  }).toPass({ timeout: 5_000 });
  await fillPhone(page, phone.typed);
  await page.getByLabel('Customer email').fill(email);
  await page.getByRole('button', { name: 'Send request' }).click();

  const warning = page.getByTestId('send-warning');
  await expect(warning).toBeVisible();
  await expect(warning).not.toBeEmpty();
  await expect(page.getByRole('heading', { name: 'Request accepted, with a problem' })).toBeVisible();
  const requestId = ((await page.getByTestId('request-id').textContent()) ?? '').trim();

  const messages = await outbox.forRequest(requestId);
  expect(messages.map((m) => `${m.channel}:${m.status}`).sort()).toEqual(['email:accepted', 'sms:failed']);

  await page.getByRole('link', { name: 'Recent requests' }).last().click();
  await expect(page).toHaveURL(/\/requests\?contact=/);
  const row = page.getByTestId('send-row').first();
  await expect(row.getByText('Warning', { exact: true })).toBeVisible();
  await expect(row).toContainText('Both');
});

test('a double click on Send makes exactly one request upstream', async ({ signedIn, outbox }) => {
  const page = await signedIn('staff');
  const phone = uniquePhone();
  await page.goto('/send');
  await fillPhone(page, phone.typed);
  await page.getByRole('button', { name: 'Send request' }).dblclick();
  await expect(page.getByTestId('send-result')).toBeVisible();
  // A second request, had one been made, has been answered once the page has nothing in flight.
  await page.waitForLoadState('networkidle');
  expect(await outbox.to(phone.e164)).toHaveLength(1);
});
