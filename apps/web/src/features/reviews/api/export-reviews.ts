import { LIMIT_MAX } from '@review-desk/shared/limits';
import { isLastPage, type ReviewItem } from '@review-desk/shared/reviews';
import { toCsv } from '../../../lib/csv.ts';
import { withReadRetry } from '../../../lib/retry-policy.ts';
import type { ReviewFilters } from '../filters.ts';
import { getReviews } from './get-reviews.ts';

export type ExportProgress = { fetched: number; total: number; page: number };

/**
 * Every review matching the filters, walked at the largest page size (limit ≤ 100) and stopped by
 * the API's rule (reviews empty, or page × limit ≥ total: docs/api.md). Each page read uses the
 * same retry policy as the dashboard's queries. Rows that shift between pages while the walk runs
 * (a new review arriving) are kept once, by id.
 */
export async function fetchAllReviews(
  filters: Pick<ReviewFilters, 'status' | 'minRating' | 'maxRating'>,
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<ReviewItem[]> {
  const byId = new Map<string, ReviewItem>();
  for (let page = 1; ; page++) {
    signal?.throwIfAborted();
    const list = await withReadRetry(
      () =>
        getReviews(
          {
            status: filters.status,
            minRating: filters.minRating,
            maxRating: filters.maxRating,
            page,
            limit: LIMIT_MAX,
          },
          signal,
        ),
      signal,
    );
    for (const review of list.reviews) byId.set(String(review.id), review);
    onProgress({ fetched: byId.size, total: list.total, page });
    if (isLastPage(list)) break;
  }
  return [...byId.values()];
}

/** Known columns first, in the service's field names; any other field a deployment sends follows. */
const KNOWN_COLUMNS = [
  'id',
  'rating',
  'response_status',
  'status',
  'author_name',
  'text',
  'review_date',
  'platform',
  'response_text',
];

export function csvColumns(reviews: readonly ReviewItem[]): string[] {
  const present = new Set<string>();
  for (const review of reviews) for (const key of Object.keys(review)) present.add(key);
  const known = KNOWN_COLUMNS.filter((column) => present.has(column));
  const extra = [...present].filter((column) => !KNOWN_COLUMNS.includes(column)).sort();
  return [...known, ...extra];
}

/** The reviews as CSV (lib/csv.ts: a real writer, formulas neutralised in every text cell, BOM). */
export function reviewsToCsv(reviews: readonly ReviewItem[]): Promise<string> {
  const columns = csvColumns(reviews);
  return toCsv(
    columns,
    reviews.map((review) => columns.map((column) => (review as Record<string, unknown>)[column])),
  );
}

export function exportFileName(
  filters: Pick<ReviewFilters, 'status' | 'minRating' | 'maxRating'>,
  now = new Date(),
): string {
  const parts = ['reviews'];
  if (filters.status) parts.push(filters.status);
  const lo = filters.minRating;
  const hi = filters.maxRating;
  if (hi !== undefined) parts.push(lo === hi ? `${hi}-stars` : `${lo ?? 1}-to-${hi}-stars`);
  else if (lo !== undefined) parts.push(`${lo}-stars-up`);
  parts.push(now.toISOString().slice(0, 10));
  return `${parts.join('-')}.csv`;
}
