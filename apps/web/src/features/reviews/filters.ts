import {
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  PAGE_MAX,
  PAGE_MIN,
  RATING_MAX,
  RATING_MIN,
} from '@review-desk/shared/limits';
import { REVIEW_STATUS_LABELS, REVIEW_STATUSES, type ReviewStatus } from '@review-desk/shared/reviews';

// The Reviews page's state is its URL (?status=&minRating=&maxRating=&limit=&page=): links are shareable,
// Back/Forward and reload keep it. Anything out of range in a hand-edited or old link is corrected
// to the nearest meaningful value, never crashed on (the ranges of docs/api.md, "Limits").

export type ReviewFilters = {
  page: number;
  limit: number;
  status: ReviewStatus | undefined;
  minRating: number | undefined;
  /** With minRating, a range of ratings (the service's extension; docs/api.md, "Design choices"). */
  maxRating: number | undefined;
};

export const DEFAULT_FILTERS: ReviewFilters = {
  page: PAGE_MIN,
  limit: LIMIT_DEFAULT,
  status: undefined,
  minRating: undefined,
  maxRating: undefined,
};

/** Page sizes offered; any other in-range value from a URL is kept and offered too. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export type ParsedFilters = {
  filters: ReviewFilters;
  /** Human-readable notes of what was corrected (empty when the URL was fine). */
  corrections: string[];
};

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

function single(params: URLSearchParams, name: string, corrections: string[]): string | null {
  const all = params.getAll(name);
  if (all.length > 1) corrections.push(`${name} was given ${all.length} times; the first value is used`);
  return all[0] ?? null;
}

function intIn(
  params: URLSearchParams,
  name: string,
  min: number,
  max: number,
  corrections: string[],
): number | undefined {
  const raw = single(params, name, corrections);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d{1,15}$/.test(raw.trim())) {
    corrections.push(`${name} “${raw}” is not a whole number and was ignored`);
    return undefined;
  }
  const value = Number(raw.trim());
  const bounded = clamp(value, min, max);
  if (bounded !== value) corrections.push(`${name} ${value} is outside ${min}–${max} and became ${bounded}`);
  return bounded;
}

export function parseReviewFilters(params: URLSearchParams): ParsedFilters {
  const corrections: string[] = [];
  const page = intIn(params, 'page', PAGE_MIN, PAGE_MAX, corrections) ?? DEFAULT_FILTERS.page;
  const limit = intIn(params, 'limit', LIMIT_MIN, LIMIT_MAX, corrections) ?? DEFAULT_FILTERS.limit;
  let minRating = intIn(params, 'minRating', RATING_MIN, RATING_MAX, corrections);
  let maxRating = intIn(params, 'maxRating', RATING_MIN, RATING_MAX, corrections);
  if (minRating !== undefined && maxRating !== undefined && minRating > maxRating) {
    corrections.push(`minRating ${minRating} is above maxRating ${maxRating}; the two were swapped`);
    [minRating, maxRating] = [maxRating, minRating];
  }
  const rawStatus = single(params, 'status', corrections);
  let status: ReviewStatus | undefined;
  if (rawStatus !== null && rawStatus !== '' && rawStatus !== 'any') {
    const lower = rawStatus.trim().toLowerCase();
    if ((REVIEW_STATUSES as readonly string[]).includes(lower)) status = lower as ReviewStatus;
    else
      corrections.push(`status “${rawStatus}” is not one of ${REVIEW_STATUSES.join(', ')} and was ignored`);
  }
  return { filters: { page, limit, status, minRating, maxRating }, corrections };
}

/** Canonical URL form: defaults left out, fixed order. */
export function reviewFiltersToParams(filters: ReviewFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.minRating !== undefined) params.set('minRating', String(filters.minRating));
  if (filters.maxRating !== undefined) params.set('maxRating', String(filters.maxRating));
  if (filters.limit !== DEFAULT_FILTERS.limit) params.set('limit', String(filters.limit));
  if (filters.page !== DEFAULT_FILTERS.page) params.set('page', String(filters.page));
  return params;
}

/** Whether the URL differs from its canonical form (then the page rewrites it, replacing history). */
export function needsCanonicalUrl(params: URLSearchParams, filters: ReviewFilters): boolean {
  const ours = new URLSearchParams();
  for (const [key, value] of params) {
    if (['status', 'minRating', 'maxRating', 'limit', 'page'].includes(key)) ours.append(key, value);
  }
  return ours.toString() !== reviewFiltersToParams(filters).toString();
}

/** A filter change starts again from page 1; a page change keeps the filters. */
export function withFilter(
  current: ReviewFilters,
  change: Partial<Omit<ReviewFilters, 'page'>>,
): ReviewFilters {
  return { ...current, ...change, page: PAGE_MIN };
}

/** A range of ratings in words: "5★ only", "4★ and up", "1–2★", "up to 3★"; null for every rating. */
export function ratingRangeLabel(
  minRating: number | undefined,
  maxRating: number | undefined,
): string | null {
  const lo = minRating ?? RATING_MIN;
  const hi = maxRating ?? RATING_MAX;
  if (lo <= RATING_MIN && hi >= RATING_MAX) return null;
  if (lo === hi) return `${lo}★ only`;
  if (hi >= RATING_MAX) return `${lo}★ and up`;
  return `${lo}–${hi}★`;
}

/** "status “Waiting” and rating 1–2★" — for the empty state. */
export function describeFilters(filters: Pick<ReviewFilters, 'status' | 'minRating' | 'maxRating'>): string {
  const parts: string[] = [];
  if (filters.status) parts.push(`status “${REVIEW_STATUS_LABELS[filters.status]}”`);
  const rating = ratingRangeLabel(filters.minRating, filters.maxRating);
  if (rating) parts.push(`rating ${rating}`);
  return parts.join(' and ');
}
