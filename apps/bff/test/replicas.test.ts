import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { behaviours, type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { type RoundRobin, startRoundRobin } from '../../../test/support/round-robin.ts';
import { newApiKey, untilRefused } from '../../../test/support/stack.ts';
import { OWNER, startBff, type TestBff } from './support/bff.ts';
import { DashboardClient } from './support/client.ts';
import { SMS } from './support/fixtures.ts';

// Two BFF replicas on one PostgreSQL database behind a round-robin: the journal, the sessions and
// the login throttle are the database's, so "at most once per intent", a logout and the guess
// limit hold across replicas as they do in one process.

const SEND = '/api/v1/requests/send';

let upstream: FakeUpstream;
let database: { url: string; drop(): Promise<void> };
let a: TestBff;
let b: TestBff;
let balancer: RoundRobin;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  database = await createPostgresDatabase();
  const key = newApiKey();
  const env = { BFF_DATABASE_URL: database.url, UPSTREAM_TIMEOUT_MS: '20000', BFF_DATABASE_POOL_SIZE: '4' };
  // Started together: both migrate (one does, under the lock) and both find no users (one creates the owner).
  [a, b] = await Promise.all([startBff(upstream.url, env, { key }), startBff(upstream.url, env, { key })]);
  balancer = await startRoundRobin([a.url, b.url]);
}, 60_000);

afterAll(async () => {
  await balancer?.close();
  await Promise.all([a?.stop(), b?.stop()]);
  await upstream?.close();
  await database?.drop();
});

/** A client of replica `to` holding the same session cookie as `from`. */
const sameSession = (from: DashboardClient, to: TestBff) => {
  const client = new DashboardClient(to.url);
  client.cookie = from.cookie;
  return client;
};

describe('two BFF replicas on one PostgreSQL', () => {
  it('200 double-submits, each pair split across the replicas: 200 upstream sends, never 400', async () => {
    const owner = await a.owner();
    const onB = sameSession(owner, b);
    upstream.reset();
    // The upstream answers a moment later, so both halves of a pair are in flight together.
    upstream.behaveOn(SEND, behaviours.delay(20));
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 10; batch++) {
      const pairs = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const key = crypto.randomUUID();
          return Promise.all([owner.send(SMS, key), onB.send(SMS, key)]);
        }),
      );
      for (const pair of pairs) {
        for (const reply of pair) statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        // One of the two went out; the other was the replay of its answer or the in-flight refusal.
        expect(pair.map((reply) => reply.status).sort()).toSatisfy(
          (codes: number[]) =>
            codes.filter((code) => code === 201 || code === 200).length >= 1 &&
            codes.every((code) => code === 201 || code === 200 || code === 409),
        );
      }
    }
    upstream.behaveOn(SEND, null);
    expect(upstream.count(SEND)).toBe(200);
    expect([...statuses.values()].reduce((x, y) => x + y, 0)).toBe(400);
  }, 120_000);

  it('a sign-in on one replica is valid on the other; a logout on one is refused on the other within a second', async () => {
    const owner = await a.owner();
    const onB = sameSession(owner, b);
    expect((await onB.get('/auth/me')).status).toBe(200);
    // Read twice on B: the session is in B's cache now.
    expect((await onB.get('/auth/me')).status).toBe(200);
    expect((await owner.post('/auth/logout', {})).status).toBe(200);
    const refused = await untilRefused(() => onB.get('/auth/me'));
    expect(refused.status).toBe(401);
    expect(refused.afterMs).toBeLessThan(1_000);
  });

  it('counts wrong passwords on both replicas together: the sixth guess is refused wherever it lands', async () => {
    const email = 'nobody-here@example.com';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const client = new DashboardClient(balancer.url);
      statuses.push((await client.login(email, `wrong-password-${i}`)).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    expect(balancer.served[0]).toBeGreaterThan(0);
    expect(balancer.served[1]).toBeGreaterThan(0);
  });

  it('a replica killed mid-send: the other marks only that replica’s in-flight send unknown; its own live send goes on', async () => {
    const killed = await startBff(upstream.url, a.env, { key: a.key });
    const viaKilled = await killed.owner();
    const viaB = await b.owner();
    const history = async () =>
      (await viaB.get('/bff/sends?limit=20')).json.data.sends as { customerName: string; outcome: string }[];
    const outcomeOf = async (name: string) => (await history()).find((s) => s.customerName === name)?.outcome;
    upstream.reset();
    // Both sends reach the upstream, which answers them 8 seconds later.
    upstream.behaveOn(SEND, behaviours.delay(8_000));
    void viaKilled.send({ ...SMS, customerName: 'Sent Via Killed' }).catch(() => null);
    const live = viaB.send({ ...SMS, customerName: 'Sent Via Survivor' });
    await expect.poll(() => upstream.count(SEND), { timeout: 5_000 }).toBe(2);
    await killed.app.stop('SIGKILL');
    // The survivor's sweep finds the killed replica gone (its process, on this host) and settles its send.
    await expect.poll(() => outcomeOf('Sent Via Killed'), { timeout: 8_000, interval: 200 }).toBe('unknown');
    expect(await outcomeOf('Sent Via Survivor')).toBe('in_flight');
    expect([200, 201]).toContain((await live).status);
    expect(await outcomeOf('Sent Via Survivor')).toBe('sent');
    upstream.behaveOn(SEND, null);
    await killed.stop();
  }, 60_000);

  it('SIGKILL of a replica amid sends: every acknowledged send is in the journal, and the other replica kept serving', async () => {
    const doomed = await startBff(upstream.url, a.env, { key: a.key });
    const pair = await startRoundRobin([doomed.url, b.url]);
    try {
      const client = new DashboardClient(pair.url);
      expect((await client.login(OWNER.email, OWNER.password)).status).toBe(200);
      upstream.reset();
      const acknowledged: string[] = [];
      let servedAfterKill = 0;
      let killed = false;
      const sendOne = async (n: number) => {
        const name = `Durable ${n}`;
        const reply = await client.send({ ...SMS, customerName: name });
        if (reply.status === 200 || reply.status === 201) {
          acknowledged.push(name);
          if (killed) servedAfterKill++;
        }
      };
      for (let wave = 0; wave < 12; wave++) {
        if (wave === 4) {
          await doomed.app.stop('SIGKILL');
          killed = true;
        }
        await Promise.all(Array.from({ length: 5 }, (_, i) => sendOne(wave * 5 + i)));
      }
      expect(servedAfterKill).toBeGreaterThan(10);
      const viaB = await b.owner();
      const history = (await viaB.get('/bff/sends?limit=100')).json.data.sends as {
        customerName: string;
        outcome: string;
      }[];
      const sent = new Set(history.filter((s) => s.outcome === 'sent').map((s) => s.customerName));
      expect(acknowledged.filter((name) => !sent.has(name))).toEqual([]);
    } finally {
      await pair.close();
      await doomed.stop();
    }
  }, 60_000);
});
