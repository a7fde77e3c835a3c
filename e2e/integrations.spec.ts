import { randomUUID } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import { notify, paymentEvent } from '../test/support/fake-square.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/support/webhook-receiver.ts';
import { expect, test } from './fixtures.ts';

// Settings → Integrations in the browser, against the whole stack: an owner connects Square with
// its signature key and turns automatic sends on beside the consent reminder; a completed payment
// Square signs becomes a request listed as automatic in Recent requests, with the payment it
// followed; the owner adds a webhook endpoint (a stand-in receiver over HTTPS), sees its signing
// secret once, sends it a test event, and finds that event delivered in the endpoint's log; axe
// finds nothing serious on the section in light or dark.

let receiver: WebhookReceiver;

test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

test.afterAll(async () => {
  await receiver?.close();
});

test('an owner connects Square, adds a webhook endpoint, sends it a test event and reads its log', async ({
  signedIn,
}) => {
  const owner = await signedIn('owner');
  await owner.goto('/settings');
  const integrations = owner.getByTestId('integrations');
  await expect(integrations.getByRole('heading', { name: 'Integrations' })).toBeVisible();

  // Square: connected with a signature key; automatic sends beside the consent reminder.
  const square = integrations.getByTestId('square-card');
  const signatureKey = `e2e-signature-key-${randomUUID()}`;
  await square.getByLabel(/signature key/i).fill(signatureKey);
  await square.getByLabel('Minutes to wait after the payment', { exact: false }).fill('0');
  await square.getByRole('switch', { name: /automatically after each completed payment/ }).check();
  await expect(square.getByTestId('consent-reminder')).toContainText('consent');
  await square.getByRole('button', { name: /Connect Square|Save Square/ }).click();
  await expect(square.getByText('Connected', { exact: true })).toBeVisible();
  const notificationUrl = ((await square.getByTestId('square-url').textContent()) ?? '').trim();
  expect(notificationUrl).toMatch(/\/webhooks\/square\/sq_/);
  // The key never comes back to the page.
  expect(await owner.content()).not.toContain(signatureKey);

  // A completed payment, signed as Square signs it, becomes an automatic request.
  const paymentId = `pay_e2e_${randomUUID().slice(0, 8)}`;
  const sent = await notify(
    notificationUrl,
    signatureKey,
    paymentEvent({ paymentId, email: `buyer-${paymentId}@example.com` }),
  );
  expect(sent.status).toBe(200);
  await owner.goto('/requests');
  const automatic = owner.getByTestId('automatic-requests');
  await expect(automatic.getByTestId('automatic-row').filter({ hasText: paymentId })).toContainText(
    'Square payment',
  );

  // Webhooks: an endpoint whose secret is shown once.
  await owner.goto('/settings');
  const hooks = owner.getByTestId('webhooks-card');
  await hooks.getByLabel('Endpoint address (https)').fill(receiver.url('/e2e-events'));
  await hooks.getByRole('button', { name: 'Add endpoint' }).click();
  const secretBox = hooks.getByTestId('webhook-secret');
  await expect(secretBox).toContainText('whsec_');
  const secret = ((await secretBox.locator('code').textContent()) ?? '').trim();
  const endpoint = hooks.getByTestId('webhook-endpoint').filter({ hasText: receiver.url('/e2e-events') });
  await expect(endpoint).toContainText('Active');
  await owner.reload();
  await expect(owner.getByTestId('webhooks-card').getByTestId('webhook-endpoint').first()).toBeVisible();
  expect(await owner.content()).not.toContain(secret);

  // A test event reaches the receiver, signed with that secret, and is in the log as delivered.
  const reloaded = owner
    .getByTestId('webhooks-card')
    .getByTestId('webhook-endpoint')
    .filter({ hasText: receiver.url('/e2e-events') });
  await reloaded.getByRole('button', { name: 'Send a test event' }).click();
  const [delivered] = await receiver.arrived('/e2e-events', 1);
  expect(receiver.verify(delivered!, secret)).toMatchObject({ type: 'webhook.test' });
  await reloaded.getByRole('button', { name: 'Delivery log' }).click();
  const row = reloaded.getByTestId('delivery-row').filter({ hasText: 'webhook.test' });
  await expect(row).toContainText(delivered!.id);
  await expect(row).toContainText('HTTP 200');

  // The section, its log open, has no serious accessibility violation, in light or dark.
  for (const colorScheme of ['light', 'dark'] as const) {
    await owner.emulateMedia({ colorScheme });
    await expect(owner.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    const axe = await new AxeBuilder({ page: owner })
      .include('[data-testid="integrations"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect
      .soft(
        serious.map((v) => v.id),
        `Settings → Integrations (${colorScheme})`,
      )
      .toEqual([]);
  }
});
