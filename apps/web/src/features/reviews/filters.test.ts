import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTERS,
  describeFilters,
  needsCanonicalUrl,
  parseReviewFilters,
  ratingRangeLabel,
  reviewFiltersToParams,
  withFilter,
} from './filters.ts';

const parse = (query: string) => parseReviewFilters(new URLSearchParams(query));

describe('reviews URL ↔ filter state', () => {
  it('reads defaults from an empty URL and writes an empty URL back', () => {
    const { filters, corrections } = parse('');
    expect(filters).toEqual(DEFAULT_FILTERS);
    expect(corrections).toEqual([]);
    expect(reviewFiltersToParams(filters).toString()).toBe('');
  });

  it('round-trips every filter', () => {
    const filters = { page: 3, limit: 50, status: 'responded' as const, minRating: 1, maxRating: 2 };
    const back = parse(reviewFiltersToParams(filters).toString());
    expect(back.filters).toEqual(filters);
    expect(back.corrections).toEqual([]);
  });

  it('corrects out-of-range values to the nearest bound, and says so', () => {
    const { filters, corrections } = parse('page=0&limit=500&minRating=9');
    expect(filters).toMatchObject({ page: 1, limit: 100, minRating: 5 });
    expect(corrections).toHaveLength(3);
    expect(parse('minRating=0&limit=0').filters).toMatchObject({ minRating: 1, limit: 1 });
  });

  it('puts a range given upside down the right way round, and says so', () => {
    const { filters, corrections } = parse('minRating=4&maxRating=2');
    expect(filters).toMatchObject({ minRating: 2, maxRating: 4 });
    expect(corrections).toEqual(['minRating 4 is above maxRating 2; the two were swapped']);
  });

  it('names a range of ratings in words', () => {
    expect(ratingRangeLabel(undefined, undefined)).toBeNull();
    expect(ratingRangeLabel(1, 5)).toBeNull();
    expect(ratingRangeLabel(5, undefined)).toBe('5★ only');
    expect(ratingRangeLabel(4, undefined)).toBe('4★ and up');
    expect(ratingRangeLabel(1, 2)).toBe('1–2★');
    expect(ratingRangeLabel(undefined, 2)).toBe('1–2★');
    expect(ratingRangeLabel(3, 3)).toBe('3★ only');
    expect(describeFilters({ status: 'pending', minRating: 1, maxRating: 2 })).toBe(
      'status “Waiting” and rating 1–2★',
    );
  });

  it('ignores garbage instead of crashing', () => {
    const { filters, corrections } = parse('page=abc&limit=1e3&status=deleted&minRating=%00');
    expect(filters).toEqual(DEFAULT_FILTERS);
    expect(corrections.length).toBe(4);
  });

  it('accepts any casing of a status, and “any”', () => {
    expect(parse('status=Pending').filters.status).toBe('pending');
    expect(parse('status=any').filters.status).toBeUndefined();
  });

  it('takes the first of a repeated parameter', () => {
    const { filters, corrections } = parse('status=pending&status=ignored');
    expect(filters.status).toBe('pending');
    expect(corrections).toHaveLength(1);
  });

  it('knows when the URL is not canonical', () => {
    const { filters } = parse('minRating=4&status=pending');
    expect(needsCanonicalUrl(new URLSearchParams('minRating=4&status=pending'), filters)).toBe(true);
    expect(needsCanonicalUrl(new URLSearchParams('status=pending&minRating=4'), filters)).toBe(false);
    expect(needsCanonicalUrl(new URLSearchParams('page=1'), DEFAULT_FILTERS)).toBe(true);
  });

  it('starts from page 1 when a filter changes', () => {
    expect(withFilter({ ...DEFAULT_FILTERS, page: 7 }, { status: 'ignored' })).toMatchObject({
      page: 1,
      status: 'ignored',
    });
  });
});
