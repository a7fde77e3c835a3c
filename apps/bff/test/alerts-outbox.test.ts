import { ALERT_PATHS } from '@review-desk/shared/alerts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainDevJobs } from '../../../test/support/dev-clock.ts';
import { request } from '../../../test/support/http.ts';
import { type SystemApi, type SystemBff, startSystemBff, waitFor } from '../../../test/support/stack.ts';
import { EMAIL_ALERTS, leaveReview, nextPolls, startReviewedApi } from './support/alerts.ts';

// Development without a mail server: with dev hooks on and no BFF_SMTP_URL, the emails alerts
// would send are kept on the BFF's own outbox page; without dev hooks there is no such page.

let api: SystemApi;
let bff: SystemBff;
let key: string;

beforeAll(async () => {
  ({ api, key } = await startReviewedApi());
  bff = await startSystemBff(api.url, { UPSTREAM_API_KEY: key, BFF_DEV_HOOKS: '1', ALERT_POLL_SECONDS: '1' });
}, 60_000);

afterAll(async () => {
  await bff?.cleanup();
  await api?.cleanup();
});

const outbox = (base: string) => request(base, '/dev/outbox.json');

it('keeps an alert email on the dev outbox page, and says so on the Notifications page', async () => {
  const owner = await bff.owner();
  const saved = await owner.request('PUT', ALERT_PATHS.preferences, {
    json: EMAIL_ALERTS,
  });
  expect(saved.json.data).toMatchObject({ emailConfigured: true, devOutbox: true });
  // The poll that turning alerts on asks for: the reviews already there are its baseline.
  await drainDevJobs(bff.url);
  await nextPolls(bff);
  expect((await outbox(bff.url)).json.data.messages).toEqual([]);

  await leaveReview(
    api,
    key,
    { channel: 'link', customerName: 'Outbox Customer' },
    { rating: 1, comment: 'Too noisy' },
  );
  await nextPolls(bff);

  await waitFor(
    async () => (await outbox(bff.url)).json.data.messages.length === 1,
    15_000,
    'an outbox email',
  );
  const [email] = (await outbox(bff.url)).json.data.messages;
  expect(email).toMatchObject({ to: 'owner@example.com', subject: expect.stringContaining('1★') });
  expect(email.text).toContain('Author: Outbox Customer');
  expect(JSON.stringify(email)).not.toContain(key);
});

it('has no outbox page without dev hooks', async () => {
  const plain = await startSystemBff(api.url, { UPSTREAM_API_KEY: key });
  try {
    const reply = await outbox(plain.url);
    expect(reply.status).toBe(404);
    const prefs = await (await plain.owner()).get(ALERT_PATHS.preferences);
    expect(prefs.json.data).toMatchObject({ emailConfigured: false, devOutbox: false });
  } finally {
    await plain.cleanup();
  }
});
