import type { Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, test, uniquePhone } from './fixtures.ts';
import { fillPhone } from './support/pages.ts';
import { BASE_URL } from './support/stack.ts';

// An owner words the SMS on the Settings page, sees it as the customer will, saves it, and the
// next send carries those words; an owner sends a test of unsaved words to their own phone;
// managers and staff cannot open the page.

/** The owner on the Settings page: the page, the SMS words' field and the words as saved. */
async function ownerOnSettings(signedIn: (role: 'owner') => Promise<Page>) {
  const owner = await signedIn('owner');
  await owner.goto('/settings');
  await expect(owner.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const sms = owner.getByLabel('SMS message');
  return { owner, sms, saved: await sms.inputValue() };
}

test('an owner edits the SMS template, the preview follows, and a send uses the new words', async ({
  signedIn,
  outbox,
}) => {
  const { owner, sms, saved: original } = await ownerOnSettings(signedIn);
  const words = `Thanks for the visit, {customer_name|friend}! E2E ${Date.now()} {review_link}`;
  try {
    await sms.fill(words);
    const preview = owner.getByTestId('sms-text');
    await expect(preview).toContainText('Thanks for the visit, Alexandra Whitfield! E2E');
    await expect(preview).toContainText('Reply STOP to opt out.');
    await expect(owner.getByTestId('sms-count')).toContainText('GSM-7');
    await owner.getByLabel('Preview for a customer without a name').check();
    await expect(preview).toContainText('Thanks for the visit, friend! E2E');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await expect(owner.getByText('Settings saved')).toBeVisible();

    await owner.goto('/send');
    const phone = uniquePhone();
    await owner.getByLabel('Customer name').fill('Rosa');
    await fillPhone(owner, phone.typed);
    await owner.getByRole('button', { name: 'Send request' }).click();
    const result = owner.getByTestId('send-result');
    await expect(result).toContainText('Accepted for delivery');
    const requestId = ((await result.getByTestId('request-id').textContent()) ?? '').trim();
    const [message] = await outbox.forRequest(requestId);
    expect(message!.body).toMatch(
      /^Thanks for the visit, Rosa! E2E \d+ http\S+\/r\/\S+ Reply STOP to opt out\.$/,
    );
  } finally {
    // Other specs share the demo business: put its words back.
    const restored = await owner.request.put(`${BASE_URL}/bff/settings`, {
      data: { smsTemplate: original },
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL },
    });
    expect(restored.status()).toBe(200);
  }
});

test('an owner sends a test of the unsaved words to their phone; it reaches the outbox as a test', async ({
  signedIn,
  outbox,
}) => {
  const { owner, sms, saved } = await ownerOnSettings(signedIn);
  const stamp = `T${Date.now()}`;
  await sms.fill(`Trying words ${stamp} for {customer_name} at {business_name}: {review_link}`);
  await expect(owner.getByTestId('sms-text')).toContainText(`Trying words ${stamp} for Alexandra Whitfield`);

  const panel = owner.getByTestId('send-test');
  await panel.getByLabel('SMS to my phone').check();
  const phone = uniquePhone();
  await panel.getByLabel('Your phone').fill(`+1 ${phone.typed}`);
  await panel.getByRole('button', { name: 'Send me a test' }).click();
  await expect(panel.getByTestId('send-test-result')).toContainText(
    `Handed to the carrier for ${phone.e164}`,
  );

  const [message] = await outbox.to(phone.e164);
  expect(message).toMatchObject({ test: true, channel: 'sms' });
  expect(message!.body).toMatch(
    new RegExp(
      `^Trying words ${stamp} for Alexandra Whitfield at .+: http\\S+/r/\\S+ Reply STOP to opt out\\.$`,
    ),
  );
  // A test is not a request, and the words were not saved.
  expect(message!.requestId).toMatch(/^test_\d+$/);
  await owner.reload();
  await expect(owner.getByLabel('SMS message')).toHaveValue(saved);
});

test('managers and staff have no Settings page, and the BFF refuses them', async ({ signedIn }) => {
  for (const role of ['manager', 'staff'] as const) {
    const page = await signedIn(role);
    await page.goto('/settings');
    await expect(page.getByTestId('not-allowed')).toContainText(
      `Your role (${role}) does not give access to Settings`,
    );
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }),
    ).toHaveCount(0);
    const direct = await page.request.get(`${BASE_URL}/bff/settings`, {
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
    });
    expect(direct.status()).toBe(403);
  }
});
