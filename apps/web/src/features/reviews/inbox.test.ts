import type { ReviewItem } from '@review-desk/shared/reviews';
import { describe, expect, it } from 'vitest';
import { inboxQuery, mergeInbox, nextAfter, parseInboxFilters } from './inbox.ts';

const at = (id: string, day: number): ReviewItem => ({
  id,
  rating: 1,
  response_status: 'pending',
  review_date: new Date(Date.UTC(2030, 0, day)).toISOString(),
});

describe('mergeInbox', () => {
  it('merges oldest first, showing only what is sure: nothing newer than the last read of a location with more', () => {
    const merged = mergeInbox([
      { slug: 'a', name: 'A', reviews: [at('a1', 1), at('a2', 5)], total: 9 },
      { slug: 'b', name: 'B', reviews: [at('b1', 2), at('b2', 7)], total: 2 },
    ]);
    // a has more to read after day 5: b's day-7 review waits until a is read further.
    expect(merged.items.map((i) => String(i.review.id))).toEqual(['a1', 'b1', 'a2']);
    expect(merged).toMatchObject({ more: true, waiting: 11 });
    const whole = mergeInbox([{ slug: 'b', name: 'B', reviews: [at('b1', 2), at('b2', 7)], total: 2 }]);
    expect(whole).toMatchObject({ more: false, waiting: 2 });
    expect(whole.items).toHaveLength(2);
  });

  it('moves on to the next item after the one answered, or the one before it when it was last', () => {
    const { items } = mergeInbox([
      { slug: 'a', name: 'A', reviews: [at('1', 1), at('2', 2), at('3', 3)], total: 3 },
    ]);
    expect(String(nextAfter(items, 'a:2')?.review.id)).toBe('3');
    expect(String(nextAfter(items, 'a:3')?.review.id)).toBe('2');
  });
});

describe('the inbox’s address', () => {
  it('reads its filters, falling back on the defaults, and asks for pending reviews oldest first', () => {
    const filters = parseInboxFilters(new URLSearchParams('source=google&rating=high&location=mall'));
    expect(filters).toEqual({ source: 'google', rating: 'high', location: 'mall' });
    expect(parseInboxFilters(new URLSearchParams('source=tiktok&rating=9'))).toEqual({
      source: 'all',
      rating: 'any',
      location: null,
    });
    expect(inboxQuery(filters, 2, 50)).toEqual({
      page: 2,
      limit: 50,
      status: 'pending',
      order: 'oldest',
      platform: 'google',
      minRating: 4,
    });
  });
});
