import { describe, expect, it } from 'vitest';
import { MAX_BACKOFF_MS, nextPollDelay, recipients, retryAfterMs } from './decide.ts';
import type { Subscriber } from './store.ts';

const sub = (userId: string, threshold: number, enabledAt: number): Subscriber => ({
  userId,
  threshold,
  channel: 'email',
  enabledAt,
});

describe('who hears of a new review', () => {
  const subscribers = [sub('strict', 1, 100), sub('default', 2, 100), sub('late', 5, 500), sub('gone', 5, 0)];
  const mayRead = (id: string) => id !== 'gone';
  it.each([
    // rating, previous poll start, who
    [1, 200, ['strict', 'default']],
    [2, 200, ['default']],
    [3, 200, []],
    // turned on after the previous poll started: the review may predate them
    [1, 600, ['strict', 'default', 'late']],
    [5, 600, ['late']],
    // turned on exactly when the previous poll started: that poll saw what existed
    [5, 500, ['late']],
  ])('a %i★ review after a poll at %i alerts %j', (rating, previous, who) => {
    expect(recipients({ rating }, previous, subscribers, mayRead).map((s) => s.userId)).toEqual(who);
  });
});

describe('when a location is polled next', () => {
  it.each([
    // interval, failures, Retry-After, delay
    [120_000, 0, null, 120_000],
    [120_000, 0, 999_000, 120_000],
    [120_000, 1, null, 240_000],
    [120_000, 2, null, 480_000],
    [120_000, 1, 600_000, 600_000],
    [120_000, 40, null, MAX_BACKOFF_MS],
    [120_000, 1, 86_400_000, MAX_BACKOFF_MS],
    [1_000, 3, 1_000, 8_000],
  ])('interval %i after %i failures (Retry-After %s ms) waits %i ms', (interval, failures, retry, delay) => {
    expect(nextPollDelay(interval, failures, retry)).toBe(delay);
  });

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 25 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Wed, 25 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
