import { openSqlite } from '@review-desk/server/db/sqlite/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { request } from '../../../test/support/http.ts';
import { waitFor } from '../../../test/support/stack.ts';
import { addUser, startBff, type TestBff } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';

// A flood of list sends: what one user or one location may hold is bounded — lists in progress
// (429 bulk_lists_limit) and rows stored (413 bulk_rows_limit) — and every row a list sends is
// counted against its starter's fair share, like their own calls.

const SEND = '/api/v1/requests/send';
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

/** A list of `n` rows of long names (10,000 of them are 2.3 MB of JSON). */
const list = (tag: string, n: number) => ({
  channel: 'sms',
  // A daily cap of one: the lists stay in progress while the test floods.
  dailyCap: 1,
  rows: Array.from({ length: n }, (_, i) => ({
    customerName: `${tag} customer ${i} ${'x'.repeat(160)}`,
    customerPhone: `+1415555${String(i % 10_000).padStart(4, '0')}`,
  })),
});

const staff = (i: number) => ({
  email: `flood-${i}@example.com`,
  password: `flood-password-${i}`,
  role: 'staff',
});

describe('a flood of list sends', () => {
  let bff: TestBff;
  let owner: DashboardClient;

  beforeAll(async () => {
    bff = await startBff(upstream.url, {
      BULK_USER_LISTS_MAX: '2',
      BULK_LOCATION_LISTS_MAX: '3',
      BULK_USER_ROWS_MAX: '25000',
    });
    owner = await bff.owner();
  }, 60_000);

  afterAll(async () => {
    await bff?.stop();
  });

  it('keeps what one user and one location hold within their limits, refusing the rest with 429 and 413', async () => {
    const [first, second, third] = [
      await addUser(bff, owner, staff(1)),
      await addUser(bff, owner, staff(2)),
      await addUser(bff, owner, staff(3)),
    ];
    // One person posts eight lists of 10,000 rows at once, while the server keeps answering.
    const health = (async () => (await request(bff.url, '/healthz')).status)();
    const flood = await Promise.all(
      Array.from({ length: 8 }, (_, i) => first!.post('/bff/bulk-sends', list(`a${i}`, 10_000))),
    );
    expect(await health).toBe(200);
    const statuses = flood.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 202, 429, 429, 429, 429, 429, 429]);
    for (const refused of flood.filter((r) => r.status === 429)) {
      expect(refused.json).toMatchObject({ success: false, code: 'bulk_lists_limit' });
      expect(refused.json.error).toMatch(/in progress, the most one person may have at once/);
    }
    // Another person may still send at this location, until the location's own limit.
    expect((await second!.post('/bff/bulk-sends', list('b', 100))).status).toBe(202);
    const crowded = await third!.post('/bff/bulk-sends', list('c', 100));
    expect({ status: crowded.status, code: crowded.json.code }).toEqual({
      status: 429,
      code: 'bulk_lists_limit',
    });
    expect(crowded.json.error).toMatch(/This location already has 3 list sends in progress/);

    // Rows stored: a cancelled list is no longer in progress, but its rows are still kept.
    const mine = (await first!.get('/bff/bulk-sends')).json.data.jobs as { id: string; createdBy: string }[];
    const one = mine.find((j) => j.createdBy === staff(1).email)!;
    expect((await first!.post(`/bff/bulk-sends/${one.id}/cancel`, {})).status).toBe(200);
    const tooMany = await first!.post('/bff/bulk-sends', list('d', 10_000));
    expect({ status: tooMany.status, code: tooMany.json.code }).toEqual({
      status: 413,
      code: 'bulk_rows_limit',
    });
    expect(tooMany.json.error).toMatch(
      /Your stored lists hold 20,000 rows; with this list's 10,000 they would pass the 25,000/,
    );

    const db = openSqlite({ file: bff.databasePath });
    try {
      expect(await db.get('SELECT count(*) AS n FROM bulk_jobs')).toEqual({ n: 3 });
      expect(await db.get('SELECT count(*) AS n FROM bulk_rows')).toEqual({ n: 20_100 });
      // Finished lists are deleted by a job of their own (bulk/retention.ts).
      expect(await db.get(`SELECT state FROM jobs WHERE unique_key = 'bulk.retention'`)).toEqual({
        state: 'pending',
      });
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('a list send and its starter’s fair share', () => {
  let bff: TestBff;

  beforeAll(async () => {
    bff = await startBff(upstream.url, {
      USER_RATE_LIMIT_PER_MINUTE: '6',
      BULK_SEND_RATE_PER_MINUTE: '100000',
    });
  }, 60_000);

  afterAll(async () => {
    await bff?.stop();
  });

  it('counts each row as one of the starter’s calls: the list waits for the share, colleagues keep theirs', async () => {
    const owner = await bff.owner();
    const sender = await addUser(bff, owner, staff(9));
    const before = upstream.count(SEND);
    const started = await sender.post('/bff/bulk-sends', { ...list('share', 30), dailyCap: null });
    expect(started.status).toBe(202);
    // The share's burst (6) goes at once; then the list waits for the share to refill.
    await waitFor(() => upstream.count(SEND) - before >= 6, 20_000, 'six rows sent');
    const own = await sender.get('/api/v1/reviews');
    expect({ status: own.status, code: own.json.code }).toEqual({ status: 429, code: 'user_rate_limited' });
    expect((await owner.get('/api/v1/reviews')).status).toBe(200);
    const job = (await sender.get(`/bff/bulk-sends/${started.json.data.id}`)).json.data;
    expect(job.counts.sent + job.counts.warning).toBeLessThan(30);
    await sender.post(`/bff/bulk-sends/${started.json.data.id}/cancel`, {});
  }, 60_000);
});
