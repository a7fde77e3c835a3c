import { describe, expect, it } from 'vitest';
import { validationFailure } from './envelope.ts';
import { queryRecord } from './query.ts';
import {
  isLastPage,
  pageRange,
  reviewItemSchema,
  reviewListSchema,
  reviewStatusOf,
  reviewsQuerySchema,
  reviewsSearchParams,
} from './reviews.ts';

// GET /api/v1/reviews and its limits, as a table of query strings.

describe('reviews query: accepted', () => {
  it.each([
    ['', { page: 1, limit: 20 }],
    ['page=1', { page: 1 }],
    ['page=250', { page: 250 }],
    ['limit=1', { limit: 1 }],
    ['limit=20', { limit: 20 }],
    ['limit=100', { limit: 100 }],
    ['minRating=1', { minRating: 1 }],
    ['minRating=5', { minRating: 5 }],
    ['status=pending', { status: 'pending' }],
    ['status=responded', { status: 'responded' }],
    ['status=ignored', { status: 'ignored' }],
    ['status=pending&minRating=4&page=2&limit=50', { status: 'pending', minRating: 4, page: 2, limit: 50 }],
  ])('?%s', (qs, expected) => {
    const result = reviewsQuerySchema.safeParse(queryRecord(qs));
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toMatchObject(expected);
  });
});

describe('reviews query: refused with a message naming the parameter', () => {
  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['page=', 'page'],
    ['page=1e3', 'page'],
    ['page=0x10', 'page'],
    ['page=%201', 'page'],
    ['page=1&page=2', 'page'],
    ['page=99999999999999999999', 'page'],
    ['page=1000000001', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-5', 'limit'],
    ['minRating=0', 'minRating'],
    ['minRating=6', 'minRating'],
    ['minRating=4.5', 'minRating'],
    ['status=open', 'status'],
    ['status=PENDING', 'status'],
    ['status=', 'status'],
    ['status=pending&status=ignored', 'status'],
    ['min_rating=5', 'min_rating'],
    ['maxRating=0', 'maxRating'],
    ['maxRating=6', 'maxRating'],
    ['minRating=3&maxRating=2', 'maxRating'],
  ])('?%s', (qs, param) => {
    const result = reviewsQuerySchema.safeParse(queryRecord(qs));
    expect(result.success).toBe(false);
    const envelope = validationFailure(result.error!);
    expect(Object.keys(envelope.fields ?? {})).toContain(param);
    expect(envelope.error).toContain(param);
  });
});

describe('canonical query string', () => {
  it('round-trips through the schema and omits absent filters', () => {
    const params = reviewsSearchParams({ page: 3, limit: 100, minRating: 4 });
    expect(params.toString()).toBe('page=3&limit=100&minRating=4');
    expect(reviewsQuerySchema.parse(queryRecord(params))).toEqual({ page: 3, limit: 100, minRating: 4 });
  });

  it('carries a range of ratings: maxRating after minRating', () => {
    const params = reviewsSearchParams({ page: 1, limit: 20, maxRating: 2, minRating: 1 });
    expect(params.toString()).toBe('page=1&limit=20&minRating=1&maxRating=2');
    expect(reviewsQuerySchema.parse(queryRecord(params))).toEqual({
      page: 1,
      limit: 20,
      minRating: 1,
      maxRating: 2,
    });
  });
});

describe('the stop rule', () => {
  it.each([
    [{ page: 1, limit: 20, total: 0, reviews: [] }, true, 'empty page'],
    [{ page: 1, limit: 20, total: 57, reviews: Array(20) }, false, 'first of three'],
    [{ page: 2, limit: 20, total: 57, reviews: Array(20) }, false, 'second of three'],
    [{ page: 3, limit: 20, total: 57, reviews: Array(17) }, true, 'last, partial'],
    [{ page: 2, limit: 20, total: 40, reviews: Array(20) }, true, 'page × limit equals total'],
    [{ page: 9, limit: 20, total: 40, reviews: [] }, true, 'beyond the end'],
    [{ page: 1, limit: 20, total: 500, reviews: [] }, true, 'empty although total says more (stop anyway)'],
  ])('%j → last=%s (%s)', (list, last) => {
    expect(isLastPage(list)).toBe(last);
  });

  it('reports the x–y range of a page', () => {
    expect(pageRange({ page: 3, limit: 20, reviews: Array(17) })).toEqual({ from: 41, to: 57 });
    expect(pageRange({ page: 1, limit: 20, reviews: [] })).toEqual({ from: 0, to: 0 });
  });
});

describe('review items from any deployment', () => {
  it('keeps unknown fields and reads the status from response_status or status', () => {
    const item = reviewItemSchema.parse({ id: 7, rating: 4, status: 'responded', sentiment: 'positive' });
    expect(reviewStatusOf(item)).toBe('responded');
    expect(item).toMatchObject({ sentiment: 'positive' });
    const ours = reviewItemSchema.parse({
      id: 'r1',
      rating: 5,
      response_status: 'pending',
      platform: 'google',
    });
    expect(reviewStatusOf(ours)).toBe('pending');
  });

  it.each([
    [{ rating: 4, status: 'pending' }, 'no id'],
    [{ id: 1, status: 'pending' }, 'no rating'],
    [{ id: 1, rating: 6, status: 'pending' }, 'rating above 5'],
    [{ id: 1, rating: 0, status: 'pending' }, 'rating below 1'],
    [{ id: 1, rating: 3.5, status: 'pending' }, 'fractional rating'],
    [{ id: 1, rating: 3 }, 'no status'],
  ])('refuses %j (%s)', (item, _why) => {
    expect(reviewItemSchema.safeParse(item).success).toBe(false);
  });

  it('parses a list envelope', () => {
    const list = reviewListSchema.parse({
      page: 1,
      limit: 20,
      total: 1,
      reviews: [{ id: 'a', rating: 5, status: 'ignored' }],
    });
    expect(list.reviews).toHaveLength(1);
  });
});
