import { randomUUID } from 'node:crypto';
import {
  googleConnectionSchema,
  meSchema,
  reviewActionsSchema,
  reviewDetailSchema,
  reviewListSchema,
  savedRepliesSchema,
} from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeGoogle,
  googleSettings,
  startFakeGoogle,
} from '../../../test/support/fake-google/server.ts';
import { waitFor } from '../../../test/support/stack.ts';
import { addUser, startBff, type TestBff } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';
import { type DemoApi, startDemoApi } from './support/demo-api.ts';

// Answering reviews through the dashboard's server, in front of the real API (processes) and the
// Google stand-in: an owner connects Google from Settings (the token crosses once and never comes
// back); a manager answers a 1★ Google review and the stand-in holds the reply; staff read and
// cannot answer unless STAFF_MAY_REPLY says so; the journal says who answered what; saved replies
// are the owners' to write.

const ACCOUNT = '112233445566778899';
const LOCATION = '9988776655';
let google: FakeGoogle;
let api: DemoApi;
let bff: TestBff;
let staffBff: TestBff;
let owner: DashboardClient;
let manager: DashboardClient;
let staff: DashboardClient;

const idem = () => ({ 'idempotency-key': randomUUID() });

beforeAll(async () => {
  google = await startFakeGoogle();
  google.addReviews(ACCOUNT, LOCATION, [
    { rating: 1, comment: 'Rude staff, cold food.', displayName: 'Pat Stand-in' },
    { rating: 5, comment: 'Lovely.', displayName: 'Kim Stand-in' },
  ]);
  api = await startDemoApi('bff-replies-', { ...googleSettings(google), SECRETS_KEY: 'a'.repeat(64) });
  [bff, staffBff] = await Promise.all([
    startBff(api.url, { ...api.keyFromFile, UPSTREAM_TIMEOUT_MS: '5000' }),
    startBff(api.url, { ...api.keyFromFile, UPSTREAM_TIMEOUT_MS: '5000', STAFF_MAY_REPLY: 'true' }),
  ]);
  owner = await bff.owner();
  manager = await addUser(bff, owner, {
    email: 'manager@example.com',
    password: 'manager-password-1',
    role: 'manager',
  });
  staff = await addUser(bff, owner, {
    email: 'staff@example.com',
    password: 'staff-password-12',
    role: 'staff',
  });
  // Three processes and the demo data: a busy machine takes its time.
}, 180_000);
afterAll(async () => {
  await Promise.all([bff?.stop(), staffBff?.stop()]);
  await api?.stop();
  await google?.close();
});

/** The demo business's review left by the stand-in's reviewer `author`, once synced. */
async function syncedReview(author: string): Promise<string> {
  let id: string | undefined;
  await waitFor(
    async () => {
      const page = reviewListSchema.parse((await owner.get('/api/v1/reviews?limit=20')).json.data);
      id = page.reviews.find((r) => r.author_name === author)?.id as string | undefined;
      return id !== undefined;
    },
    30_000,
    'the Google sync',
  );
  return id as string;
}

