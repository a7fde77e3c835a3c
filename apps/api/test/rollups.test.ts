import { REVIEW_STATUSES } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildRollups, rollupDrift } from '../src/analytics/recount.ts';
import { generateData } from '../src/demo/generate.ts';
import { importReviews } from '../src/demo/import.ts';
import { optOut, recordHandoff, recordOpen, submitFeedback } from '../src/review-page/visits.ts';
import {
  bothChannels,
  describeEachEngine,
  execute,
  getJson,
  queryAll,
  queryOne,
  reviewsWhere,
  send,
  uniqueEmail,
  uniquePhone,
} from './helpers.ts';

// The counters and daily roll-ups that make `total` and analytics cheap at a million rows must
// always equal a brute-force recount of the base tables, whatever mix of writes came before.

describeEachEngine({ monthlySendAllowance: 0 }, (api) => {
  let key: string;
  let businessId: number;
  const DAY = 86_400_000;

  beforeAll(async () => {
    businessId = (await api.business('mix')).id;
    await api.business('bystander');
    key = await api.key('mix');
  });

  async function bruteTotal(filter: { status?: string; minRating?: number }): Promise<number> {
    const { where, args } = reviewsWhere(businessId, filter);
    const row = await queryOne<{ n: number }>(
      api.ctx.store,
      `SELECT count(*) AS n FROM reviews WHERE ${where}`,
      ...args,
    );
    return row!.n;
  }

  describe('counters and roll-ups', () => {
    it('match a brute-force recount after mixed writes', async () => {
      const store = api.ctx.store;
      const start = api.clock.now;
      // Generated data for this business and another.
      await generateData(store, { businessId, requests: 200, reviews: 300, days: 90, now: start, seed: 11 });
      await generateData(store, {
        businessId: (await store.businesses.bySlug('bystander'))!.id,
        requests: 50,
        reviews: 50,
        days: 30,
        now: start,
        seed: 12,
      });
      // Sends on every channel, across days, with failures and partial failures.
      const links: string[] = [];
      for (let day = 0; day < 5; day++) {
        api.clock.now = start - day * DAY;
        for (const body of [
          { customerPhone: uniquePhone() },
          { customerEmail: uniqueEmail(), channel: 'email' },
          bothChannels('fail.example'),
          { channel: 'link' },
          { customerPhone: '+14155550000' },
        ]) {
          const result = await send(api, key, body);
          if (result.status === 200) links.push(result.body.data.reviewLink.split('/r/')[1]);
        }
      }
      api.clock.now = start;
      // Customer actions in every combination, some repeated.
      for (const [i, token] of links.entries()) {
        if (i % 2 === 0) await recordOpen(store, token, start);
        if (i % 3 === 0) await submitFeedback(store, token, { rating: (i % 5) + 1, comment: `c${i}` }, start);
        if (i % 4 === 0) await recordHandoff(store, token, start);
        if (i % 6 === 0) await submitFeedback(store, token, { rating: 1, comment: 'again' }, start);
        if (i % 7 === 0) await optOut(store, token, start);
      }
      // Imports, including a duplicate row that must be skipped.
      const rows = Array.from({ length: 20 }, (_, i) => ({
        rating: (i % 5) + 1,
        platform: ['google', 'facebook', 'yelp'][i % 3],
        review_date: new Date(start - i * DAY).toISOString(),
        status: REVIEW_STATUSES[i % 3],
        external_id: `ext-${i}`,
      }));
      await importReviews(store, 'mix', rows, start);
      expect(await importReviews(store, 'mix', rows.slice(0, 5), start)).toEqual({
        imported: 0,
        updated: 0,
        skipped: 5,
      });
      // Status changes move reviews between counters.
      const some = await queryAll<{ id: number }>(
        store,
        'SELECT id FROM reviews WHERE business_id = $1 LIMIT 30',
        businessId,
      );
      await store.transaction(async () => {
        for (const [i, r] of some.entries()) {
          await store.reviews.setStatus(r.id, REVIEW_STATUSES[i % 3]!, i % 3 === 1 ? 'Thanks' : null);
        }
      });

      expect(await rollupDrift(store.db)).toEqual([]);
      // `total` of every filter equals COUNT(*).
      for (const status of [undefined, ...REVIEW_STATUSES]) {
        for (const minRating of [undefined, 1, 2, 3, 4, 5]) {
          const query = new URLSearchParams({ limit: '1' });
          if (status) query.set('status', status);
          if (minRating) query.set('minRating', String(minRating));
          const data = (await getJson(api, `/api/v1/reviews?${query}`, key)).body.data;
          expect(data.total).toBe(await bruteTotal({ status, minRating }));
        }
      }

      // A rebuild from the base tables gives the same figures the writes maintained.
      const before = (await getJson(api, '/api/v1/analytics?days=365', key)).body.data;
      await rebuildRollups(store.db);
      expect(await rollupDrift(store.db)).toEqual([]);
      expect((await getJson(api, '/api/v1/analytics?days=365', key)).body.data).toEqual(before);
    });

    it('drift is detected when a counter is wrong', async () => {
      const store = api.ctx.store;
      await execute(
        store,
        "UPDATE review_counts SET n = n + 1 WHERE business_id = $1 AND status = 'pending' AND rating = 5",
        businessId,
      );
      await execute(
        store,
        'UPDATE request_daily SET completed = completed + 1 WHERE business_id = $1',
        businessId,
      );
      const drift = await rollupDrift(store.db);
      expect(drift.some((d) => d.startsWith('review_counts'))).toBe(true);
      expect(drift.some((d) => d.startsWith('request_daily'))).toBe(true);
      await rebuildRollups(store.db);
      expect(await rollupDrift(store.db)).toEqual([]);
    });
  });
});
