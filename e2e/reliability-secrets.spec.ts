import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { API_KEY_PREFIX, CSRF_HEADER, CSRF_HEADER_VALUE, OUTBOX_FAULTS } from '@review-desk/shared';
import { request } from '../test/support/http.ts';
import { repoRoot } from '../test/support/processes.ts';
import { replyLog } from '../test/support/reply-log.ts';
import { type SystemApi, type SystemBff, startSystemApi, startSystemBff } from '../test/support/stack.ts';
import { chooseChannel } from './support/channel.ts';
import { fillPhone } from './support/pages.ts';

// The API key never reaches a browser. The whole system runs with a key made by the API's own
// CLI (`key create`) and handed to the BFF; every page and error path is driven in Chromium and
// over HTTP; then the built bundle, every response body and header the browser received, every
// HTTP reply, and both apps' logs at info level are searched for the key and for its secret part
// (what follows `rd_live_`). Zero occurrences.

const DIST = path.join(repoRoot, 'apps/web/dist');
const PASSWORD = 'secret-scan-password';
const USERS = { manager: 'manager@scan.example', staff: 'staff@scan.example' };

let api: SystemApi;
let bff: SystemBff;
let key: string;
let keyId: string;
let secret: string;

const replies = replyLog();

/** Every response any page of this context receives: documents, scripts, styles, API calls. */
function listen(context: BrowserContext, label: string) {
  context.on('response', async (response) => {
    const headers = await response.allHeaders().catch(() => ({}));
    const body = await response.body().catch(() => Buffer.alloc(0));
    replies.record(
      `${label} ${response.request().method()} ${response.url()}`,
      response.status(),
      headers,
      body,
    );
  });
}

async function signIn(page: Page, email: string, password: string) {
  const response = await page.request.post(`${bff.url}/auth/login`, {
    data: { email, password },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: bff.url },
  });
  replies.record(`sign-in ${email}`, response.status(), response.headers(), await response.body());
  expect(response.status()).toBe(200);
}

async function open(page: Page, target: string) {
  await page.goto(`${bff.url}${target}`);
  await expect(page.locator('#page-title')).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await startSystemApi({ SEED_DEMO: '1', RATE_LIMIT_PER_MINUTE: '0' });
  ({ key, id: keyId } = await api.createKeyWithId());
  secret = key.slice(API_KEY_PREFIX.length);
  expect(secret.length).toBeGreaterThanOrEqual(43);
  bff = await startSystemBff(api.url, {
    UPSTREAM_API_KEY: key,
    WEB_DIST_DIR: DIST,
    BUSINESS_NAME: 'Harbour Street Coffee',
    UPSTREAM_TIMEOUT_MS: '5000',
  });
  const owner = await bff.owner();
  for (const [role, email] of Object.entries(USERS)) {
    expect((await owner.post('/bff/users', { email, role, password: PASSWORD })).status).toBe(201);
  }
});

test.afterAll(async () => {
  await bff?.cleanup();
  await api?.cleanup();
});

test('the built bundle holds no key', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(DIST);
  expect(files.some((f) => f.endsWith('.js'))).toBe(true);
  for (const file of files) {
    const text = readFileSync(file).toString('latin1');
    expect(text.includes(key), file).toBe(false);
    expect(text.includes(secret), file).toBe(false);
    // Nor any other key baked in at build time (a VITE_ variable, a copied demo key).
    expect(text.match(/rd_live_[A-Za-z0-9_-]{43}/)?.[0], file).toBeUndefined();
  }
});

