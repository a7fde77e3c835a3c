import { FakeClock } from '@review-desk/server/clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGoogle, startFakeGoogle } from '../../../test/support/fake-google/server.ts';
import { rollupDrift } from '../src/analytics/recount.ts';
import { ENGINES, expectFailure, getJson, queryAll, useTestApi, writeJson } from './helpers.ts';
import {
  ACCOUNT,
  connect,
  googleOverrides,
  readConnection,
  runSync,
  SYNC_MS,
  syncJob,
} from './support/google.ts';

// The Google job against the stand-in, on a clock the test moves and a job runner it drains:
// connecting (the token tried at once, never shown again), a first sync of every page, an
// incremental one that reads one page, replies written, edited and deleted on Google's side, the
// access token renewed before it expires (and once more after a 401), 429/5xx backing off, and a
// revoked connection waiting for its owner.

const START = Date.parse('2030-05-06T09:00:00Z');
const clock = new FakeClock(START);
const fake: FakeGoogle = await startFakeGoogle({ now: () => clock.now() });
afterAll(() => fake.close());

describe.each(ENGINES)('%s', (engine) => {
  const api = useTestApi(googleOverrides(fake), { engine, clock });
  const location = `${engine === 'sqlite' ? 1 : 2}0000000000000000001`;
  let key: string;
  let businessId: number;
  let refreshToken: string;

  const googleReviews = async () =>
    queryAll<{ rating: number; status: string; response_text: string | null; author_name: string | null }>(
      api.ctx.store,
      "SELECT rating, status, response_text, author_name FROM reviews WHERE business_id = $1 AND platform = 'google' ORDER BY review_at, id",
      businessId,
    );

  beforeAll(async () => {
    businessId = (await api.business('bakery', 'Bakery Lund', null)).id;
    key = await api.key('bakery');
    fake.reviewsOf(ACCOUNT, location);
    fake.addReviews(
      ACCOUNT,
      location,
      Array.from({ length: 120 }, (_, i) => ({
        rating: ((i % 5) + 1) as 1 | 2 | 3 | 4 | 5,
        comment: i % 7 === 0 ? null : `Review ${i}`,
        displayName: i === 3 ? null : `Guest ${i}`,
        createTime: START - (200 - i) * 3_600_000,
        ...(i % 4 === 0 ? { reply: `Thanks, guest ${i}` } : {}),
      })),
    );
  });

  it('refuses a refresh token Google refuses, with Google’s words, and stores nothing', async () => {
    const refused = await writeJson(api, 'PUT', '/api/v1/integrations/google', key, {
      accountId: ACCOUNT,
      locationId: location,
      refreshToken: '1//revoked-or-never-issued',
    });
    expectFailure(refused, 'validation_failed');
    expect(refused.body.fields.refreshToken).toMatch(/invalid_grant: Token has been expired or revoked/);
    expect(await readConnection(api, key)).toBeNull();
  });

  it('first sync: every page, stars mapped, replies kept, anonymous authors nameless, synced apart in analytics', async () => {
    const listsBefore = fake.count('list');
    refreshToken = await connect(api, fake, key, location);
    const connected = await readConnection(api, key);
    expect(connected).toMatchObject({
      accountId: ACCOUNT,
      locationId: location,
      state: 'connected',
      lastSyncAt: null,
    });
    // The token is sealed at rest and never answered.
    const raw = JSON.stringify(await queryAll(api.ctx.store, 'SELECT * FROM google_connections'));
    expect(raw).not.toContain(refreshToken);
    expect(JSON.stringify(connected)).not.toContain(refreshToken);

    await runSync(api, clock, businessId);
    expect(fake.count('list') - listsBefore).toBe(3); // 50 + 50 + 20
    const rows = await googleReviews();
    expect(rows).toHaveLength(120);
    expect(rows.map((r) => r.rating).slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0]).toMatchObject({ status: 'responded', response_text: 'Thanks, guest 0' });
    expect(rows[1]).toMatchObject({ status: 'pending', response_text: null });
    expect(rows[3]!.author_name).toBeNull();
    const analytics = (await getJson(api, '/api/v1/analytics?days=30', key)).body.data;
    expect(analytics.synced.byPlatform.google).toBe(120);
    expect(analytics.requests.sent).toBe(0);
    expect((await readConnection(api, key))?.lastSyncAt).not.toBeNull();
    expect(await rollupDrift(api.ctx.store.db)).toEqual([]);
  });

  it('incremental sync reads one page: new reviews, a reply edited and one deleted on Google’s side', async () => {
    const [first, second] = fake.reviewsOf(ACCOUNT, location);
    fake.addReviews(ACCOUNT, location, [{ rating: 1, comment: 'Burnt bread', createTime: clock.now() }]);
    fake.setReply(first!, 'Edited on Google');
    fake.setReply(second!, 'Answered on Google');
    fake.setReply(fake.reviewsOf(ACCOUNT, location)[4]!, null);
    const lists = fake.count('list');
    clock.advance(SYNC_MS);
    await runSync(api, clock, businessId);
    expect(fake.count('list') - lists).toBe(1);
    const rows = await googleReviews();
    expect(rows).toHaveLength(121);
    expect(rows[0]).toMatchObject({ status: 'responded', response_text: 'Edited on Google' });
    expect(rows[1]).toMatchObject({ status: 'responded', response_text: 'Answered on Google' });
    expect(rows[4]).toMatchObject({ status: 'pending', response_text: null });
    expect(rows.at(-1)).toMatchObject({ rating: 1, status: 'pending' });
    expect(await rollupDrift(api.ctx.store.db)).toEqual([]);
  });

  it('renews the access token before it expires, and once more when Google says 401', async () => {
    const unauthorised = () => fake.calls.filter((c) => c.kind === 'list' && c.status === 401).length;
    const refused = unauthorised();
    // Two minutes before the stored token runs out (Google would still take it): a new one first.
    const row = (await api.ctx.google.connections.get(businessId))!;
    clock.set(row.access_expires_at! - 120_000);
    let tokens = fake.count('token');
    await runSync(api, clock, businessId);
    expect(fake.count('token') - tokens).toBe(1);
    expect(unauthorised()).toBe(refused);
    // Google drops the token early: a 401, a fresh token, the page read again.
    fake.expireAccessTokens();
    tokens = fake.count('token');
    await runSync(api, clock, businessId);
    expect(fake.count('token') - tokens).toBe(1);
    expect(unauthorised()).toBe(refused + 1);
    expect((await readConnection(api, key))?.state).toBe('connected');
  });

  it('backs off after 429 and 5xx (doubling, never before Retry-After), and comes back to the interval', async () => {
    fake.fail('list', { kind: 'status', status: 429, retryAfter: '7200' });
    await runSync(api, clock, businessId);
    const after429 = await syncJob(api, businessId);
    // Retry-After (two hours), capped at the hour. The test's clock runs on between the two reads.
    expect(after429!.runAt - clock.now()).toBeGreaterThan(3_590_000);
    expect(after429!.runAt - clock.now()).toBeLessThanOrEqual(3_600_000);
    expect(await readConnection(api, key)).toMatchObject({
      state: 'connected',
      lastError: expect.stringMatching(/Quota/),
    });
    fake.fail('list', { kind: 'status', status: 503 });
    await runSync(api, clock, businessId);
    const after503 = (await syncJob(api, businessId))!.runAt - clock.now(); // 900 s × 2² = 1 h
    expect(after503).toBeGreaterThan(3_590_000);
    expect(after503).toBeLessThanOrEqual(3_600_000);
    await runSync(api, clock, businessId);
    const afterSuccess = (await syncJob(api, businessId))!.runAt - clock.now();
    expect(afterSuccess).toBeGreaterThan(SYNC_MS - 10_000);
    expect(afterSuccess).toBeLessThanOrEqual(SYNC_MS);
    expect((await readConnection(api, key))?.lastError).toBeNull();
  });

  it('a revoked connection needs its owner: nothing more is called until it is connected again', async () => {
    fake.revoke(refreshToken);
    fake.expireAccessTokens();
    await runSync(api, clock, businessId);
    const connection = await readConnection(api, key);
    expect(connection).toMatchObject({ state: 'needs_owner', nextSyncAt: null });
    expect(connection?.problem).toMatch(/invalid_grant/);
    expect((await syncJob(api, businessId))!.state).toBe('done');
    const calls = fake.calls.length;
    clock.advance(10 * SYNC_MS);
    await api.ctx.jobs.drain();
    expect(fake.calls.length).toBe(calls);
    // Connected again (a new token for the same location): the sync goes on from where it was.
    const lists = fake.count('list');
    refreshToken = await connect(api, fake, key, location);
    await runSync(api, clock, businessId);
    expect(fake.count('list') - lists).toBe(1);
    expect((await readConnection(api, key))?.state).toBe('connected');
  });

  it('403 on the location needs the owner too; disconnecting removes the connection and its token', async () => {
    fake.fail('list', { kind: 'status', status: 403 });
    clock.advance(SYNC_MS);
    await runSync(api, clock, businessId);
    expect((await readConnection(api, key))?.state).toBe('needs_owner');
    const gone = await writeJson(api, 'DELETE', '/api/v1/integrations/google', key, undefined);
    expect(gone.status).toBe(200);
    expect(gone.body.data.connection).toBeNull();
    expect(await queryAll(api.ctx.store, 'SELECT * FROM google_connections')).toEqual([]);
  });
});
