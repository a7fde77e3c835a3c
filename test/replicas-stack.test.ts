import { OUTBOX_FAULTS } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigure } from './support/figures.ts';
import { Session } from './support/http.ts';
import { type ReplicaStack, startReplicaStack } from './support/replica-stack.ts';
import { untilRefused } from './support/stack.ts';

// The whole topology on PostgreSQL: round-robin → two BFFs on one database → round-robin → two
// APIs on another, the service delivering to its outbox. What holds in one process of each holds
// here: one send per intent wherever its halves land, a logout refused everywhere within a second,
// no acknowledged send lost to a SIGKILL of one replica of each tier, counters equal to a recount.

let stack: ReplicaStack;

beforeAll(async () => {
  stack = await startReplicaStack();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const ACKNOWLEDGED = new Set([200, 201]);

/** The same browser on another address: the session cookie copied. */
function sameSession(from: Session, base: string): Session {
  const session = new Session(base);
  session.cookie = from.cookie;
  return session;
}

/** A valid, distinct phone number for each `n`. */
const phone = (n: number) => `+1415${300_000 + n}1`;

/** The i-th customer of a burst: channels in turn; one in five of each channel fails delivery. */
function customer(prefix: string, i: number): Record<string, string> {
  const fails = Math.floor(i / 4) % 5 === 1;
  const channel = (['sms', 'email', 'both', 'link'] as const)[i % 4] ?? 'sms';
  const body: Record<string, string> = { customerName: `${prefix} ${i}`, channel };
  if (channel !== 'email')
    body.customerPhone = fails
      ? `+1415${200 + (i % 700)}${OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith}`
      : phone(i);
  if (channel === 'email' || channel === 'both')
    body.customerEmail = `c${i}@${fails ? OUTBOX_FAULTS.emailBouncesAtDomain : 'example.com'}`;
  return body;
}

/** Runs `count` calls of `work`, `concurrency` at a time. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** Every send in the BFFs' shared history (read through `session`): name → outcome. */
async function history(session: Session): Promise<Map<string, string>> {
  const outcomes = new Map<string, string>();
  for (let page = 1; ; page++) {
    const reply = await session.get(`/bff/sends?limit=100&page=${page}`);
    expect(reply.status).toBe(200);
    const sends = reply.json.data.sends as { customerName: string; outcome: string }[];
    for (const send of sends) outcomes.set(send.customerName, send.outcome);
    if (sends.length < 100) return outcomes;
  }
}

describe('two BFFs and two APIs on PostgreSQL behind round-robins', () => {
  it('200 double-submits, each pair split across the BFFs: 200 messages in the outbox, never 400', async () => {
    const onA = await stack.owner(stack.bffs[0].url);
    const onB = sameSession(onA, stack.bffs[1].url);
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const n = batch * 20 + j;
          const body = { customerName: `Pair ${n}`, customerPhone: phone(100_000 + n), channel: 'sms' };
          const key = crypto.randomUUID();
          const pair = await Promise.all([onA.send(body, key), onB.send(body, key)]);
          for (const reply of pair) statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          // One went out; the other is its replay or the in-flight refusal.
          const codes = pair.map(
            (reply) => `${reply.status}${ACKNOWLEDGED.has(reply.status) ? '' : ` ${reply.text}`}`,
          );
          const statusesOf = pair.map((reply) => reply.status);
          expect(
            statusesOf.filter((code) => ACKNOWLEDGED.has(code)).length,
            `pair ${n}: ${codes}`,
          ).toBeGreaterThan(0);
          expect(
            statusesOf.every((code) => ACKNOWLEDGED.has(code) || code === 409),
            `pair ${n}: ${codes}`,
          ).toBe(true);
        }),
      );
    }
    expect([...statuses.values()].reduce((x, y) => x + y, 0)).toBe(400);
    const answers = [...statuses].sort(([a], [b]) => a - b).map(([code, n]) => `${n}×${code}`);
    recordFigure({ area: 'replicas', what: 'split double-submits: answers', value: answers.join(' ') });
    // Counted at the real upstream: one message per intent, to each pair's own number.
    const perNumber = await stack.serviceDb.all<{ to_addr: string; n: number }>(
      `SELECT m.to_addr, count(*)::int AS n FROM outbox_messages m JOIN requests r ON r.id = m.request_id
        WHERE r.customer_name LIKE 'Pair %' GROUP BY m.to_addr`,
    );
    expect(perNumber.length).toBe(200);
    expect(perNumber.filter((row) => row.n !== 1)).toEqual([]);
    // Both BFFs sent, through both APIs.
    expect(stack.apiBalancer.served.every((n) => n > 0)).toBe(true);
  }, 120_000);

  it('a logout on one BFF is refused on the other within a second, while both serve reads through both APIs', async () => {
    const owner = await stack.owner(stack.bffs[0].url);
    const onB = sameSession(owner, stack.bffs[1].url);
    expect((await onB.get('/auth/me')).status).toBe(200);
    expect((await onB.get('/auth/me')).status).toBe(200);
    const readers = await Promise.all(stack.bffs.map((bff) => stack.owner(bff.url)));
    const servedBefore = [...stack.apiBalancer.served];
    const readStatuses: number[] = [];
    let reading = true;
    const reads = Promise.all(
      readers.map(async (reader) => {
        for (let i = 0; reading || i < 4; i++)
          readStatuses.push((await reader.get(`/api/v1/reviews?limit=5&page=${1 + (i % 3)}`)).status);
      }),
    );
    try {
      expect((await owner.post('/auth/logout', {})).status).toBe(200);
      const refused = await untilRefused(() => onB.get('/auth/me'));
      const refusedAfterMs = refused.afterMs;
      expect(refused.status).toBe(401);
      expect(refusedAfterMs).toBeLessThan(1_000);
      recordFigure({
        area: 'replicas',
        what: 'logout on A refused on B after',
        value: refusedAfterMs,
        unit: 'ms',
      });
    } finally {
      reading = false;
      await reads;
    }
    expect(readStatuses.length).toBeGreaterThanOrEqual(8);
    expect(readStatuses.filter((s) => s !== 200)).toEqual([]);
    // The reads reached the service through both APIs.
    expect(stack.apiBalancer.served.map((n, i) => n - (servedBefore[i] ?? 0)).every((n) => n > 0)).toBe(true);
  }, 60_000);

  it("after a burst of sends through both tiers, the service's counters and roll-ups equal a recount", async () => {
    const client = await stack.owner();
    const statuses: number[] = [];
    await pool(400, 16, async (i) => {
      statuses.push((await client.send(customer('Burst', i))).status);
    });
    const sent = statuses.filter((s) => ACKNOWLEDGED.has(s)).length;
    // One in five of each channel fails delivery, a link never: 60 × 502 delivery_failed, nothing else.
    expect(statuses.filter((s) => !ACKNOWLEDGED.has(s) && s !== 502)).toEqual([]);
    expect(statuses.length - sent).toBe(60);
    const rows = await stack.serviceDb.get<{ sent: number; failed: number; other: number }>(
      `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status NOT IN ('sent', 'failed'))::int AS other
         FROM requests WHERE customer_name LIKE 'Burst %'`,
    );
    expect(rows).toEqual({ sent, failed: 60, other: 0 });
    recordFigure({
      area: 'replicas',
      what: 'burst through both tiers: sent / failed',
      value: `${sent} / 60`,
    });
    // The operator's check, against the shared database: exits non-zero on any drift.
    expect(await stack.apiCli(['check-rollups'])).toContain('Counters and roll-ups match a recount');
    // The month's allowance use: one unit per request with a message that reached someone.
    const usage = await stack.serviceDb.all(
      `SELECT to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM') AS month, count(*) AS n
         FROM requests WHERE channel <> 'link' AND status = 'sent' GROUP BY 1 ORDER BY 1`,
    );
    expect(await stack.serviceDb.all('SELECT month, n FROM send_usage ORDER BY month')).toEqual(usage);
    // What the dashboard shows, read through both tiers, is the count of the rows.
    const counted = await stack.serviceDb.get<{ total: number; sent: number; failed: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'sent')::int AS sent,
              count(*) FILTER (WHERE status = 'failed')::int AS failed FROM requests`,
    );
    const analytics = await client.get('/api/v1/analytics?days=30');
    expect(analytics.status).toBe(200);
    expect(analytics.json.data.requests).toMatchObject(counted!);
  }, 120_000);

  it('SIGKILL of one BFF and one API amid sends: every acknowledged send is stored, and the survivors kept serving', async () => {
    const client = await stack.owner();
    const survivor = await stack.owner(stack.bffs[1].url);
    const acknowledged: string[] = [];
    const statuses: number[] = [];
    let killed = false;
    let ackedAfterKill = 0;
    const servedBefore = [...stack.front.served];
    const apiServedBefore = [...stack.apiBalancer.served];
    const sendOne = async (n: number) => {
      const name = `Durable ${n}`;
      const reply = await client
        .send({ customerName: name, customerPhone: phone(200_000 + n), channel: 'sms' }, undefined, 20_000)
        .catch(() => ({ status: 0 }));
      statuses.push(reply.status);
      if (!ACKNOWLEDGED.has(reply.status)) return;
      acknowledged.push(name);
      if (killed) ackedAfterKill++;
    };
    let frontAtKill: number[] = [];
    let apiAtKill: number[] = [];
    await pool(240, 8, async (n) => {
      if (n === 80 && !killed) {
        frontAtKill = [...stack.front.served];
        apiAtKill = [...stack.apiBalancer.served];
        await Promise.all([stack.bffs[0].stop('SIGKILL'), stack.apis[0].stop('SIGKILL')]);
        killed = true;
      }
      await sendOne(n);
    });
    expect(acknowledged.length).toBeGreaterThan(0);
    recordFigure({
      area: 'replicas',
      what: 'SIGKILL of a BFF and an API: acknowledged (after the kill) / not',
      value: `${acknowledged.length} (${ackedAfterKill}) / ${statuses.length - acknowledged.length}`,
    });
    // The survivors answered most of what came after; the balancers passed over the dead ones.
    expect(ackedAfterKill).toBeGreaterThan(100);
    expect(stack.front.served[1]! - frontAtKill[1]!).toBeGreaterThan(100);
    expect(stack.apiBalancer.served[1]! - apiAtKill[1]!).toBeGreaterThan(100);
    expect(frontAtKill[0]! - servedBefore[0]!).toBeGreaterThan(0);
    expect(apiAtKill[0]! - apiServedBefore[0]!).toBeGreaterThan(0);

    // Every acknowledged send is in the service: the request sent, its message in the outbox.
    const stored = await stack.serviceDb.all<{ customer_name: string; status: string; messages: number }>(
      `SELECT r.customer_name, r.status, (SELECT count(*)::int FROM outbox_messages m WHERE m.request_id = r.id) AS messages
         FROM requests r WHERE r.customer_name LIKE 'Durable %'`,
    );
    const byName = new Map(stored.map((row) => [row.customer_name, row]));
    expect(acknowledged.filter((name) => byName.get(name)?.status !== 'sent')).toEqual([]);
    expect(acknowledged.filter((name) => byName.get(name)?.messages !== 1)).toEqual([]);
    // …and in the BFFs' shared history as sent, read through the surviving BFF.
    const outcomes = await history(survivor);
    expect(acknowledged.filter((name) => outcomes.get(name) !== 'sent')).toEqual([]);
    // Nothing the service never stored is shown as sent.
    const shownSent = [...outcomes].filter(
      ([name, outcome]) => name.startsWith('Durable ') && outcome === 'sent',
    );
    expect(shownSent.filter(([name]) => byName.get(name)?.status !== 'sent')).toEqual([]);
    // The killed BFF's sends in flight are settled by the survivor: `unknown`, never left in flight.
    const inFlight = async () =>
      [...(await history(survivor))].filter(
        ([name, outcome]) => name.startsWith('Durable ') && outcome === 'in_flight',
      );
    await expect.poll(inFlight, { timeout: 15_000, interval: 250 }).toEqual([]);
  }, 120_000);
});
