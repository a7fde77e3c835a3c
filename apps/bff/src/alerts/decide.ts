import type { SeenReview, Subscriber } from './store.ts';

// The alerts' decisions, apart from any I/O: who hears of a new review, and when a location is
// polled next. Tested with tables in decide.test.ts.

/** The longest a location waits between polls, however long its failures go on. */
export const MAX_BACKOFF_MS = 60 * 60_000;

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

/**
 * The wait before a location's next poll: the interval after a success; after `failures` failures
 * in a row, the interval doubled for each (at most MAX_BACKOFF_MS), and never sooner than the
 * upstream's Retry-After.
 */
export function nextPollDelay(
  intervalMs: number,
  failures: number,
  retryAfterMs: number | null = null,
): number {
  if (failures <= 0) return intervalMs;
  const backoff = Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 20));
  return Math.max(backoff, Math.min(retryAfterMs ?? 0, MAX_BACKOFF_MS));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}
