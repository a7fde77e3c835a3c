import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import {
  type Behaviour,
  type FakeUpstream,
  faults,
  startFakeUpstream,
} from '../test/support/fault-upstream.ts';
import { repoRoot } from '../test/support/processes.ts';
import { type SystemBff, startSystemBff } from '../test/support/stack.ts';

// What the dashboard shows when the upstream misbehaves. This spec starts its own BFF (serving
// the dashboard's build) in front of a fault-injecting upstream, on ports of its own, and breaks
// one route at a time: every failure is a state that says what happened and what to do, the rest
// of the dashboard keeps working, and a send whose outcome is unknown is never shown as success
// or failure — nor sent twice.

const REVIEWS = '/api/v1/reviews';
const SEND = '/api/v1/requests/send';

let upstream: FakeUpstream;
let bff: SystemBff;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  upstream = await startFakeUpstream();
  bff = await startSystemBff(upstream.url, {
    WEB_DIST_DIR: path.join(repoRoot, 'apps/web/dist'),
    UPSTREAM_TIMEOUT_MS: '1000',
    BUSINESS_NAME: 'Fault Street Bakery',
  });
});

test.afterAll(async () => {
  await bff?.cleanup();
  await upstream?.close();
});

test.afterEach(() => upstream.reset());

async function signIn(page: Page) {
  const response = await page.request.post(`${bff.url}/auth/login`, {
    data: { email: 'owner@example.com', password: 'owner-password-1234' },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: bff.url },
  });
  expect(response.status()).toBe(200);
}

const READ_FAULTS: [string, () => Behaviour, RegExp][] = [
  ['hangs', faults.hang, /did not answer in time/],
  ['sends malformed JSON', faults.malformedJson, /answer the dashboard cannot read/],
  ['sends a 50 MB body', () => faults.hugeBody(50), /answer the dashboard cannot read/],
  ['labels JSON as text/plain', faults.wrongContentType, /answer the dashboard cannot read/],
  ['answers JSON that is not the envelope', () => faults.notEnvelope(), /answer the dashboard cannot read/],
  ['resets the connection', faults.resetAfterBody, /could not be reached/],
  ['answers with a gateway’s 503 page', () => faults.gatewayPage(503), /unavailable \(HTTP 503\)/],
  // The service's own failure envelope: its message is shown as it is.
  ['answers its own 500 envelope', faults.serverError, /Internal server error\./],
];

for (const [label, fault, message] of READ_FAULTS) {
  test(`Reviews: the upstream ${label} → an error state that says so, and Try again recovers`, async ({
    page,
  }) => {
    await signIn(page);
    upstream.behaveOn(REVIEWS, fault());
    await page.goto(`${bff.url}/reviews`);
    const error = page.getByTestId('error-state');
    // The dashboard retries reads (at most 3 times, with backoff) before it gives up.
    await expect(error).toBeVisible({ timeout: 30_000 });
    await expect(error).toContainText('The service failed');
    await expect(error).toContainText(message);
    await expect(error).not.toContainText(new URL(upstream.url).port);
    // The rest of the dashboard still works meanwhile.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    upstream.behaveOn(REVIEWS, null);
    await error.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByTestId('review-row').first()).toBeVisible();
    await expect(error).toHaveCount(0);
  });
}

test('Reviews: a 429 storm with a long Retry-After → “Too many requests” with a countdown, not a spinner', async ({
  page,
}) => {
  await signIn(page);
  upstream.behave(faults.rateLimited(45));
  await page.goto(`${bff.url}/reviews`);
  const error = page.getByTestId('error-state');
  await expect(error).toBeVisible();
  await expect(error).toContainText('Too many requests');
  await expect(error).toContainText(/you can try again in \d+ s/);
  await expect(error.getByRole('button', { name: /Try again in \d+ s/ })).toBeDisabled();
  // No silent retries behind the user's back while the countdown runs.
  const calls = upstream.count(REVIEWS);
  // Real time: the countdown runs in the browser's own time; nothing marks a retry that was not made.
  await page.waitForTimeout(3_000);
  expect(upstream.count(REVIEWS)).toBe(calls);
});

test('Analytics: the server’s key refused upstream (401) → says to check the key, not “sign in again”', async ({
  page,
}) => {
  await signIn(page);
  upstream.behaveOn('/api/v1/analytics', (_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"success":false,"error":"API key invalid, revoked or expired."}');
  });
  await page.goto(`${bff.url}/analytics`);
  const error = page.getByTestId('error-state');
  await expect(error).toContainText('The server’s API key was refused');
  await expect(page).toHaveURL(/\/analytics/);
});

for (const [label, fault] of [
  ['hangs past the timeout', faults.hang],
  ['resets the connection after reading the request', faults.resetAfterBody],
] as const) {
  test(`Send: the upstream ${label} → “outcome unknown”, Try again never sends twice, Recent requests says Unknown`, async ({
    page,
  }) => {
    await signIn(page);
    upstream.behaveOn(SEND, fault());
    await page.goto(`${bff.url}/send`);
    await page.getByLabel('Country').selectOption('US');
    const typed = `415 555 ${String(1000 + Math.floor(Math.random() * 8999))}`;
    await page.getByRole('textbox', { name: 'Phone number' }).fill(typed);
    await page.getByRole('button', { name: 'Send request' }).click();

    const unknown = page.getByTestId('send-unknown');
    await expect(unknown).toBeVisible();
    await expect(unknown).toContainText('Outcome unknown: a request may have gone out');
    await expect(page.getByTestId('send-result')).toHaveCount(0);

    // The upstream is healthy again; Try again reuses the intent, and the BFF refuses to resend.
    upstream.behaveOn(SEND, null);
    await unknown.getByRole('button', { name: 'Try again' }).click();
    await expect(unknown).toContainText(/Outcome unknown/);
    await expect(page.getByTestId('send-result')).toHaveCount(0);
    expect(upstream.count(SEND)).toBe(1);

    await unknown.getByRole('link', { name: 'Check recent requests' }).click();
    await expect(page).toHaveURL(/\/requests\?contact=/);
    const row = page.getByTestId('send-row').first();
    await expect(row.getByText('Unknown', { exact: true })).toBeVisible();
  });
}
