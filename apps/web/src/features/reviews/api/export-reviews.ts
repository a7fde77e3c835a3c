import { LIMIT_MAX } from '@review-desk/shared/limits';
import { isLastPage, type ReviewItem } from '@review-desk/shared/reviews';
import { withReadRetry } from '../../../lib/retry-policy.ts';
import type { ReviewFilters } from '../filters.ts';
import { getReviews } from './get-reviews.ts';

export type ExportProgress = { fetched: number; total: number; page: number };

/**
 * Every review matching the filters, walked at the largest page size (seed §8: limit ≤ 100) and
 * stopped by the seed's rule (§4: reviews empty, or page × limit ≥ total). Each page read uses
 * the same retry policy as the dashboard's queries. Rows that shift between pages while the walk
 * runs (a new review arriving) are kept once, by id.
 */
export async function fetchAllReviews(
  filters: Pick<ReviewFilters, 'status' | 'minRating'>,
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<ReviewItem[]> {
  const byId = new Map<string, ReviewItem>();
  for (let page = 1; ; page++) {
    signal?.throwIfAborted();
    const list = await withReadRetry(
      () =>
        getReviews({ status: filters.status, minRating: filters.minRating, page, limit: LIMIT_MAX }, signal),
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

function cell(value: unknown): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/**
 * CSV through papaparse (quoting, embedded newlines and quotes handled by a real writer), with
 * formula escaping on: review text is written by customers, and a cell starting with "=" must
 * not run as a formula in a spreadsheet. A BOM lets spreadsheet apps read UTF-8 accents.
 */
export async function reviewsToCsv(reviews: readonly ReviewItem[]): Promise<string> {
  const { default: Papa } = await import('papaparse');
  const columns = csvColumns(reviews);
  const rows = reviews.map((review) =>
    columns.map((column) => cell((review as Record<string, unknown>)[column])),
  );
  return `\ufeff${Papa.unparse({ fields: columns, data: rows }, { escapeFormulae: true, newline: '\r\n' })}`;
}

export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export function exportFileName(
  filters: Pick<ReviewFilters, 'status' | 'minRating'>,
  now = new Date(),
): string {
  const parts = ['reviews'];
  if (filters.status) parts.push(filters.status);
  if (filters.minRating !== undefined) parts.push(`${filters.minRating}-stars-up`);
  parts.push(now.toISOString().slice(0, 10));
  return `${parts.join('-')}.csv`;
}
