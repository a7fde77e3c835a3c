import { describe, expect, it } from 'vitest';
import { inLocation, locationHref, locationOf } from './location.ts';

describe('the location in the address', () => {
  it('reads the slug of /l/<slug>/… and nothing else', () => {
    expect(locationOf('/l/downtown/reviews')).toBe('downtown');
    expect(locationOf('/l/downtown')).toBe('downtown');
    expect(locationOf('/reviews')).toBeNull();
  });

  it("sends the API and the send history to the page's location, everything else as it is", () => {
    expect(inLocation('/api/v1/reviews?page=2', 'airport')).toBe('/l/airport/api/v1/reviews?page=2');
    expect(inLocation('/bff/sends?contact=x', 'airport')).toBe('/l/airport/bff/sends?contact=x');
    expect(inLocation('/bff/sends', 'airport')).toBe('/l/airport/bff/sends');
    for (const path of ['/auth/me', '/bff/users', '/bff/locations', '/bff/sendsx', '/l/other/api/v1/reviews'])
      expect(inLocation(path, 'airport')).toBe(path);
    expect(inLocation('/api/v1/reviews', null)).toBe('/api/v1/reviews');
  });

  it('links a page into another location', () => {
    expect(locationHref('uptown', '/analytics?days=7')).toBe('/l/uptown/analytics?days=7');
  });
});
