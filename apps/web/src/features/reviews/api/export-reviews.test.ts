import { FORMULA_TRIGGERS } from '@review-desk/shared/csv';
import Papa from 'papaparse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { csvColumns, fetchAllReviews, reviewsToCsv } from './export-reviews.ts';

afterEach(() => vi.unstubAllGlobals());

function bff(total: number, opts: { failFirst?: number } = {}) {
  let failures = opts.failFirst ?? 0;
  return stubFetch((request) => {
    if (failures-- > 0) return fail(503, 'busy');
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page'));
    const limit = Number(url.searchParams.get('limit'));
    const from = (page - 1) * limit;
    const reviews = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => ({
      id: `r${from + i}`,
      rating: 5,
      response_status: 'pending',
      author_name: 'A',
      text: from + i === 0 ? '=HYPERLINK("http://evil")' : 'Line one\nline "two", with comma',
      review_date: '2025-05-01',
      response_text: null,
      platform: 'direct',
    }));
    return ok({ page, limit, total, reviews });
  });
}

describe('CSV export', () => {
  it('walks pages at limit 100 until page × limit reaches total', async () => {
    const { calls } = bff(250);
    const progress: number[] = [];
    const reviews = await fetchAllReviews({ status: 'pending', minRating: 4, maxRating: undefined }, (p) =>
      progress.push(p.fetched),
    );
    expect(reviews).toHaveLength(250);
    expect(calls.map((c) => Object.fromEntries(new URL(c.url).searchParams))).toEqual([
      { page: '1', limit: '100', status: 'pending', minRating: '4' },
      { page: '2', limit: '100', status: 'pending', minRating: '4' },
      { page: '3', limit: '100', status: 'pending', minRating: '4' },
    ]);
    expect(progress).toEqual([100, 200, 250]);
  });

  it('stops on an empty page even when total says more', async () => {
    const { calls } = stubFetch((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      return ok({
        page,
        limit: 100,
        total: 1000,
        reviews: page === 1 ? [{ id: 1, rating: 3, status: 'pending' }] : [],
      });
    });
    const reviews = await fetchAllReviews(
      { status: undefined, minRating: undefined, maxRating: undefined },
      () => {},
    );
    expect(reviews).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  it('retries a page that failed with 503', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      bff(10, { failFirst: 1 });
      const reviews = await fetchAllReviews(
        { status: undefined, minRating: undefined, maxRating: undefined },
        () => {},
      );
      expect(reviews).toHaveLength(10);
    } finally {
      vi.useRealTimers();
    }
  });

  it('can be cancelled', async () => {
    bff(500);
    const abort = new AbortController();
    const walk = fetchAllReviews(
      { status: undefined, minRating: undefined, maxRating: undefined },
      () => abort.abort(),
      abort.signal,
    );
    await expect(walk).rejects.toThrow();
  });

  it('writes a real CSV: quoting, newlines, formula escaping, every column', async () => {
    bff(3);
    const reviews = await fetchAllReviews(
      { status: undefined, minRating: undefined, maxRating: undefined },
      () => {},
    );
    const withExtra = [...reviews, { ...reviews[0]!, id: 'x', location: { city: 'Hull' } }];
    const csv = await reviewsToCsv(withExtra);
    expect(csv.startsWith('\ufeff')).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(csv.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(4);
    expect(parsed.meta.fields).toEqual(csvColumns(withExtra));
    expect(parsed.data[0]!.text).toBe('\'=HYPERLINK("http://evil")');
    expect(parsed.data[1]!.text).toBe('Line one\nline "two", with comma');
    expect(parsed.data[3]!.location).toBe('{"city":"Hull"}');
  });

  it.each(FORMULA_TRIGGERS.map((t) => [JSON.stringify(t), t]))(
    'a multi-line name, review or reply starting with %s reaches the spreadsheet as text, not a formula',
    async (_, trigger) => {
      const formula = (column: string) =>
        `${trigger}HYPERLINK("http://evil.example/${column}","x")\nsecond line`;
      const review = {
        id: 'r1',
        rating: 1,
        status: 'pending',
        author_name: formula('name'),
        text: formula('text'),
        response_text: formula('reply'),
      };
      const csv = await reviewsToCsv([review]);
      const parsed = Papa.parse<Record<string, string>>(csv.slice(1), { header: true, skipEmptyLines: true });
      expect(parsed.errors).toEqual([]);
      const row = parsed.data[0]!;
      expect(row.author_name).toBe(`'${review.author_name}`);
      expect(row.text).toBe(`'${review.text}`);
      expect(row.response_text).toBe(`'${review.response_text}`);
      expect(row.rating).toBe('1');
    },
  );
});
