// How scheduled work that calls another service waits after failures (the alerts' polls, the
// Google sync): the interval after a success; after failures in a row, the interval doubled for
// each, at most an hour, and never sooner than the other service's Retry-After.

/** The longest a poll waits, however long its failures go on. */
export const MAX_BACKOFF_MS = 60 * 60_000;

/**
 * The wait before the next poll: the interval after a success; after `failures` failures in a
 * row, the interval doubled for each (at most MAX_BACKOFF_MS), and never sooner than the other
 * service's Retry-After.
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
