import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { DEMO_GOOGLE } from '../test/support/fake-google/demo.ts';
import { expect, test } from './fixtures.ts';
import { BASE_URL } from './support/stack.ts';

// Answering from the inbox, in the browser, against `npm start`'s demo: its Google location is
// connected to the local stand-in for Google, whose state the test reads with Google's own calls
// (a token from the refresh token, then the location's reviews). A manager answers a 1★ Google
// review and the stand-in holds the reply; staff cannot answer; an owner answers a review left
// through our page and the reply reaches the customer's inbox (the dev outbox).

type StandIn = { url: string; accountId: string; locationId: string };

/** The demo location's reviews as Google answers them (the stand-in's wire shapes). */
async function googleReviews(page: Page) {
  const dataDir = process.env.E2E_DATA_DIR as string;
  const standIn = JSON.parse(readFileSync(path.join(dataDir, 'google-stand-in.json'), 'utf8')) as StandIn;
  const refreshToken = readFileSync(path.join(dataDir, 'google-demo-refresh-token'), 'utf8').trim();
  const token = await page.request.post(`${standIn.url}/token`, {
    form: {
      client_id: DEMO_GOOGLE.clientId,
      client_secret: DEMO_GOOGLE.clientSecret,
      refresh_token: refreshToken,
      grant_type: 'refresh_token',
    },
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const list = await page.request.get(
    `${standIn.url}/v4/accounts/${standIn.accountId}/locations/${standIn.locationId}/reviews?pageSize=50`,
    { headers: { authorization: `Bearer ${access_token}` } },
  );
  return ((await list.json()) as { reviews: { reviewId: string; reviewReply?: { comment: string } }[] })
    .reviews;
}

/** The inbox row of the review whose text holds `words`, loading more of the list until it shows. */
async function rowWith(page: Page, words: string) {
  const row = page.getByTestId('inbox-row').filter({ hasText: words });
  for (let i = 0; i < 20 && (await row.count()) === 0; i++) {
    const more = page.getByRole('button', { name: 'Show more' });
    await expect(more.or(row).first()).toBeVisible();
    if ((await row.count()) > 0) break;
    await more.click();
  }
  await expect(row).toBeVisible();
  return row;
}

test('a manager answers a 1★ Google review from the inbox; the stand-in for Google holds the reply', async ({
  signedIn,
}) => {
  const manager = await signedIn('manager');
  await manager.goto('/inbox');
  await manager.getByLabel('Source').selectOption('google');
  await manager.getByLabel('Rating').selectOption('low');
  await expect(manager).toHaveURL(/\/inbox\?source=google&rating=low$/);
  const row = await rowWith(manager, 'Waited forty minutes for a flat white');
  await expect(row).toContainText(/waiting \d+ (day|h)/);
  await row.getByRole('button', { name: /Answer the review/ }).click();

  const panel = manager.getByTestId('reply-panel');
  await expect(panel).toContainText('posted publicly on Google');
  const words = `We are sorry about the wait, Priya. — e2e ${Date.now()}`;
  await panel.getByLabel('Your reply').fill(words);
  await panel.getByRole('button', { name: 'Post on Google' }).click();
  await expect(manager.getByText('Posted on Google — it may take a few minutes to show there')).toBeVisible();

  const held = (await googleReviews(manager)).find((r) => r.reviewId === 'AbFvOqDemoReview01');
  expect(held?.reviewReply?.comment).toBe(words);
  // Answered, it has left the inbox.
  await manager.reload();
  await expect(manager.getByTestId('inbox-row').filter({ hasText: 'Waited forty minutes' })).toHaveCount(0);
});

test('a staff member reads the review but cannot answer it, and the dashboard’s server refuses them', async ({
  signedIn,
}) => {
  const staff = await signedIn('staff');
  await staff.goto('/inbox?source=google&rating=low');
  const row = await rowWith(staff, 'Charged twice for one sandwich');
  await row.getByRole('button', { name: /Answer the review/ }).click();
  await expect(staff.getByTestId('reply-read-only')).toContainText(
    'Your role can read reviews but not answer them.',
  );
  await expect(staff.getByTestId('reply-form')).toHaveCount(0);
  const id = await staff.getByRole('dialog', { name: 'Review details' }).locator('dd code').textContent();
  const direct = await staff.request.post(`${BASE_URL}/api/v1/reviews/${id}/reply`, {
    data: { text: 'Trying anyway.' },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL, 'idempotency-key': crypto.randomUUID() },
  });
  expect(direct.status()).toBe(403);
  expect((await direct.json()).code).toBe('role_forbidden');
});

test('an owner answers a review left through our page; the reply reaches the customer by email', async ({
  page,
  signedIn,
  outbox,
}) => {
  const owner = await signedIn('owner');
  const email = `inbox-e2e-${Date.now()}@example.com`;
  const sent = await owner.request.post(`${BASE_URL}/api/v1/requests/send`, {
    data: { customerName: 'Rosa Inbox', customerEmail: email, channel: 'email' },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL, 'idempotency-key': crypto.randomUUID() },
  });
  expect(sent.status()).toBe(200);
  const { reviewLink } = (await sent.json()).data as { reviewLink: string };

  // The customer leaves 2★ on our page.
  await page.goto(reviewLink);
  const comment = `The soup was cold — e2e ${Date.now()}`;
  await page.getByLabel(/2 stars/).check();
  await page.getByLabel(/Anything you would like to tell us/).fill(comment);
  await page.getByRole('button', { name: 'Send feedback' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();

  await owner.goto('/inbox?source=direct&rating=low');
  const row = await rowWith(owner, comment);
  await row.getByRole('button', { name: /Answer the review/ }).click();
  const panel = owner.getByTestId('reply-panel');
  await expect(panel).toContainText('goes privately to the customer');
  const words = `Sorry, Rosa — your next soup is on us. e2e ${Date.now()}`;
  await panel.getByLabel('Your reply').fill(words);
  await panel.getByRole('button', { name: 'Send to the customer' }).click();
  await expect(owner.getByText('Sent to the customer by email')).toBeVisible();

  const replies = (await outbox.to(email)).filter((m) => m.reply);
  expect(replies).toHaveLength(1);
  expect(replies[0]!.body).toContain(words);
  expect(replies[0]!.subject).toBe('Harbour Street Coffee replied to your review');
});
