import { openDatabase } from '@review-desk/server/db/open';
import type { Database } from '@review-desk/server/db/types';
import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { jsonOr } from '@review-desk/server/test-support/json';
import { OUTBOX_FAULTS } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainDevJobs } from '../../../test/support/dev-clock.ts';
import { type FakeTwilio, startFakeTwilio } from '../../../test/support/fake-twilio.ts';
import { type RunningApp, runCli, startApp } from '../../../test/support/processes.ts';
import { type RoundRobin, startRoundRobin } from '../../../test/support/round-robin.ts';
import { textingApiEnv } from '../../../test/support/twilio-stack.ts';
import { rollupDrift } from '../src/analytics/recount.ts';

// Two API processes on one PostgreSQL database (DATABASE_URL) behind a round-robin balancer: the
// per-key limit, the per-business counters and daily roll-ups, every acknowledged send and each
// held request are the database's, so they hold across replicas as they do in one process.

const SCOPES = 'review_requests:write,reviews:read,analytics:read';

type Pair = {
  a: RunningApp;
  b: RunningApp;
  balancer: RoundRobin;
  db: Database;
  key(extra?: string[]): Promise<string>;
  stop(): Promise<void>;
};

/** Two replicas started together (both migrate; one does, under the lock), one business. */
async function startPair(env: Record<string, string>): Promise<Pair> {
  const database = await createPostgresDatabase();
  const fullEnv = {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '6',
    LOG_LEVEL: 'warn',
    PUBLIC_ORIGIN,
    ...env,
  };
  const [a, b] = await Promise.all([startApp('api', { env: fullEnv }), startApp('api', { env: fullEnv })]);
  const cli = (args: string[]) => runCli('api', args, { env: { DATABASE_URL: database.url } });
  await cli(['business', 'create', 'harbour', 'Harbour', 'Street', 'Coffee']);
  const balancer = await startRoundRobin([a.url, b.url]);
  const db = await openDatabase({ url: database.url, poolSize: 2 });
  return {
    a,
    b,
    balancer,
    db,
    async key(extra = []) {
      const out = await cli(['key', 'create', '--business', 'harbour', '--scopes', SCOPES, ...extra]);
      return out.trim().split('\n').at(-1)!.trim();
    },
    async stop() {
      await balancer.close();
      await Promise.all([a.stop(), b.stop()]);
      await db.close();
      await database.drop();
    },
  };
}

/** The address callers reach the replicas at, as behind a real balancer (the POST Origin rule). */
const PUBLIC_ORIGIN = 'https://reviews.example.com';

