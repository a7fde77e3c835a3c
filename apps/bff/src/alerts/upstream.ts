import { randomUUID } from 'node:crypto';
import {
  type AnalyticsResult,
  analyticsResultSchema,
  isLastPage,
  reviewListSchema,
  type WebhookEndpoint,
  webhookListSchema,
} from '@review-desk/shared';
import { alertExcerpt } from '@review-desk/shared/alerts';
import { z } from 'zod';
import type { RoutedLocation } from '../locations/directory.ts';
import { getFromLocation, type LocationRead, pendingReviewsQuery } from '../locations/upstream-get.ts';
import { retryAfterMs } from './decide.ts';
import type { SeenReview } from './store.ts';

// The reads alerts need, with a location's own upstream and key: the newest reviews, the
// analytics and the webhook endpoints. A refusal never carries the upstream's body (it could echo the key).

/** Reviews asked for per page; the list is newest first (docs/api.md, Listing reviews). */
export const POLL_PAGE_SIZE = 50;
/** Pages one poll reads at most: more new reviews than this in one interval wait for the next. */
export const POLL_MAX_PAGES = 4;

export class UpstreamFailure extends Error {
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  constructor(message: string, status: number | null, retryAfter: number | null = null) {
    super(message);
    this.name = 'UpstreamFailure';
    this.status = status;
    this.retryAfterMs = retryAfter;
  }
}

async function upstreamGet<S extends z.core.$ZodType>(read: LocationRead, schema: S): Promise<z.output<S>> {
  const reply = await getFromLocation(read, randomUUID());
  if (reply.kind === 'error') {
    const timeout = reply.reason === 'timeout';
    throw new UpstreamFailure(timeout ? 'The API did not answer in time' : 'The API is unreachable', null);
  }
  if (reply.status < 200 || reply.status >= 300) {
    throw new UpstreamFailure(
      `The API answered ${reply.status}`,
      reply.status,
      retryAfterMs(reply.headers.get('retry-after'), Date.now()),
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body.toString('utf8'));
  } catch {
    throw new UpstreamFailure('The API answered something other than JSON', reply.status);
  }
  const data = z.safeParse(schema, (parsed as { data?: unknown } | null)?.data);
  if (!data.success) throw new UpstreamFailure('The API answered in an unexpected shape', reply.status);
  return data.data;
}

/**
 * The newest reviews, page after page while every review on a page is unseen (at most
 * POLL_MAX_PAGES): the first page that holds a seen review ends the read, since the list is
 * newest first.
 */
export async function newestReviews(
  location: RoutedLocation,
  seen: (ids: string[]) => Promise<Set<string>>,
  maxPages = POLL_MAX_PAGES,
): Promise<SeenReview[]> {
  const found: SeenReview[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const query = new URLSearchParams({ page: String(page), limit: String(POLL_PAGE_SIZE) });
    const list = await upstreamGet({ location, endpoint: 'reviews', query }, reviewListSchema);
    const reviews = list.reviews.map((r) => ({
      id: String(r.id),
      rating: r.rating,
      author: typeof r.author_name === 'string' ? r.author_name : null,
      excerpt: alertExcerpt(r.text),
      reviewDate: typeof r.review_date === 'string' ? r.review_date : null,
    }));
    found.push(...reviews);
    if (isLastPage(list)) break;
    const known = await seen(reviews.map((r) => r.id));
    if (known.size > 0) break;
  }
  return found;
}

/** How many reviews wait for a response (at or above `minRating`): a one-row page's total. */
export async function pendingCount(location: RoutedLocation, minRating?: number): Promise<number> {
  const query = pendingReviewsQuery(minRating);
  return (await upstreamGet({ location, endpoint: 'reviews', query }, reviewListSchema)).total;
}

/** GET /api/v1/analytics?days=N, read as the Analytics page reads it. */
export function analyticsFor(location: RoutedLocation, days: number): Promise<AnalyticsResult> {
  const query = new URLSearchParams({ days: String(days) });
  return upstreamGet({ location, endpoint: 'analytics', query }, analyticsResultSchema);
}

/** GET /api/v1/webhooks: the location's webhook endpoints (its key needs webhooks:write). */
export async function webhookEndpoints(location: RoutedLocation): Promise<WebhookEndpoint[]> {
  return (
    await upstreamGet({ location, endpoint: 'webhooks', query: new URLSearchParams() }, webhookListSchema)
  ).webhooks;
}
