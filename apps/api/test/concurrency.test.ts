import { emailContactKey } from '@review-desk/shared/contact';
import { beforeAll, expect, it } from 'vitest';
import { rollupDrift } from '../src/analytics/recount.ts';
import { recordHandoff, recordOpen, submitFeedback } from '../src/review-page/visits.ts';
import { monthOf } from '../src/store/time.ts';
import {
  bothChannels,
  describeEachEngine,
  expectFailure,
  getJson,
  queryAll,
  queryOne,
  send,
  startTestApi,
  uniqueEmail,
  uniquePhone,
} from './helpers.ts';

// Sends arriving at once: the frequency cap, the monthly allowance, the per-key limit and the
// counters hold when the requests race each other (on PostgreSQL they run on several connections
// at the same time; on SQLite one after another).

/** Connections enough that the requests below really overlap on PostgreSQL. */
const POOL = 8;

describeEachEngine({ monthlySendAllowance: 0, databasePoolSize: POOL }, (api, engine) => {
  let key: string;

  beforeAll(async () => {
    await api.business('race');
    key = await api.key('race');
  });

  const all = <T>(n: number, fn: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

  it('twelve texts to one number at once: one goes, eleven are refused by the frequency cap', async () => {
    const phone = uniquePhone();
    const results = await all(12, () => send(api, key, { customerPhone: phone }));
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(1);
    for (const refused of results.filter((r) => r.status !== 200)) expectFailure(refused, 'frequency_capped');
    const rows = await queryAll(api.ctx.store, 'SELECT id FROM requests WHERE customer_phone = $1', phone);
    expect(rows).toHaveLength(1);
  });

  it('sends sharing a number or a mailbox, in every order: no two that went share a contact, none fails', async () => {
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    const local = uniqueEmail().split('@')[0]!;
    // Three spellings of each of two mailboxes (a tag, Gmail's dots): one contact each.
    const mailboxes = [`${local}a`, `${local}b`].map((m) => [
      `${m}@gmail.com`,
      `${m}+x@gmail.com`,
      `${m.slice(0, 3)}.${m.slice(3)}@gmail.com`,
    ]);
    const bodies = Array.from({ length: 18 }, (_, i) => ({
      channel: 'both',
      customerPhone: phones[i % 3]!,
      customerEmail: mailboxes[i % 2]![i % 3]!,
    }));
    const results = await Promise.all(bodies.map((body) => send(api, key, body)));
    const sent = bodies.filter((_, i) => results[i]!.status === 200);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const [i, result] of results.entries()) {
      if (result.status !== 200) expect(expectFailure(result, 'frequency_capped'), `send ${i}`).toBeTruthy();
    }
    const contacts = sent.flatMap((b) => [b.customerPhone, emailContactKey(b.customerEmail)]);
    expect(new Set(contacts).size).toBe(contacts.length);
  });

  it('the monthly allowance of 5 with 16 texts at once: exactly 5 go, and 5 are counted', async () => {
    const limited = await startTestApi({ monthlySendAllowance: 5, databasePoolSize: POOL }, { engine });
    try {
      const business = await limited.business('allowance');
      const own = await limited.key('allowance');
      const results = await all(16, () => send(limited, own, { customerPhone: uniquePhone() }));
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      for (const refused of results.filter((r) => r.status !== 200)) {
        expectFailure(refused, 'allowance_exceeded');
      }
      const usage = await queryOne<{ n: number }>(
        limited.ctx.store,
        'SELECT n FROM send_usage WHERE business_id = $1 AND month = $2',
        business.id,
        monthOf(limited.clock.now),
      );
      expect(usage?.n).toBe(5);
      const rows = await queryAll(
        limited.ctx.store,
        'SELECT id FROM requests WHERE business_id = $1',
        business.id,
      );
      expect(rows).toHaveLength(5);
    } finally {
      await limited.stop();
    }
  });

  it('a key limited to 3 a minute, 12 calls at once: exactly 3 answered, 9 told to wait', async () => {
    const limited = await api.key('race', undefined, { rateLimitPerMinute: 3 });
    const results = await all(12, () => getJson(api, '/api/v1/reviews', limited));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const refused of results.filter((r) => r.status !== 200)) expectFailure(refused, 'rate_limited');
  });

  it('counters and roll-ups equal a recount after racing sends, opens, feedback and hand-offs', async () => {
    const before = (await getJson(api, '/api/v1/analytics?days=1', key)).body.data.requests;
    const bodies = Array.from({ length: 30 }, (_, i) => {
      switch (i % 5) {
        case 0:
          return { customerPhone: uniquePhone() };
        case 1:
          return { customerEmail: uniqueEmail(), channel: 'email' };
        case 2:
          return bothChannels('fail.example');
        case 3:
          return { channel: 'link' };
        default:
          return { customerPhone: '+14155550000' }; // refused by the carrier: a failed request
      }
    });
    const results = await Promise.all(bodies.map((body) => send(api, key, body)));
    const tokens = results
      .filter((r) => r.status === 200)
      .map((r) => (r.body.data.reviewLink as string).split('/r/')[1]!);
    expect(tokens).toHaveLength(24);
    // Each customer acts twice at once (a double click, two tabs): counted once.
    const now = api.clock.now;
    const store = api.ctx.store;
    await Promise.all(
      tokens.flatMap((token, i) => [
        recordOpen(store, token, now),
        recordOpen(store, token, now),
        ...(i % 2 === 0
          ? [
              submitFeedback(store, token, { rating: 5, comment: '' }, now),
              submitFeedback(store, token, { rating: 4, comment: '' }, now),
            ]
          : [recordHandoff(store, token, now), recordHandoff(store, token, now)]),
      ]),
    );
    expect(await rollupDrift(store.db)).toEqual([]);
    const after = (await getJson(api, '/api/v1/analytics?days=1', key)).body.data.requests;
    expect(after.total - before.total).toBe(30);
    expect(after.sent - before.sent).toBe(24);
    expect(after.failed - before.failed).toBe(6);
    expect(after.clicked - before.clicked).toBe(24);
    expect(after.feedback - before.feedback).toBe(12);
    expect(after.handoffs - before.handoffs).toBe(12);
    expect(after.completed - before.completed).toBe(24);
  });
});
