import type { SeenReview, Subscriber } from './store.ts';

export { MAX_BACKOFF_MS, nextPollDelay, retryAfterMs } from '@review-desk/server/backoff';

// The alerts' decisions, apart from any I/O: who hears of a new review, and when a location is
// polled next (the back-off is the server kit's, backoff.ts, shared with the Google sync). Tested
// with tables in decide.test.ts.

/**
 * Who is alerted of a review no poll had seen: subscribers whose threshold it is at or below,
 * who may read this location's reviews, and whose alerts were on when the previous poll started
 * (otherwise the review may have existed when they turned alerts on: it is their baseline).
 */
export function recipients(
  review: Pick<SeenReview, 'rating'>,
  previousPollAt: number,
  subscribers: readonly Subscriber[],
  mayRead: (userId: string) => boolean,
): Subscriber[] {
  return subscribers.filter(
    (s) => review.rating <= s.threshold && s.enabledAt <= previousPollAt && mayRead(s.userId),
  );
}
