import { describe, expect, it } from 'vitest';
import { holdsKey, redactUrl } from './log.ts';

const KEY = `rd_live_${'A'.repeat(43)}`;
const REVIEW_LINK = { pattern: /^\/r\/[^/?#]+/, replacement: '/r/[token]' };

describe('redactUrl', () => {
  it('hides a key wherever it is: a parameter name without a value, a name, a value, a path segment', () => {
    for (const url of [
      `/api/v1/reviews?${KEY}`,
      `/api/v1/reviews?page=2&${KEY}`,
      `/api/v1/reviews?${KEY}=1`,
      `/api/v1/reviews?status=${KEY}`,
      `/api/v1/${KEY}/reviews`,
      `/api/v1/reviews?x=${encodeURIComponent(KEY)}`,
      `/api/v1/reviews?%72d_live_${'A'.repeat(43)}`,
      `/api/v1/reviews?status=RD_LIVE_abc`,
    ]) {
      const logged = redactUrl(url);
      expect(logged, url).not.toMatch(/rd_live_/i);
      expect(logged, url).not.toContain('A'.repeat(43));
      expect(logged, url).toContain('[redacted]');
    }
    expect(redactUrl(`/api/v1/reviews?page=2&${KEY}&limit=5`)).toBe(
      '/api/v1/reviews?page=2&[redacted]&limit=5',
    );
    expect(redactUrl(`/api/v1/${KEY}/reviews`)).toBe('/api/v1/[redacted]/reviews');
  });

  it('hides the values of key-carrying and contact parameters by name, keeps the rest as it came', () => {
    expect(redactUrl('/api/v1/reviews?page=2&api_key=abc&limit=5')).toBe(
      '/api/v1/reviews?page=2&api_key=[redacted]&limit=5',
    );
    expect(redactUrl('/api/v1/reviews?TOKEN=abc')).toBe('/api/v1/reviews?TOKEN=[redacted]');
    expect(redactUrl('/dev/outbox.json?to=%2B14155552671')).toBe('/dev/outbox.json?to=[redacted]');
    expect(redactUrl('/bff/sends?contact=ana%40example.com&page=1')).toBe(
      '/bff/sends?contact=[redacted]&page=1',
    );
    expect(redactUrl('/api/v1/reviews?status=pending&minRating=4')).toBe(
      '/api/v1/reviews?status=pending&minRating=4',
    );
    expect(redactUrl('/healthz')).toBe('/healthz');
  });

  it('applies a service’s own path patterns (the review link’s token)', () => {
    expect(redactUrl('/r/abcDEF123_-xyz', [REVIEW_LINK])).toBe('/r/[token]');
    expect(redactUrl('/r/abcDEF123_-xyz/go?x=1', [REVIEW_LINK])).toBe('/r/[token]/go?x=1');
    expect(redactUrl('/r/abcDEF123_-xyz')).toBe('/r/abcDEF123_-xyz');
  });
});

describe('holdsKey', () => {
  it('finds the key prefix raw or percent-encoded, and survives malformed encoding', () => {
    expect(holdsKey('x rd_live_y')).toBe(true);
    expect(holdsKey('%72%64%5Flive_y')).toBe(true);
    expect(holdsKey('%E0%A4%A')).toBe(false);
    expect(holdsKey('rd-live')).toBe(false);
  });
});
