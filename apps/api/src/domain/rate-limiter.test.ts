import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.ts';

describe('GCRA rate limiter', () => {
  it('allows a burst of the per-minute limit, then one request per interval', () => {
    const limiter = createRateLimiter();
    const t0 = 1_000_000;
    const decisions = Array.from({ length: 6 }, () => limiter.check('k', 5, t0));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions[5]!.retryAfterSeconds).toBe(12); // 60 s / 5
    expect(limiter.check('k', 5, t0 + 11_999).allowed).toBe(false);
    expect(limiter.check('k', 5, t0 + 12_000).allowed).toBe(true);
    expect(limiter.check('k', 5, t0 + 12_000).allowed).toBe(false);
  });

  it('keeps keys apart and recovers fully after a minute', () => {
    const limiter = createRateLimiter();
    for (let i = 0; i < 3; i++) limiter.check('a', 3, 0);
    expect(limiter.check('a', 3, 0).allowed).toBe(false);
    expect(limiter.check('b', 3, 0).allowed).toBe(true);
    const later = limiter.check('a', 3, 60_000);
    expect(later.allowed).toBe(true);
    expect(later.remaining).toBe(2);
  });

  it('reports when the allowance is whole again', () => {
    const limiter = createRateLimiter();
    const first = limiter.check('k', 60, 0);
    expect(first.resetSeconds).toBe(1);
    expect(limiter.check('k', 60, 0).resetSeconds).toBe(2);
  });

  it('forgets state a clock jump back left in the future', () => {
    const limiter = createRateLimiter();
    for (let i = 0; i < 2; i++) limiter.check('k', 2, 10 * 86_400_000);
    expect(limiter.check('k', 2, 10 * 86_400_000).allowed).toBe(false);
    expect(limiter.check('k', 2, 0).allowed).toBe(true);
  });
});
