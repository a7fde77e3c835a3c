import { describe, expect, it } from 'vitest';
import { locationSlugSchema, splitLocationPath } from './locations.ts';

describe('location paths', () => {
  it('splits /l/<slug>/rest and leaves other paths alone', () => {
    expect(splitLocationPath('/l/downtown/api/v1/reviews')).toEqual({
      slug: 'downtown',
      rest: '/api/v1/reviews',
    });
    expect(splitLocationPath('/api/v1/reviews')).toBeNull();
    expect(splitLocationPath('/l/downtown')).toEqual({ slug: 'downtown', rest: '/' });
    expect(splitLocationPath('/lx/downtown/api')).toBeNull();
  });

  it('accepts slugs of lower-case letters, digits and inner hyphens only', () => {
    for (const ok of ['downtown', 'a', 'store-12', '9th-ave'])
      expect(locationSlugSchema.safeParse(ok).success).toBe(true);
    for (const bad of ['', '-x', 'x-', 'Down', 'a/b', 'a'.repeat(41), '..'])
      expect(locationSlugSchema.safeParse(bad).success, bad).toBe(false);
  });
});
