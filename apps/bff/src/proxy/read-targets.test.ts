import { describe, expect, it } from 'vitest';
import { createReadTargets, TARGETS_MAX } from './read-targets.ts';

// The read targets are remembered by the query string a caller sends: bounded whatever is sent.

describe('the read targets under a flood', () => {
  it('keeps no invalid query and at most TARGETS_MAX valid ones per endpoint, and still answers each', () => {
    const targets = createReadTargets();
    for (let i = 0; i < 5_000; i++) {
      expect(() => targets.resolve('reviews', `limit=${1_000 + i}`)).toThrow();
      expect(() => targets.resolve('analytics', `junk${i}=1`)).toThrow();
    }
    expect(targets.size()).toBe(0);
    for (let page = 1; page <= 5 * TARGETS_MAX; page++) {
      expect(targets.resolve('reviews', `page=${page}`)).toBe(`/api/v1/reviews?page=${page}&limit=20`);
      expect(targets.size()).toBeLessThanOrEqual(TARGETS_MAX);
    }
    expect(targets.resolve('analytics', 'days=7')).toBe('/api/v1/analytics?days=7');
    expect(targets.size()).toBeLessThanOrEqual(2 * TARGETS_MAX);
  });
});

describe('the reviews list’s rating range', () => {
  it('forwards maxRating beside minRating, in the canonical order, and refuses a range upside down', () => {
    const targets = createReadTargets();
    expect(targets.resolve('reviews', 'maxRating=2&minRating=1')).toBe(
      '/api/v1/reviews?page=1&limit=20&minRating=1&maxRating=2',
    );
    expect(targets.resolve('reviews', 'maxRating=3')).toBe('/api/v1/reviews?page=1&limit=20&maxRating=3');
    expect(() => targets.resolve('reviews', 'minRating=4&maxRating=2')).toThrow(
      /maxRating must be at least minRating/,
    );
  });
});
