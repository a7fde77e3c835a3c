import { ALERT_PATHS } from '@review-desk/shared/alerts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainDevJobs, moveDevClock } from '../../../test/support/dev-clock.ts';
import { request } from '../../../test/support/http.ts';
import { type SystemApi, type SystemBff, startSystemBff, waitFor } from '../../../test/support/stack.ts';
import { digestSlots, formatAverage, formatRate } from '../src/alerts/digest.ts';
import { startReviewedApi } from './support/alerts.ts';
import { MANAGER } from './support/fixtures.ts';

// The weekly digest against the real API's demo data, on a clock the test moves through the BFF's
// dev hook: due Monday 08:00 in each user's time zone, sent once per user and week across
// restarts, with the figures the Analytics page shows for the same seven days. The dev hooks go
// with no mail server (refused beside BFF_SMTP_URL): the emails are read from the BFF's dev
// outbox, which the mailer hands them to as it would to SMTP.

const ZONE = 'America/New_York';

type Mail = { to: string; subject: string; text: string; html: string };
let api: SystemApi;
let bff: SystemBff;

beforeAll(async () => {
  const started = await startReviewedApi({ SEED_DEMO: '1' });
  api = started.api;
  bff = await startSystemBff(api.url, {
    UPSTREAM_API_KEY: started.key,
    BFF_DEV_HOOKS: '1',
  });
}, 90_000);

afterAll(async () => {
  await bff?.cleanup();
  await api?.cleanup();
});

/** The emails the BFF handed over so far, oldest first. */
async function mails(): Promise<Mail[]> {
  const reply = await request(bff.url, '/dev/outbox.json');
  return [...(reply.json.data.messages as Mail[])].reverse();
}
const mailsReach = (n: number) => waitFor(async () => (await mails()).length >= n, 10_000, `${n} emails`);

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
  expect(await mails()).toHaveLength(0);

  await setClock(slot.at + 30_000);
  await mailsReach(2);
  await settle();
  const sent = await mails();
  expect(sent).toHaveLength(2);
  expect(sent.map((m) => m.to).sort()).toEqual(['manager@example.com', 'owner@example.com']);
  const mail = sent.find((m) => m.to === 'owner@example.com')!;
  expect(mail.subject).toBe(`Your week in reviews (week of ${slot.week})`);

  // The Analytics page's read for the same seven days, through the BFF.
  const analytics = (await owner.get('/api/v1/analytics?days=7')).json.data;
  expect(analytics.requests.sent).toBeGreaterThan(0);
  expect(mail.text).toContain(`Requests sent: ${analytics.requests.sent}\n`);
  expect(mail.text).toContain(`Completion rate: ${formatRate(analytics.requests.completionRate)}\n`);
  expect(mail.text).toContain(`New reviews: ${analytics.reviews.total}\n`);
  expect(mail.text).toContain(`Average rating: ${formatAverage(analytics.reviews.avgRating)}`);
  expect(mail.text).toContain(`${bff.url}/analytics?days=7`);
  expect(JSON.stringify(mail)).not.toContain(bff.key);
});

it('never sends the same week twice, across a restart; the next week is sent', async () => {
  const slot = digestSlots(Date.now(), ZONE).at(-1)!;
  await bff.restart();
  // The fake clock starts again from the real time: move it past the slot once more.
  await setClock(slot.at + 60_000);
  await settle();
  // The outbox is the process's memory: the restarted BFF's starts empty, and stays so.
  expect(await mails()).toHaveLength(0);

  await setClock(slot.at + 7 * 86_400_000 + 60_000);
  await mailsReach(2);
  await settle();
  expect(await mails()).toHaveLength(2);
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
