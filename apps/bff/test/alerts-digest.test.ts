import { ALERT_PATHS } from '@review-desk/shared/alerts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainDevJobs, moveDevClock } from '../../../test/support/dev-clock.ts';
import { type SmtpCatcher, startSmtpCatcher } from '../../../test/support/smtp.ts';
import { type SystemApi, type SystemBff, startSystemBff } from '../../../test/support/stack.ts';
import { digestSlots, formatAverage, formatRate } from '../src/alerts/digest.ts';
import { startReviewedApi } from './support/alerts.ts';
import { MANAGER } from './support/fixtures.ts';

// The weekly digest against the real API's demo data, on a clock the test moves through the BFF's
// dev hook: due Monday 08:00 in each user's time zone, sent once per user and week across
// restarts, with the figures the Analytics page shows for the same seven days.

const ZONE = 'America/New_York';

let smtp: SmtpCatcher;
let api: SystemApi;
let bff: SystemBff;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  const started = await startReviewedApi({ SEED_DEMO: '1' });
  api = started.api;
  bff = await startSystemBff(api.url, {
    UPSTREAM_API_KEY: started.key,
    BFF_DEV_HOOKS: '1',
    BFF_SMTP_URL: smtp.url,
  });
}, 90_000);

afterAll(async () => {
  await bff?.cleanup();
  await api?.cleanup();
  await smtp?.close();
});

const setClock = (ms: number) => moveDevClock(bff.url, { set: ms });

/** Runs every job due on the BFF's clock: what has not been sent now will not be at this time. */
const settle = () => drainDevJobs(bff.url);

it('sends each opted-in user one digest on Monday 08:00 their time, with the Analytics page’s figures', async () => {
  const owner = await bff.owner();
  expect((await owner.post('/bff/users', MANAGER)).status).toBe(201);
  const manager = bff.session();
  expect((await manager.login(MANAGER.email, MANAGER.password)).status).toBe(200);
  for (const session of [owner, manager]) {
    const saved = await session.request('PUT', ALERT_PATHS.preferences, {
      json: { enabled: false, threshold: 2, channel: 'email', timeZone: ZONE, digest: true },
    });
    expect(saved.status).toBe(200);
  }
  const slot = digestSlots(Date.now(), ZONE).at(-1)!;

  // A minute early: nothing.
  await setClock(slot.at - 60_000);
  await settle();
  expect(smtp.messages).toHaveLength(0);

  await setClock(slot.at + 30_000);
  await smtp.waitFor(2);
  await settle();
  expect(smtp.messages).toHaveLength(2);
  expect(smtp.messages.flatMap((m) => m.to).sort()).toEqual(['manager@example.com', 'owner@example.com']);
  const mail = smtp.messages.find((m) => m.to[0] === 'owner@example.com')!;
  expect(mail.subject).toBe(`Your week in reviews (week of ${slot.week})`);

  // The Analytics page's read for the same seven days, through the BFF.
  const analytics = (await owner.get('/api/v1/analytics?days=7')).json.data;
  expect(analytics.requests.sent).toBeGreaterThan(0);
  expect(mail.text).toContain(`Requests sent: ${analytics.requests.sent}\n`);
  expect(mail.text).toContain(`Completion rate: ${formatRate(analytics.requests.completionRate)}\n`);
  expect(mail.text).toContain(`New reviews: ${analytics.reviews.total}\n`);
  expect(mail.text).toContain(`Average rating: ${formatAverage(analytics.reviews.avgRating)}`);
  expect(mail.text).toContain(`${bff.url}/analytics?days=7`);
  expect(mail.raw).not.toContain(bff.key);
});

it('never sends the same week twice, across a restart; the next week is sent', async () => {
  const slot = digestSlots(Date.now(), ZONE).at(-1)!;
  await bff.restart();
  // The fake clock starts again from the real time: move it past the slot once more.
  await setClock(slot.at + 60_000);
  await settle();
  expect(smtp.messages).toHaveLength(2);

  await setClock(slot.at + 7 * 86_400_000 + 60_000);
  await smtp.waitFor(4);
  await settle();
  expect(smtp.messages).toHaveLength(4);
});

it('refuses to move the clock without the dev hooks', async () => {
  const plain = await startSystemBff(api.url, { UPSTREAM_API_KEY: bff.key });
  try {
    const reply = await fetch(`${plain.url}/dev/clock`, { method: 'POST', body: '{}' });
    expect(reply.status).toBe(404);
    expect(((await reply.json()) as { success: boolean }).success).toBe(false);
  } finally {
    await plain.cleanup();
  }
});