/** A send; a replica that is gone answers through the balancer with 502 (or the socket fails: 0). */
async function send(base: string, key: string, body: Record<string, string>) {
  let response: Response;
  try {
    response = await fetch(`${base}/api/v1/requests/send`, {
      method: 'POST',
      headers: { 'x-api-key': key, origin: PUBLIC_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { status: 0, code: undefined, requestId: undefined, state: undefined };
  }
  // {} for the balancer's own answer for a replica it cannot reach.
  const json = jsonOr(await response.text(), {}) as {
    code?: string;
    data?: { requestId: string; status: string };
  };
  return {
    status: response.status,
    code: json.code,
    requestId: json.data?.requestId,
    state: json.data?.status,
  };
}

/**
 * The i-th customer: channels in turn; for one send in five of each channel a contact whose
 * delivery fails (a `both` then fails on both legs, a link sends nothing and never fails).
 */
function customer(i: number): Record<string, string> {
  const fails = Math.floor(i / 4) % 5 === 1;
  const phone = fails
    ? `+1415${String(200 + (i % 700))}${OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith}`
    : `+1415${200_000 + i}1`;
  const email = `c${i}@${fails ? OUTBOX_FAULTS.emailBouncesAtDomain : 'example.com'}`;
  const channel = (['sms', 'email', 'both', 'link'] as const)[i % 4] ?? 'sms';
  const contact: Record<string, string> = {};
  if (channel !== 'email') contact.customerPhone = phone;
  if (channel === 'email' || channel === 'both') contact.customerEmail = email;
  return { customerName: `Customer ${i}`, channel, ...contact };
}

/** Runs `count` calls of `work`, `concurrency` at a time. */
async function pool<T>(count: number, concurrency: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

describe('two API replicas on one PostgreSQL, outbox delivery', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ DEV_OUTBOX: '1', FREQUENCY_CAP_DAYS: '0', MONTHLY_SEND_ALLOWANCE: '1000000' });
  }, 90_000);
  afterAll(async () => {
    await pair?.stop();
  });

  it("a key's 120 calls a minute hold across the two replicas", async () => {
    const key = await pair.key();
    const servedBefore = [...pair.balancer.served];
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 240 }, async () => {
        const response = await fetch(`${pair.balancer.url}/api/v1/reviews?limit=1`, {
          headers: { 'x-api-key': key },
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const elapsed = performance.now() - started;
    const ok = statuses.filter((s) => s === 200).length;
    expect(ok + statuses.filter((s) => s === 429).length).toBe(240);
    // Each replica took its half; counted apart, the key would have had 120 on each.
    expect(pair.balancer.served.map((n, i) => n - (servedBefore[i] ?? 0))).toEqual([120, 120]);
    // 120 at once, then one more every 500 ms of the burst (the limit refills continuously).
    expect(ok).toBeGreaterThanOrEqual(119);
    expect(ok).toBeLessThanOrEqual(121 + Math.floor(elapsed / 500));
  });

  it('10,000 concurrent sends across the two leave every counter and roll-up equal to a recount', async () => {
    const key = await pair.key(['--rate-limit', '1000000']);
    const replies = await pool(10_000, 64, (i) => send(pair.balancer.url, key, customer(i)));
    const sent = replies.filter((r) => r.status === 200);
    const failed = replies.filter((r) => r.status === 502 && r.code === 'delivery_failed');
    expect(sent.length + failed.length).toBe(10_000);
    expect(failed.length).toBe(1_500);

    const db = pair.db;
    const rows = await db.get<{ sent: number; failed: number; other: number }>(
      `SELECT count(*) FILTER (WHERE status = 'sent') AS sent, count(*) FILTER (WHERE status = 'failed') AS failed,
              count(*) FILTER (WHERE status NOT IN ('sent', 'failed')) AS other FROM requests`,
    );
    expect(rows).toEqual({ sent: sent.length, failed: failed.length, other: 0 });
    // The daily roll-ups and review counters equal a recount of the rows they summarise.
    expect(await rollupDrift(db)).toEqual([]);
    // The month's allowance use: one unit per request with a message that reached someone.
    const usage = await db.all(
      `SELECT to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM') AS month, count(*) AS n
         FROM requests WHERE channel <> 'link' AND status = 'sent' GROUP BY 1 ORDER BY 1`,
    );
    expect(await db.all('SELECT month, n FROM send_usage ORDER BY month')).toEqual(usage);
    // What the API's analytics report, read through the balancer, is the count of the rows.
    const analytics = await fetch(`${pair.balancer.url}/api/v1/analytics?days=365`, {
      headers: { 'x-api-key': key },
    });
    const report = ((await analytics.json()) as { data: { requests: Record<string, unknown> } }).data
      .requests;
    const byChannel = Object.fromEntries(
      (
        await db.all<{ channel: string; n: number }>(
          'SELECT channel, count(*) AS n FROM requests GROUP BY channel',
        )
      ).map((r) => [r.channel, r.n]),
    );
    expect(report).toMatchObject({ total: 10_000, sent: sent.length, failed: failed.length, byChannel });
  }, 600_000);

  it('a replica killed amid writes loses no acknowledged send; the other keeps serving', async () => {
    const key = await pair.key(['--rate-limit', '1000000']);
    const acknowledged: { requestId: string; at: number }[] = [];
    let killedAt = Number.POSITIVE_INFINITY;
    const killer = new Promise<void>((resolve) =>
      setTimeout(async () => {
        killedAt = performance.now();
        await pair.a.stop('SIGKILL');
        resolve();
      }, 1_500),
    );
    await pool(3_000, 32, async (i) => {
      const reply = await send(pair.balancer.url, key, customer(20_000 + i));
      if (reply.status === 200 && reply.requestId)
        acknowledged.push({ requestId: reply.requestId, at: performance.now() });
    });
    await killer;
    expect(acknowledged.filter((a) => a.at < killedAt).length).toBeGreaterThan(0);
    // The balancer still sent half to the dead replica; the survivor answered the other half.
    expect(acknowledged.filter((a) => a.at > killedAt).length).toBeGreaterThan(0);
    const after = await send(pair.b.url, key, customer(30_001));
    expect(after.status).toBe(200);
    const ids = acknowledged.map((a) => a.requestId);
    const stored = await pair.db.all<{ public_id: string; status: string }>(
      `SELECT public_id, status FROM requests WHERE public_id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
      ...ids,
    );
    expect(stored.length).toBe(ids.length);
    expect(stored.filter((r) => r.status !== 'sent')).toEqual([]);
  }, 120_000);
});

describe('two API replicas on one PostgreSQL, held requests', () => {
  const FROM = '+15005550006';
  let fake: FakeTwilio;
  let pair: Pair;
  beforeAll(async () => {
    fake = await startFakeTwilio({ receiptDelayMs: 5 });
    pair = await startPair(
      textingApiEnv(fake, FROM, { QUIET_HOURS: '08:00-21:00', BUSINESS_TIME_ZONE: 'UTC' }),
    );
  }, 90_000);
  afterAll(async () => {
    await pair?.stop();
    await fake?.close();
  });

  const setClock = async (url: string, iso: string) => {
    const response = await fetch(`${url}/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set: iso }),
    });
    expect(response.status).toBe(200);
  };

  it('each request held for sending hours is sent once, by one of the two', async () => {
    const key = await pair.key();
    await Promise.all([
      setClock(pair.a.url, '2030-01-15T23:00:00Z'),
      setClock(pair.b.url, '2030-01-15T23:00:00Z'),
    ]);
    const phones = Array.from({ length: 12 }, (_, i) => `+141555524${String(10 + i)}`);
    for (const phone of phones) {
      const held = await send(pair.balancer.url, key, { customerName: 'Ada', customerPhone: phone });
      expect(held).toMatchObject({ status: 200, state: 'scheduled' });
    }
    expect(phones.map((p) => fake.count(p))).toEqual(phones.map(() => 0));
    await Promise.all([
      setClock(pair.a.url, '2030-01-16T08:00:00Z'),
      setClock(pair.b.url, '2030-01-16T08:00:00Z'),
    ]);
    // Each process runs what is due, claiming against the other, until neither has anything left
    // running or due: a loser of a claim that (wrongly) sent would have sent by then.
    await Promise.all([drainDevJobs(pair.a.url), drainDevJobs(pair.b.url)]);
    await Promise.all([drainDevJobs(pair.a.url), drainDevJobs(pair.b.url)]);
    expect(phones.map((p) => fake.count(p))).toEqual(phones.map(() => 1));
    const states = await pair.db.all<{ status: string }>('SELECT status FROM requests');
    expect(states.map((s) => s.status)).toEqual(phones.map(() => 'sent'));
  }, 90_000);
});
