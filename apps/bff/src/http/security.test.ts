import { describe, expect, it } from 'vitest';
import { unsafeTargetReason } from './security.ts';

describe('unsafeTargetReason', () => {
  it('accepts ordinary paths and queries, including encoded characters in the query', () => {
    for (const url of [
      '/',
      '/api/v1/reviews',
      '/api/v1/reviews?status=pending&limit=5',
      '/bff/sends?contact=a%25b%40x.com',
      '/reviews/caf%C3%A9',
    ]) {
      expect(unsafeTargetReason(url)).toBeNull();
    }
  });

  it('refuses targets that could be decoded into another path', () => {
    for (const url of [
      'http://example.com/api/v1/reviews',
      '*',
      '//api/v1/reviews',
      '/api//v1',
      '/api\\v1',
      '/api/%2e%2e/x',
      '/api/%2E/x',
      '/api%2fv1',
      '/api%5Cv1',
      '/api/%252e%252e/x',
      '/api/%00',
      '/api/../x',
      '/api/./x',
      '/..',
      '/api/v1/..',
    ]) {
      expect(unsafeTargetReason(url), url).not.toBeNull();
    }
  });
});