test('the document has a strict CSP and no inline script; the session cookie is HttpOnly and SameSite=Strict', async ({
  page,
}) => {
  const document = await request(bff.url, '/reviews', { headers: { accept: 'text/html' } });
  expect(document.status).toBe(200);
  const csp = String(document.headers['content-security-policy']);
  expect(csp).toMatch(/(^|;)\s*script-src 'self'(;|$)/);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  const scripts = [...document.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  expect(scripts.length).toBeGreaterThan(0);
  for (const [, attributes, content] of scripts) {
    expect(attributes).toMatch(/\bsrc=/);
    expect(content!.trim()).toBe('');
  }
  expect(document.text).not.toMatch(/<style\b|\son[a-z]+=/i);

  await signIn(page, 'owner@example.com', 'owner-password-1234');
  await open(page, '/reviews');
  const [cookie] = (await page.context().cookies(bff.url)).filter((c) => c.name.endsWith('rd_session'));
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  expect(await page.evaluate('document.cookie')).not.toContain('rd_session');
});

test('over HTTP: every route and error path', async () => {
  const owner = await bff.owner();
  const staff = bff.session();
  await staff.login(USERS.staff, PASSWORD);
  const anonymous = bff.session();
  const calls: [string, () => Promise<{ status: number; headers: Record<string, unknown>; text: string }>][] =
    [
      ['reviews', () => owner.get('/api/v1/reviews?limit=100&status=pending')],
      ['analytics', () => owner.get('/api/v1/analytics?days=365')],
      ['send', () => owner.send({ channel: 'link', customerName: 'HTTP scan' })],
      [
        'send replayed',
        async () => {
          const k = crypto.randomUUID();
          await owner.send({ channel: 'link' }, k);
          return owner.send({ channel: 'link' }, k);
        },
      ],
      [
        'send other body, same key',
        async () => {
          const k = crypto.randomUUID();
          await owner.send({ channel: 'link' }, k);
          return owner.send({ channel: 'link', customerName: 'x' }, k);
        },
      ],
      [
        'send frequency cap',
        async () => {
          const body = { channel: 'sms', customerPhone: '+14155550123' };
          await owner.send(body);
          return owner.send(body);
        },
      ],
      [
        'send every delivery failed',
        () => owner.send({ channel: 'both', customerPhone: '+14155550000', customerEmail: 'x@fail.example' }),
      ],
      ['send invalid', () => owner.send({ channel: 'carrier-pigeon' })],
      [
        'send without an Idempotency-Key',
        () => owner.request('POST', '/api/v1/requests/send', { json: { channel: 'link' } }),
      ],
      [
        'send without csrf',
        () =>
          request(bff.url, '/api/v1/requests/send', {
            method: 'POST',
            headers: { cookie: owner.cookie!, 'content-type': 'application/json' },
            body: '{}',
          }),
      ],
      ['bad query', () => owner.get('/api/v1/reviews?limit=1000')],
      ['key in query', () => owner.get(`/api/v1/reviews?api_key=${key}`)],
      ['unknown api path', () => owner.get('/api/v1/keys')],
      ['wrong method', () => owner.request('DELETE', '/api/v1/reviews')],
      [
        'traversal',
        () => request(bff.url, '/api/v1/%2e%2e/dev/outbox.json', { headers: { cookie: owner.cookie! } }),
      ],
      [
        'absolute-form',
        () => request(bff.url, `${api.url}/dev/outbox.json`, { headers: { cookie: owner.cookie! } }),
      ],
      [
        'oversized headers',
        () => request(bff.url, '/api/v1/reviews', { headers: { 'x-pad': 'p'.repeat(20_000) } }),
      ],
      ['staff analytics', () => staff.get('/api/v1/analytics')],
      ['staff users', () => staff.get('/bff/users')],
      ['anonymous reviews', () => anonymous.get('/api/v1/reviews')],
      ['anonymous me', () => anonymous.get('/auth/me')],
      ['login wrong', () => bff.session().login('owner@example.com', 'wrong-password')],
      ['me', () => owner.get('/auth/me')],
      ['users', () => owner.get('/bff/users')],
      [
        'duplicate user',
        () => owner.post('/bff/users', { email: USERS.staff, role: 'staff', password: PASSWORD }),
      ],
      ['sends', () => owner.get('/bff/sends?limit=100')],
      ['healthz', () => anonymous.get('/healthz')],
      ['readyz', () => anonymous.get('/readyz')],
      ['metrics', () => anonymous.get('/metrics')],
      ['index', () => request(bff.url, '/', { headers: { accept: 'text/html' } })],
      ['logout', () => bff.session().post('/auth/logout', {})],
    ];
  for (const [label, call] of calls) {
    const reply = await call();
    replies.record(`http ${label}`, reply.status, reply.headers, reply.text);
  }
  for (const status of [200, 400, 401, 403, 404, 405, 409, 422, 431, 502])
    expect([...replies.statuses()]).toContain(status);
});

test('in the browser: every page and its error paths', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext();
  listen(context, 'owner');
  const page = await context.newPage();

  await test.step('sign-in page: a wrong password, then the right one', async () => {
    await page.goto(`${bff.url}/reviews`);
    await expect(page).toHaveURL(/\/login\?next=/);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Email or password is incorrect.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Password' }).fill('owner-password-1234');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('review-row').first()).toBeVisible();
  });

  await test.step('reviews: filters, details, next page, export', async () => {
    await page.getByLabel('Status').selectOption('pending');
    await page.getByLabel('Rating', { exact: true }).selectOption('4-5');
    await expect(page.getByTestId('review-row').first()).toBeVisible();
    await page
      .getByRole('button', { name: /^Details of the review/ })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: 'Review details' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/page=2/);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await download;
    await open(page, '/reviews?limit=500&minRating=9');
  });

  await test.step('send: SMS, both with a failed leg, link, a field error, the frequency cap, every leg failed', async () => {
    await open(page, '/send');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByText(/^Phone number is required/)).toBeVisible();
    await fillPhone(page, '415 555 0142');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByTestId('send-result')).toBeVisible();

    await open(page, '/send');
    await chooseChannel(page, 'Both');
    await fillPhone(page, `415 556 ${OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith}`);
    await page.getByLabel('Customer email').fill('both-scan@example.com');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByTestId('send-warning')).toBeVisible();

    await open(page, '/send');
    await chooseChannel(page, 'Link');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect(page.getByTestId('qr-code')).toBeVisible();

    // The same number again: the service would refuse it (frequency cap), so the dashboard says
    // when to ask again and offers a review link instead.
    await open(page, '/send');
    await fillPhone(page, '415 555 0142');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('dialog', { name: 'This customer was asked recently' })).toContainText(
      'you can ask again from',
    );
    await page.getByRole('button', { name: 'Create a review link instead' }).click();
    await expect(page.getByTestId('qr-code')).toBeVisible();

    await open(page, '/send');
    await chooseChannel(page, 'Both');
    await fillPhone(page, `415 557 ${OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith}`);
    await page.getByLabel('Customer email').fill('bounce@fail.example');
    await page.getByRole('button', { name: 'Send request' }).click();
    // Every delivery failed: known not sent, so the user may fix the contacts and send again.
    await expect(page.getByTestId('send-refused')).toContainText('Not sent: every delivery failed');
    await expect(page.getByTestId('send-unknown')).toHaveCount(0);
  });

  await test.step('recent requests, analytics, users', async () => {
    await open(page, '/requests');
    await expect(page.getByTestId('send-row').first()).toBeVisible();
    await open(page, '/requests?contact=%2B14155550142');
    await open(page, '/analytics?days=7');
    await expect(page.getByTestId('kpi-completed')).toBeVisible();
    await open(page, '/analytics?days=999');
    await open(page, '/users');
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a user' });
    await dialog.getByLabel(/Email/).fill('added@scan.example');
    await dialog.getByLabel(/^Password/).fill('short');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await dialog.getByLabel(/^Password/).fill('a-long-enough-password');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(dialog).toHaveCount(0);
    await page.goto(`${bff.url}/no-such-page`);
  });

  await test.step('staff: pages a role may not open, and throttled sign-in', async () => {
    const staffContext = await browser.newContext();
    listen(staffContext, 'staff');
    const staffPage = await staffContext.newPage();
    await signIn(staffPage, USERS.staff, PASSWORD);
    await staffPage.goto(`${bff.url}/analytics`);
    await expect(staffPage.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
    await staffPage.goto(`${bff.url}/users`);
    await expect(staffPage.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
    await staffContext.clearCookies();
    await staffPage.goto(`${bff.url}/login`);
    for (let i = 0; i < 6; i++) {
      await staffPage.getByLabel('Email').fill('guesser@scan.example');
      await staffPage.getByRole('textbox', { name: 'Password' }).fill(`guess-${i}`);
      await staffPage.getByRole('button', { name: 'Sign in' }).click();
      await expect(staffPage.getByRole('alert').first()).toBeVisible();
    }
    await expect(staffPage.getByText(/Too many sign-in attempts/)).toBeVisible();
    await staffContext.close();
  });

  await test.step('a session that ends mid-work returns to sign-in', async () => {
    await context.clearCookies();
    await page.getByRole('link', { name: 'Recent requests' }).first().click();
    await expect(page).toHaveURL(/\/login/);
    await signIn(page, 'owner@example.com', 'owner-password-1234');
  });

  await test.step('the key revoked: every page says the server’s key was refused', async () => {
    await api.cli(['key', 'revoke', keyId]);
    // The CLI is another process: the running service stops trusting its cached key within a
    // second (docs/decisions/0021-api-key-and-settings-cache.md).
    await expect
      .poll(
        async () => (await fetch(`${api.url}/api/v1/reviews`, { headers: { 'x-api-key': key } })).status,
        { timeout: 2_000, intervals: [100] },
      )
      .toBe(401);
    await open(page, '/reviews?status=ignored');
    await expect(page.getByTestId('error-state')).toContainText('The server’s API key was refused');
    await open(page, '/analytics?days=30');
    await expect(page.getByTestId('error-state')).toContainText('The server’s API key was refused');
    await open(page, '/send');
    await chooseChannel(page, 'Link');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect(page.getByTestId('send-refused')).toBeVisible();
  });

  await test.step('the API down: reads and sends fail plainly', async () => {
    await api.stop();
    await open(page, '/reviews?status=responded');
    await expect(page.getByTestId('error-state')).toContainText(/could not be reached/, { timeout: 30_000 });
    await open(page, '/send');
    await chooseChannel(page, 'Link');
    await page.getByRole('button', { name: 'Create link' }).click();
    // No connection at all (upstream_unreachable): known not sent.
    await expect(page.getByTestId('send-refused')).toContainText('nothing was sent');
    await expect(page.getByTestId('send-unknown')).toHaveCount(0);
    await page.getByRole('button', { name: /^Account:/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login/);
  });
  await context.close();
});

test('nothing the browser received, no HTTP reply and no log line holds the key or its secret part', async () => {
  const statuses = replies.statuses();
  expect(replies.seen.length).toBeGreaterThan(100);
  for (const status of [200, 303, 400, 401, 403, 404, 409, 429, 502]) {
    if (status !== 303) expect([...statuses], `status ${status} exercised`).toContain(status);
  }
  for (const needle of [key, secret]) expect(replies.holding(needle), 'replies holding the key').toEqual([]);
  const logs = [...bff.app.logs, ...api.app.logs];
  expect(logs.length).toBeGreaterThan(50);
  for (const line of logs) {
    expect(line.includes(secret), `log line: ${line.slice(0, 200)}`).toBe(false);
  }
  console.log(
    `secret scan: ${replies.seen.length} responses (${[...statuses].sort().join(' ')}), ${logs.length} log lines, 0 occurrences`,
  );
});
