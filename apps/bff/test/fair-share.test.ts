import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { ERROR_CODES } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { newApiKey } from '../../../test/support/stack.ts';
import { startBff, type TestBff } from './support/bff.ts';
import { DashboardClient } from './support/client.ts';

// One signed-in user cannot use up the shared API key's rate limit: each has a share of their own
// (USER_RATE_LIMIT_PER_MINUTE), counted before anything goes upstream.

// Small, so a slot comes back only after 20 s: a slow machine cannot free one during the test.
const SHARE = 3;
const SEND = '/api/v1/requests/send';
const COLLEAGUE = { email: 'colleague@example.com', password: 'colleague-password-1' };

let upstream: FakeUpstream;
let bff: TestBff;
let owner: DashboardClient;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  bff = await startBff(upstream.url, { USER_RATE_LIMIT_PER_MINUTE: String(SHARE) });
  owner = await bff.owner();
  const created = await owner.post('/bff/users', { ...COLLEAGUE, role: 'staff' });
  if (created.status !== 201) throw new Error(`could not add a user: ${created.text}`);
});

afterAll(async () => {
  await bff?.stop();
  await upstream?.close();
});

describe('each user’s fair share of the key’s rate limit', () => {
  it('refuses one user over the share with 429 before anything goes upstream, while another still sends', async () => {
    const sms = (i: number) => ({
      channel: 'sms',
      customerPhone: `+1415555${2100 + i}`,
      customerName: `C ${i}`,
    });
    // A runaway tab: reads and sends at once, twice the share.
    const replies = await Promise.all(
      Array.from({ length: SHARE * 2 }, (_, i) =>
        i % 2 === 0 ? owner.send(sms(i)) : owner.get('/api/v1/reviews'),
      ),
    );
    const passed = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 429);
    expect(passed).toHaveLength(SHARE);
    expect(refused).toHaveLength(SHARE);
    expect(upstream.calls).toHaveLength(SHARE);
    for (const reply of refused) {
      expect(reply.json).toMatchObject({ success: false, code: 'user_rate_limited' });
      expect(reply.json.error).toMatch(/your share of the service’s limit.*Try again in \d+ seconds?\./);
      const wait = Number(reply.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(Math.ceil(60 / SHARE));
    }
    expect(ERROR_CODES.user_rate_limited.status).toBe(429);
    const ownerSends = upstream.count(SEND);

    // A colleague with the same key is not locked out.
    const colleague = bff.client();
    expect((await colleague.login(COLLEAGUE.email, COLLEAGUE.password)).status).toBe(200);
    const theirs = await colleague.send(sms(99));
    expect(theirs.status).toBe(200);
    expect(upstream.count(SEND)).toBe(ownerSends + 1);
    // The refused sends left nothing in the history: they never went anywhere.
    const history = (await colleague.get('/bff/sends?limit=100')).json.data;
    expect(history.total).toBe(ownerSends + 1);
    // The owner is still over the share (signing in again does not reset it).
    expect((await owner.get('/api/v1/reviews')).status).toBe(429);
  });
});

describe('the share across replicas', () => {
  let database: { url: string; drop(): Promise<void> };
  let replicas: TestBff[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const env = {
      BFF_DATABASE_URL: database.url,
      USER_RATE_LIMIT_PER_MINUTE: '3',
      BFF_DATABASE_POOL_SIZE: '2',
    };
    const key = newApiKey();
    replicas = await Promise.all([
      startBff(upstream.url, env, { key }),
      startBff(upstream.url, env, { key }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await database?.drop();
  });

  it('counts one user’s calls on two BFF replicas of one database together', async () => {
    const [a, b] = replicas as [TestBff, TestBff];
    const onA = await a.owner();
    const onB = new DashboardClient(b.url);
    onB.cookie = onA.cookie;
    const before = upstream.calls.length;
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? onA : onB).get('/api/v1/reviews')),
    );
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(3);
    expect(statuses.filter((r) => r.status === 429)).toHaveLength(3);
    expect(upstream.calls.length - before).toBe(3);
  }, 60_000);
});
