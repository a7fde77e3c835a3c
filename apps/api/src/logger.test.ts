import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.ts';

describe('redactUrl', () => {
  it('hides review-link tokens', () => {
    expect(redactUrl('/r/abcDEF123_-xyz')).toBe('/r/[token]');
    expect(redactUrl('/r/abcDEF123_-xyz/go')).toBe('/r/[token]/go');
  });

  it('hides key-like and contact parameters, keeps the rest', () => {
    expect(redactUrl('/api/v1/reviews?page=2&api_key=rd_live_x&limit=5')).toBe(
      '/api/v1/reviews?page=2&api_key=[redacted]&limit=5',
    );
    expect(redactUrl('/api/v1/reviews?status=rd_live_abc')).toBe('/api/v1/reviews?status=[redacted]');
    expect(redactUrl('/dev/outbox.json?to=%2B14155552671')).toBe('/dev/outbox.json?to=[redacted]');
    expect(redactUrl('/api/v1/reviews?TOKEN=abc')).toBe('/api/v1/reviews?TOKEN=[redacted]');
  });
});
