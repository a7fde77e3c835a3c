import type { ReviewItem } from '@review-desk/shared/reviews';

// The inbox: every review still waiting for an answer (pending) across the user's locations,
// oldest first. Its state is its URL (?source=&rating=&location=). Each location is read oldest
// first, a slice at a time; the slices are merged by date, and only what is sure to be in order is
// shown: nothing newer than the newest review read so far of a location that has more to read.

/** The inbox's queries (each filter and depth its own): read again after any change to a review. */
export const INBOX_KEY = ['inbox'] as const;

export const INBOX_SOURCES = ['all', 'direct', 'google', 'facebook', 'yelp'] as const;
export type InboxSource = (typeof INBOX_SOURCES)[number];
export const SOURCE_LABELS: Record<InboxSource, string> = {
  all: 'All sources',
  direct: 'Our review page',
  google: 'Google',
  facebook: 'Facebook',
  yelp: 'Yelp',
};

export const INBOX_RATINGS = ['any', 'low', 'middle', 'high'] as const;
export type InboxRating = (typeof INBOX_RATINGS)[number];
export const RATING_RANGES: Record<InboxRating, { label: string; min?: number; max?: number }> = {
  any: { label: 'Any rating' },
  low: { label: '1–2★', min: 1, max: 2 },
  middle: { label: '3★', min: 3, max: 3 },
  high: { label: '4–5★', min: 4, max: 5 },
};

export type InboxFilters = { source: InboxSource; rating: InboxRating; location: string | null };

/** Reviews read per location for each "Show more". */
export const INBOX_SLICE = 50;

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

export function parseInboxFilters(params: URLSearchParams): InboxFilters {
  return {
    source: oneOf(INBOX_SOURCES, params.get('source'), 'all'),
    rating: oneOf(INBOX_RATINGS, params.get('rating'), 'any'),
    location: params.get('location') || null,
  };
}

export function inboxFiltersToParams(filters: InboxFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.source !== 'all') params.set('source', filters.source);
  if (filters.rating !== 'any') params.set('rating', filters.rating);
  if (filters.location) params.set('location', filters.location);
  return params;
}

/** The reviews list query of one location's slice (GET /api/v1/reviews). */
export function inboxQuery(filters: InboxFilters, page: number, limit: number) {
  const range = RATING_RANGES[filters.rating];
  return {
    page,
    limit,
    status: 'pending' as const,
    order: 'oldest' as const,
    ...(filters.source !== 'all' ? { platform: filters.source } : {}),
    ...(range.min !== undefined && range.min > 1 ? { minRating: range.min } : {}),
    ...(range.max !== undefined && range.max < 5 ? { maxRating: range.max } : {}),
  };
}

export type InboxSlice = { slug: string; name: string; reviews: readonly ReviewItem[]; total: number };
export type InboxItem = { slug: string; locationName: string; review: ReviewItem; at: number };

const timeOf = (review: ReviewItem) => {
  const at = review.review_date ? Date.parse(review.review_date) : Number.NaN;
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
};

/**
 * The slices merged oldest first (ties: the locations' order, then the list's), up to what is
 * sure: a location with more to read bounds the merge at its newest review read. `more` says
 * whether anything is left to read anywhere.
 */
export function mergeInbox(slices: readonly InboxSlice[]): {
  items: InboxItem[];
  more: boolean;
  waiting: number;
} {
  let bound = Number.POSITIVE_INFINITY;
  for (const slice of slices) {
    const last = slice.reviews.at(-1);
    if (slice.reviews.length < slice.total && last) bound = Math.min(bound, timeOf(last));
  }
  const items: (InboxItem & { order: number })[] = [];
  let order = 0;
  for (const slice of slices)
    for (const review of slice.reviews) {
      const at = timeOf(review);
      if (at <= bound) items.push({ slug: slice.slug, locationName: slice.name, review, at, order: order++ });
    }
  items.sort((a, b) => a.at - b.at || a.order - b.order);
  const read = slices.reduce((n, s) => n + s.reviews.length, 0);
  const waiting = slices.reduce((n, s) => n + s.total, 0);
  return { items: items.map(({ order: _, ...item }) => item), more: read < waiting, waiting };
}

/** The item after `key` in the list (the next to answer), or the one before it when it was last. */
export function nextAfter(items: readonly InboxItem[], key: string): InboxItem | null {
  const at = items.findIndex((item) => itemKey(item) === key);
  if (at === -1) return items[0] ?? null;
  return items[at + 1] ?? items[at - 1] ?? null;
}

export const itemKey = (item: Pick<InboxItem, 'slug' | 'review'>) => `${item.slug}:${String(item.review.id)}`;
