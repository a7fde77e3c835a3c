import {
  isLastPage,
  LIMIT_DEFAULT,
  REVIEW_STATUSES,
  reviewListOutputSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateData } from '../src/demo/generate.ts';
import { describeEachEngine, expectFailure, getJson, queryAll, reviewsWhere } from './helpers.ts';

// GET /api/v1/reviews (docs/api.md, "Limits" and "Paging the reviews"): bounds, the stop rule,
// filters, the stable newest-first order, and `total`, checked against a brute-force query of the
// same table.

describeEachEngine({}, (api) => {
  let key: string;
  let businessId: number;

  const listSchema = successEnvelopeSchema(reviewListOutputSchema);

  beforeAll(async () => {
    businessId = (await api.business('cafe')).id;
    key = await api.key('cafe');
    await generateData(api.ctx.store, {
      businessId,
      requests: 300,
      reviews: 437,
      days: 60,
      now: api.clock.now,
      seed: 3,
    });
    // Ties on the date: the order must still be stable (highest id first).
    const store = api.ctx.store;
    await store.transaction(async () => {
      for (let i = 0; i < 7; i++) {
        await store.reviews.insert({
          businessId,
          rating: (i % 5) + 1,
          status: REVIEW_STATUSES[i % 3]!,
          authorName: `Tie ${i}`,
          text: null,
          reviewAt: api.clock.now - 3_600_000,
          responseText: REVIEW_STATUSES[i % 3] === 'responded' ? 'Thanks!' : null,
          platform: 'google',
          externalId: null,
          requestId: null,
          createdAt: api.clock.now,
        });
      }
    });
    // Another business's reviews must never show up.
    const other = (await api.business('elsewhere')).id;
    await generateData(api.ctx.store, {
      businessId: other,
      requests: 50,
      reviews: 80,
      days: 60,
      now: api.clock.now,
      seed: 4,
    });
  });

  type Filter = { status?: string; minRating?: number; maxRating?: number };

  async function expectedIds(filter: Filter): Promise<string[]> {
    const { where, args } = reviewsWhere(businessId, filter);
    const rows = await queryAll<{ id: number }>(
      api.ctx.store,
      `SELECT id FROM reviews WHERE ${where} ORDER BY review_at DESC, id DESC`,
      ...args,
    );
    return rows.map((r) => `rev_${r.id}`);
  }

  async function list(query: string) {
    const result = await getJson(api, `/api/v1/reviews${query}`, key);
    expect(result.status).toBe(200);
    return listSchema.parse(result.body).data;
  }

  describe('defaults and bounds', () => {
    it('page 1, limit 20 by default, newest first', async () => {
      const data = await list('');
      expect(data.page).toBe(1);
      expect(data.limit).toBe(LIMIT_DEFAULT);
      expect(data.reviews).toHaveLength(LIMIT_DEFAULT);
      expect(data.total).toBe((await expectedIds({})).length);
      expect(data.reviews.map((r) => r.id)).toEqual((await expectedIds({})).slice(0, LIMIT_DEFAULT));
    });

    it.each([1, 100])('limit %i is accepted', async (limit) => {
      const data = await list(`?limit=${limit}`);
      expect(data.reviews).toHaveLength(limit);
      expect(data.limit).toBe(limit);
    });

    it.each(['5', '1'])('minRating %s is accepted', async (minRating) => {
      const data = await list(`?minRating=${minRating}`);
      expect(data.total).toBe((await expectedIds({ minRating: Number(minRating) })).length);
    });

    it.each([
      [1, 2],
      [1, 1],
      [3, 3],
      [2, 4],
    ])(
      'minRating %i with maxRating %i: only those ratings, every one counted',
      async (minRating, maxRating) => {
        const data = await list(`?minRating=${minRating}&maxRating=${maxRating}&limit=100`);
        const expected = await expectedIds({ minRating, maxRating });
        expect(expected.length).toBeGreaterThan(0);
        expect(data.total).toBe(expected.length);
        expect(data.reviews.map((r) => r.id)).toEqual(expected.slice(0, 100));
        for (const review of data.reviews) {
          expect(review.rating).toBeGreaterThanOrEqual(minRating);
          expect(review.rating).toBeLessThanOrEqual(maxRating);
        }
      },
    );

    it.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['page=', 'page'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1e2', 'limit'],
      ['limit=%2010', 'limit'],
      ['minRating=0', 'minRating'],
      ['minRating=6', 'minRating'],
      ['minRating=four', 'minRating'],
      ['maxRating=0', 'maxRating'],
      ['maxRating=6', 'maxRating'],
      ['minRating=4&maxRating=2', 'maxRating'],
      ['status=open', 'status'],
      ['status=PENDING', 'status'],
      ['page=1&page=2', 'page'],
      ['status=pending&status=ignored', 'status'],
      ['sort=oldest', 'sort'],
    ])('?%s → 400 naming %s', async (query, field) => {
      const result = await getJson(api, `/api/v1/reviews?${query}`, key);
      const message = expectFailure(result, 'validation_failed');
      expect(Object.keys(result.body.fields ?? {})).toContain(field);
      expect(message).toContain(field);
    });

    it('a page past the end is empty, with the same total', async () => {
      const total = (await expectedIds({})).length;
      const data = await list(`?page=${Math.ceil(total / 100) + 1}&limit=100`);
      expect(data.reviews).toEqual([]);
      expect(data.total).toBe(total);
    });
  });

  describe('pagination walk by the stop rule', () => {
    it.each([
      [{}, 7],
      [{}, 100],
      [{ status: 'pending' }, 13],
      [{ minRating: 4 }, 50],
      [{ status: 'responded', minRating: 5 }, 9],
      [{ status: 'ignored', minRating: 2 }, 3],
      [{ maxRating: 2 }, 9],
      [{ status: 'pending', minRating: 2, maxRating: 4 }, 7],
    ] as [Filter, number][])(
      '%o with limit %i: every review once, in order, total consistent',
      async (filter, limit) => {
        const expected = await expectedIds(filter);
        const seen: string[] = [];
        let totals = new Set<number>();
        let pages = 0;
        for (let page = 1; ; page++) {
          const query = new URLSearchParams({ page: String(page), limit: String(limit) });
          if (filter.status) query.set('status', filter.status);
          if (filter.minRating) query.set('minRating', String(filter.minRating));
          if (filter.maxRating) query.set('maxRating', String(filter.maxRating));
          const data = await list(`?${query}`);
          pages++;
          totals = totals.add(data.total);
          for (const review of data.reviews) {
            if (filter.status) expect(review.response_status).toBe(filter.status);
            if (filter.minRating) expect(review.rating).toBeGreaterThanOrEqual(filter.minRating);
            if (filter.maxRating) expect(review.rating).toBeLessThanOrEqual(filter.maxRating);
          }
          seen.push(...data.reviews.map((r) => r.id));
          if (isLastPage(data)) break;
          expect(data.reviews).toHaveLength(limit);
        }
        expect([...totals]).toEqual([expected.length]);
        expect(seen).toEqual(expected); // no duplicates, no gaps, same order
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
      },
    );

    it('every page of every filter equals the brute-force slice (pages read from either end)', async () => {
      for (const status of [undefined, ...REVIEW_STATUSES]) {
        for (const [minRating, maxRating] of [
          [undefined, undefined],
          [1, undefined],
          [3, undefined],
          [5, undefined],
          [undefined, 2],
          [2, 2],
          [2, 4],
        ]) {
          const expected = await expectedIds({ status, minRating, maxRating });
          const limit = 11;
          for (let page = 1; page <= Math.ceil(expected.length / limit) + 1; page++) {
            const rows = await api.ctx.store.reviews.page(
              businessId,
              { status, minRating, maxRating },
              (page - 1) * limit,
              limit,
              expected.length,
            );
            expect(rows.map((r) => `rev_${r.id}`)).toEqual(expected.slice((page - 1) * limit, page * limit));
          }
        }
      }
    });
  });

  describe('review items', () => {
    it('carry the documented fields, synced and direct platforms, ISO dates', async () => {
      const data = await list('?limit=100');
      const platforms = new Set(data.reviews.map((r) => r.platform));
      expect(platforms.has('direct')).toBe(true);
      expect([...platforms].some((p) => p !== 'direct')).toBe(true);
      for (const review of data.reviews) {
        expect(new Date(review.review_date).toISOString()).toBe(review.review_date);
        if (review.response_status === 'responded') expect(review.response_text).toBeTruthy();
      }
    });

    it('ties on the date are ordered by id, highest first', async () => {
      const ids = await expectedIds({});
      const all: string[] = [];
      for (let page = 1; page <= Math.ceil(ids.length / 100); page++) {
        all.push(...(await list(`?page=${page}&limit=100`)).reviews.map((r) => r.id));
      }
      const ties = await queryAll<{ id: number }>(
        api.ctx.store,
        "SELECT id FROM reviews WHERE author_name LIKE 'Tie %' ORDER BY id DESC",
      );
      const positions = ties.map((t) => all.indexOf(`rev_${t.id}`));
      expect(positions.every((p, i) => i === 0 || p === positions[i - 1]! + 1)).toBe(true);
    });
  });
});