describe('answering through the dashboard', () => {
  it('an owner connects Google from Settings: the token goes to the service once and never comes back', async () => {
    const refreshToken = google.issueRefreshToken([`${ACCOUNT}/${LOCATION}`]);
    expect(
      (await manager.put('/bff/settings/google', { accountId: ACCOUNT, locationId: LOCATION, refreshToken }))
        .status,
    ).toBe(403);
    const put = await owner.put('/bff/settings/google', {
      accountId: ACCOUNT,
      locationId: LOCATION,
      refreshToken,
    });
    expect(put.status).toBe(200);
    expect(put.text).not.toContain(refreshToken);
    const read = await owner.get('/bff/settings/google');
    expect(googleConnectionSchema.parse(read.json.data).connection).toMatchObject({
      accountId: ACCOUNT,
      state: 'connected',
    });
    expect(read.text).not.toContain(refreshToken);
  });

  it('a manager answers a 1★ Google review: posted, the stand-in holds it, the journal names the manager', async () => {
    const id = await syncedReview('Pat Stand-in');
    const answer = await manager.post(`/api/v1/reviews/${id}/reply`, { text: 'We are sorry, Pat.' }, idem());
    expect(answer.status).toBe(200);
    expect(reviewDetailSchema.parse(answer.json.data)).toMatchObject({
      response_status: 'responded',
      responded_by: 'manager@example.com',
      reply: { to: 'google', state: 'posted' },
    });
    expect(google.reviewsOf(ACCOUNT, LOCATION)[0]?.reply?.comment).toBe('We are sorry, Pat.');
    const journal = reviewActionsSchema.parse(
      (await staff.get(`/bff/review-actions?review=${id}`)).json.data,
    );
    expect(journal.actions[0]).toMatchObject({
      by: 'manager@example.com',
      action: 'reply',
      text: 'We are sorry, Pat.',
      outcome: 'done',
      replyState: 'posted',
    });
  });

  it('staff read a review but cannot answer it (nothing goes upstream); a deployment may let them', async () => {
    const id = await syncedReview('Kim Stand-in');
    expect((await staff.get(`/api/v1/reviews/${id}`)).status).toBe(200);
    const puts = google.count('reply');
    const refused = await staff.post(`/api/v1/reviews/${id}/reply`, { text: 'Thanks!' }, idem());
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('role_forbidden');
    expect(
      (await staff.request('PATCH', `/api/v1/reviews/${id}`, { body: { status: 'ignored' } })).status,
    ).toBe(403);
    expect(google.count('reply')).toBe(puts);
    expect(meSchema.parse((await staff.get('/auth/me')).json.data).permissions).not.toContain(
      'reviews:reply',
    );

    const staffThere = await addUser(staffBff, await staffBff.owner(), {
      email: 'staff2@example.com',
      password: 'staff-password-12',
      role: 'staff',
    });
    expect(meSchema.parse((await staffThere.get('/auth/me')).json.data).permissions).toContain(
      'reviews:reply',
    );
    const ignored = await staffThere.request('PATCH', `/api/v1/reviews/${id}`, {
      body: { status: 'ignored' },
    });
    expect(ignored.status).toBe(200);
    expect(ignored.json.data.response_status).toBe('ignored');
  });

  it('names who answered itself, needs an Idempotency-Key, and checks the body before anything goes upstream', async () => {
    const id = await syncedReview('Kim Stand-in');
    const puts = google.count('reply');
    const named = await manager.post(
      `/api/v1/reviews/${id}/reply`,
      { text: 'Hi', respondedBy: 'someone-else' },
      idem(),
    );
    expect(named.status).toBe(400);
    expect(named.json.fields.respondedBy).toMatch(/Unknown field/);
    expect((await manager.post(`/api/v1/reviews/${id}/reply`, { text: 'Hi' })).json.code).toBe(
      'idempotency_key_missing',
    );
    expect(
      (await manager.post(`/api/v1/reviews/${id}/reply`, { text: 'x'.repeat(4097) }, idem())).status,
    ).toBe(400);
    expect((await manager.post('/api/v1/reviews/rev_x/reply', { text: 'Hi' }, idem())).json.code).toBe(
      'review_not_found',
    );
    const put = await manager.request('PUT', `/api/v1/reviews/${id}/reply`, { body: { text: 'Hi' } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('POST, DELETE');
    expect(google.count('reply')).toBe(puts);
  });

  it('saved replies: built in until an owner saves some; managers use them, only owners write them', async () => {
    expect(savedRepliesSchema.parse((await manager.get('/bff/saved-replies')).json.data).builtIn).toBe(true);
    const mine = [
      { title: 'Sorry', text: 'Sorry, {first_name}. — {business_name}', minRating: 1, maxRating: 2 },
    ];
    expect((await manager.put('/bff/saved-replies', { replies: mine })).status).toBe(403);
    const bad = await owner.put('/bff/saved-replies', {
      replies: [{ ...mine[0], text: 'Hi {customer_name}' }],
    });
    expect(bad.status).toBe(400);
    const flood = await owner.put('/bff/saved-replies', {
      replies: Array.from({ length: 21 }, () => mine[0]),
    });
    expect(flood.status).toBe(400);
    expect((await owner.put('/bff/saved-replies', { replies: mine })).status).toBe(200);
    expect(savedRepliesSchema.parse((await manager.get('/bff/saved-replies')).json.data)).toEqual({
      replies: mine,
      builtIn: false,
    });
  });

  it('the Locations overview gains the response rate and the median time to first reply', async () => {
    const overview = await owner.get('/bff/overview?days=30');
    expect(overview.status).toBe(200);
    const [row] = overview.json.data.rows;
    expect(row.ok).toBe(true);
    expect(row.responseRate).toBeGreaterThan(0);
    expect(row.medianFirstReplySeconds).not.toBeUndefined();
  });
});
