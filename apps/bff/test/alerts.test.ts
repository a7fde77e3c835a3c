import { ALERT_PATHS } from '@review-desk/shared/alerts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainDevJobs, moveDevClock } from '../../../test/support/dev-clock.ts';
import { type FakeUpstream, faults, json, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { request, type Session } from '../../../test/support/http.ts';
import { type SystemApi, type SystemBff, startSystemBff, waitFor } from '../../../test/support/stack.ts';
import { leaveReview as leaveReviewOn, nextPolls, startReviewedApi } from './support/alerts.ts';
import { MANAGER, STAFF } from './support/fixtures.ts';

const LATER_MANAGER = {
  email: 'later.manager@example.com',
  password: 'later-manager-password-1',
  role: 'manager',
};

// Low-rating alerts end to end: the real API as the upstream (through a relay that can turn
// into a 429 storm), the real BFF process polling it every second of its dev clock, which the
// test moves (running what falls due each step). The dev hooks are refused beside a mail server, so
// the emails are read from the BFF's dev outbox (alerts-replicas.test.ts sends them over SMTP).

type Mail = { to: string; subject: string; text: string; html: string };
let api: SystemApi;
let link: FakeUpstream;
let bff: SystemBff;
let key: string;
let owner: Session;
let manager: Session;
let staff: Session;
/** The BFF's dev clock as last moved. */
let clock = 0;
/** The clock's time at each throttled reviews read (the storm's answers). */
const throttled: number[] = [];

/** The emails the BFF handed over so far, oldest first (this process's; a restart empties it). */
async function mails(): Promise<Mail[]> {
  const reply = await request(bff.url, '/dev/outbox.json');
  return [...(reply.json.data.messages as Mail[])].reverse();
}

const reviewsCalls = () => link.count('/api/v1/reviews');

/** The BFF's clock a poll interval on, `n` times, each poll run to its end; it read the reviews each time. */
async function polls(n: number) {
  // A poll a change of preferences started may still be running: let it end before counting.
  await drainDevJobs(bff.url);
  const target = reviewsCalls() + n;
  clock = await nextPolls(bff, n);
  expect(reviewsCalls()).toBeGreaterThanOrEqual(target);
}

/** A customer leaves a review through the API's customer page (a link request, then the form). */
let customers = 0;
const contactOf = (n: number) => `customer.private.${n}@example.net`;
const leaveReview = (rating: number, comment: string, customerName: string) =>
  leaveReviewOn(
    api,
    key,
    { channel: 'email', customerName, customerEmail: contactOf(++customers) },
    { rating, comment },
  );

async function signIn(user: { email: string; password: string }): Promise<Session> {
  const session = bff.session();
  const reply = await session.login(user.email, user.password);
  expect(reply.status).toBe(200);
  return session;
}

const alertsOf = async (session: Session) => {
  const reply = await session.get(ALERT_PATHS.alerts);
  expect(reply.status).toBe(200);
  return reply.json.data as { unread: number; alerts: { id: number; rating: number; reviewId: string }[] };
};

beforeAll(async () => {
  ({ api, key } = await startReviewedApi());
  link = await startFakeUpstream();
  link.behave(faults.relay(api.url));
  bff = await startSystemBff(link.url, {
    UPSTREAM_API_KEY: key,
    ALERT_POLL_SECONDS: '1',
    BFF_DEV_HOOKS: '1',
    BFF_SMTP_FROM: 'Review Desk <alerts@example.com>',
  });
  owner = await bff.owner();
  for (const user of [MANAGER, STAFF]) expect((await owner.post('/bff/users', user)).status).toBe(201);
  manager = await signIn(MANAGER);
  staff = await signIn(STAFF);
}, 60_000);

afterAll(async () => {
  await bff?.cleanup();
  await link?.close();
  await api?.cleanup();
});

describe('low-rating alerts', () => {
  it('owners and managers start with alerts on by email, staff with them off; says whether email is configured, and validates a change', async () => {
    const reply = await owner.get(ALERT_PATHS.preferences);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toEqual({
      preferences: { enabled: true, threshold: 2, channel: 'email', timeZone: 'UTC', digest: false },
      emailConfigured: true,
      devOutbox: true,
      digestAllowed: true,
      saved: false,
    });
    expect((await manager.get(ALERT_PATHS.preferences)).json.data.preferences.enabled).toBe(true);
    expect((await staff.get(ALERT_PATHS.preferences)).json.data.preferences.enabled).toBe(false);
    expect((await owner.get(ALERT_PATHS.alerts)).json.data.enabled).toBe(true);
    expect((await staff.get(ALERT_PATHS.alerts)).json.data.enabled).toBe(false);
    const bad = await owner.request('PUT', ALERT_PATHS.preferences, {
      json: { enabled: true, threshold: 9, channel: 'sms', timeZone: 'Mars/Olympus', digest: false },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('validation_failed');
    expect(Object.keys(bad.json.fields ?? {})).toEqual(
      expect.arrayContaining(['threshold', 'channel', 'timeZone']),
    );
    // Staff read reviews but not analytics: alerts yes, the digest no.
    const staffPrefs = await staff.get(ALERT_PATHS.preferences);
    expect(staffPrefs.json.data.digestAllowed).toBe(false);
    const digest = await staff.request('PUT', ALERT_PATHS.preferences, {
      json: { enabled: true, threshold: 2, channel: 'in_app', timeZone: 'UTC', digest: true },
    });
    expect(digest.status).toBe(403);
    expect(digest.json.code).toBe('role_forbidden');
    expect((await staff.get(ALERT_PATHS.alerts)).json.data.activeSince).toBeNull();
    // Not signed in: the envelope, never a page.
    const anonymous = await bff.session().get(ALERT_PATHS.alerts);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.success).toBe(false);
  });

  it('never alerts on reviews that existed when alerts were turned on', async () => {
    // The owner and the manager turn the default off first: then nobody's alerts are on.
    for (const session of [owner, manager]) {
      const off = await session.request('PUT', ALERT_PATHS.preferences, {
        json: { enabled: false, threshold: 2, channel: 'email', timeZone: 'UTC', digest: false },
      });
      expect(off.json.data).toMatchObject({ preferences: { enabled: false }, saved: true });
    }
    await leaveReview(1, 'Already here before alerts', 'Early Customer');
    for (const [session, channel] of [
      [owner, 'email'],
      [manager, 'in_app'],
      [staff, 'in_app'],
    ] as const) {
      const saved = await session.request('PUT', ALERT_PATHS.preferences, {
        json: { enabled: true, threshold: 2, channel, timeZone: 'Europe/London', digest: false },
      });
      expect(saved.status).toBe(200);
      expect(saved.json.data.preferences.enabled).toBe(true);
    }
    await polls(3);
    const before = (await owner.get(ALERT_PATHS.alerts)).json.data;
    expect(before.alerts).toEqual([]);
    expect(Date.parse(before.activeSince)).toBeGreaterThan(0);
    expect((await alertsOf(manager)).alerts).toEqual([]);
    expect(await mails()).toHaveLength(0);
  });

  it('a new 1★ review raises one alert per subscriber and one email to the one who chose email; a 5★ none', async () => {
    await leaveReview(1, 'Cold coffee <b>and</b> a rude "welcome" & a long wait. '.repeat(10), 'Dana <Doe>');
    await leaveReview(5, 'Lovely place', 'Happy Customer');
    await polls(1);
    await waitFor(async () => (await mails()).length >= 1, 10_000, 'the alert email');
    await polls(2);
    const sent = await mails();
    expect(sent).toHaveLength(1);
    const mail = sent[0]!;
    expect(mail.to).toBe('owner@example.com');
    expect(mail.subject).toContain('1★');
    expect(mail.text).toContain('Author: Dana <Doe>');
    expect(mail.text).toContain('Cold coffee <b>and</b>');
    // The first 300 characters only, escaped in the HTML part.
    const excerpt = /\n\n([^\n]*…)\n/.exec(mail.text)?.[1] ?? '';
    expect(Array.from(excerpt)).toHaveLength(301);
    expect(mail.html).toContain('Cold coffee &lt;b&gt;and&lt;/b&gt; a rude &quot;welcome&quot; &amp;');
    expect(mail.html).not.toContain('<b>and</b>');
    expect(mail.html).toContain('Dana &lt;Doe&gt;');
    // A link to the review in the dashboard; never the key, never the customer's contact.
    const ownerAlerts = await alertsOf(owner);
    expect(ownerAlerts.unread).toBe(1);
    expect(ownerAlerts.alerts.map((a) => a.rating)).toEqual([1]);
    const reviewId = ownerAlerts.alerts[0]!.reviewId;
    expect(mail.text).toContain(`${bff.url}/l/main/reviews?review=${encodeURIComponent(reviewId)}`);
    for (const secret of [key, 'customer.private.']) {
      expect(JSON.stringify(mail)).not.toContain(secret);
      expect(JSON.stringify(ownerAlerts)).not.toContain(secret);
    }
    const managerAlerts = await alertsOf(manager);
    expect(managerAlerts.alerts.map((a) => a.reviewId)).toEqual([reviewId]);
    expect((await alertsOf(staff)).alerts.map((a) => a.reviewId)).toEqual([reviewId]);
  });

  it('a restart raises nothing again', async () => {
    await bff.restart();
    // A new process's clock starts at the real time: take it back to where the polls left it.
    clock = await moveDevClock(bff.url, { set: clock });
    // The same users, on the BFF's new address.
    owner = await bff.owner();
    manager = await signIn(MANAGER);
    staff = await signIn(STAFF);
    // Three polls by the new process. A poll the old one had claimed when it stopped is taken over
    // once its lease ends on the moved clock, so step until the reads happened (at most a minute).
    const target = reviewsCalls() + 3;
    for (let i = 0; i < 60 && reviewsCalls() < target; i++) clock = await nextPolls(bff, 1);
    expect(reviewsCalls()).toBeGreaterThanOrEqual(target);
    // The new process emailed nothing (its outbox starts empty), and the bell holds the one alert.
    expect(await mails()).toHaveLength(0);
    expect((await alertsOf(owner)).alerts).toHaveLength(1);
  });

  it('a 429 storm delays the alert, with growing waits, and never duplicates it', async () => {
    link.behaveOn('/api/v1/reviews', (_req, res) => {
      throttled.push(clock);
      json(
        res,
        429,
        { success: false, error: 'Rate limit exceeded', code: 'rate_limited' },
        { 'retry-after': '1' },
      );
    });
    /** The clock on by steps of 250 ms, what falls due run at each, until `done` (at most a minute). */
    const stepUntil = async (done: () => boolean | Promise<boolean>) => {
      for (let i = 0; i < 240 && !(await done()); i++) {
        clock = await moveDevClock(bff.url, { advanceMs: 250 });
        await drainDevJobs(bff.url);
      }
      expect(await done()).toBe(true);
    };
    await stepUntil(() => throttled.length >= 1);
    await leaveReview(2, 'Slow service during the storm', 'Storm Customer');
    await stepUntil(() => throttled.length >= 3);
    expect(await mails()).toHaveLength(0);
    // Backing off: each wait at least as long as the last, the third clearly longer than the interval.
    const gaps = throttled.slice(1).map((at, i) => at - throttled[i]!);
    expect(gaps[1]!).toBeGreaterThanOrEqual(gaps[0]! - 250);
    expect(gaps[1]!).toBeGreaterThan(2_500);
    link.behaveOn('/api/v1/reviews', null);
    await stepUntil(async () => (await mails()).length >= 1);
    await polls(2);
    const after = await mails();
    expect(after).toHaveLength(1);
    expect(after[0]!.subject).toContain('2★');
    const ownerAlerts = await alertsOf(owner);
    expect(ownerAlerts.alerts.map((a) => a.rating)).toEqual([2, 1]);
    expect(ownerAlerts.unread).toBe(2);
  }, 60_000);

  it('marks only the user’s own alerts read', async () => {
    const mine = await alertsOf(owner);
    const others = await manager.post(ALERT_PATHS.read, { ids: mine.alerts.map((a) => a.id) });
    expect(others.status).toBe(200);
    expect(others.json.data.marked).toBe(0);
    expect((await alertsOf(owner)).unread).toBe(2);
    const one = await owner.post(ALERT_PATHS.read, { ids: [mine.alerts[0]!.id] });
    expect(one.json.data.marked).toBe(1);
    expect((await alertsOf(owner)).unread).toBe(1);
    const all = await owner.post(ALERT_PATHS.read, { all: true });
    expect(all.json.data.marked).toBe(1);
    expect((await alertsOf(owner)).unread).toBe(0);
    const bad = await owner.post(ALERT_PATHS.read, { ids: [] });
    expect(bad.status).toBe(400);
  });

  it('a manager added later, who never chose, is alerted of a new low rating by default, by email and in the bell', async () => {
    expect((await owner.post('/bff/users', LATER_MANAGER)).status).toBe(201);
    const later = await signIn(LATER_MANAGER);
    expect((await later.get(ALERT_PATHS.preferences)).json.data).toMatchObject({
      preferences: { enabled: true, channel: 'email' },
      saved: false,
    });
    // Their account existed before the next poll started: from then on, a new review counts.
    await polls(2);
    const emailsBefore = (await mails()).length;
    await leaveReview(1, 'Nobody greeted us', 'Late Customer');
    await waitFor(async () => (await mails()).length >= emailsBefore + 2, 30_000, 'the two alert emails');
    expect(
      (await mails())
        .slice(emailsBefore)
        .map((m) => m.to)
        .sort(),
    ).toEqual([LATER_MANAGER.email, 'owner@example.com']);
    const alerts = await alertsOf(later);
    expect(alerts.unread).toBe(1);
    expect(alerts.alerts.map((a) => a.rating)).toEqual([1]);
  });
});
