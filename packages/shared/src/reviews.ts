import { RATING_MAX, RATING_MIN } from './limits.ts';
import { pageFields, pageOf, pagingParams } from './paging.ts';
import { intParam, oneOfParam, searchParamsOf } from './query.ts';
import { z } from './zod.ts';

// GET /api/v1/reviews: review items, paging and limits (docs/api.md).

export const REVIEW_STATUSES = ['pending', 'responded', 'ignored'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
/** Each status as the dashboard names it (the inbox's words: a review waits for an answer). */
export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  pending: 'Waiting',
  responded: 'Answered',
  ignored: 'Ignored',
};
export const reviewStatusSchema = /* @__PURE__ */ z.enum(REVIEW_STATUSES, {
  error: `status must be one of ${REVIEW_STATUSES.join(', ')}`,
});

/** `direct`: left through a review-request link. The others are synced from external networks. */
export const DIRECT_PLATFORM = 'direct';
export const SYNCED_PLATFORMS = ['google', 'facebook', 'yelp'] as const;
export type SyncedPlatform = (typeof SYNCED_PLATFORMS)[number];
export const PLATFORMS = [DIRECT_PLATFORM, ...SYNCED_PLATFORMS] as const;

/** Synced reviews are imported from external networks and reported apart from request counts. */
export function isSyncedPlatform(platform: string | null | undefined): boolean {
  return typeof platform === 'string' && platform !== '' && platform !== DIRECT_PLATFORM;
}

const RATING_WORDS = `rating must be a whole number from ${RATING_MIN} to ${RATING_MAX}`;
export const ratingSchema = /* @__PURE__ */ z
  .number()
  .check(
    z.int({ error: RATING_WORDS }),
    z.gte(RATING_MIN, { error: RATING_WORDS }),
    z.lte(RATING_MAX, { error: RATING_WORDS }),
  );

/** The list's order: newest first (the API's), or oldest first (the inbox: who waited longest). */
export const REVIEW_ORDERS = ['newest', 'oldest'] as const;
export type ReviewOrder = (typeof REVIEW_ORDERS)[number];

/**
 * Query of GET /api/v1/reviews, from a query record (see `queryRecord`). Unknown parameters are
 * refused. `maxRating`, `platform` and `order` are this service's extensions (docs/api.md).
 */
export const reviewsQuerySchema = /* @__PURE__ */ z
  .strictObject({
    ...pagingParams(),
    status: oneOfParam('status', REVIEW_STATUSES, reviewStatusSchema),
    minRating: z.optional(intParam('minRating', RATING_MIN, RATING_MAX)),
    maxRating: z.optional(intParam('maxRating', RATING_MIN, RATING_MAX)),
    platform: oneOfParam(
      'platform',
      PLATFORMS,
      z.enum(PLATFORMS, { error: `platform must be one of ${PLATFORMS.join(', ')}` }),
    ),
    order: oneOfParam(
      'order',
      REVIEW_ORDERS,
      z.enum(REVIEW_ORDERS, { error: `order must be one of ${REVIEW_ORDERS.join(', ')}` }),
    ),
  })
  .check(
    z.refine((q) => q.minRating === undefined || q.maxRating === undefined || q.minRating <= q.maxRating, {
      error: 'maxRating must be at least minRating',
      path: ['maxRating'],
    }),
  );
export type ReviewsQuery = z.output<typeof reviewsQuerySchema>;

export const reviewsSearchParams = /* @__PURE__ */ searchParamsOf(reviewsQuerySchema);

/**
 * A review as our service writes it, in the real service's field names. Dates are ISO 8601.
 */
export const reviewSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  rating: ratingSchema,
  response_status: reviewStatusSchema,
  author_name: z.nullable(z.string()),
  text: z.nullable(z.string()),
  review_date: z.string(),
  response_text: z.nullable(z.string()),
  platform: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;

/**
 * A review as a client reads it from any deployment (docs/api.md, "Review items": no
 * shape is promised). Only `id`, `rating` and a status are required; the status may be called
 * `response_status` (the real service) or `status`. Unknown fields are kept for display.
 * A status outside the known three is kept as text rather than failing the whole page.
 */
export const reviewItemSchema = /* @__PURE__ */ z
  .looseObject({
    id: z.union([z.string(), z.number()]),
    rating: ratingSchema,
    response_status: z.optional(z.string()),
    status: z.optional(z.string()),
    author_name: z.nullish(z.string()),
    text: z.nullish(z.string()),
    review_date: z.nullish(z.string()),
    response_text: z.nullish(z.string()),
    platform: z.nullish(z.string()),
  })
  .check(
    z.refine((item) => typeof (item.response_status ?? item.status) === 'string', {
      error: 'review has no status (response_status or status)',
      path: ['response_status'],
    }),
  );
export type ReviewItem = z.infer<typeof reviewItemSchema>;

export function reviewStatusOf(item: ReviewItem): string {
  return (item.response_status ?? item.status) as string;
}

/** The review list inside `data` (docs/api.md, "Paging the reviews"). */
export const reviewListSchema = /* @__PURE__ */ z.looseObject({
  ...pageFields,
  reviews: z.array(reviewItemSchema),
});
export type ReviewList = z.infer<typeof reviewListSchema>;

/** The list our service writes (strict review items). */
export const reviewListOutputSchema = /* @__PURE__ */ pageOf('reviews', reviewSchema);

/** The API's paging rule: stop when reviews is empty or when page × limit reaches total. */
export function isLastPage(list: {
  page: number;
  limit: number;
  total: number;
  reviews: readonly unknown[];
}): boolean {
  return list.reviews.length === 0 || list.page * list.limit >= list.total;
}

/** 1-based positions of the first and last item of a page ("21–40 of 57"); 0–0 when empty. */
export function pageRange(list: { page: number; limit: number; reviews: readonly unknown[] }): {
  from: number;
  to: number;
} {
  if (list.reviews.length === 0) return { from: 0, to: 0 };
  const from = (list.page - 1) * list.limit + 1;
  return { from, to: from + list.reviews.length - 1 };
}
