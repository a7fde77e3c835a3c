import { describe, expect, it } from 'vitest';
import { analyticsQuerySchema, analyticsResultSchema, completionFigures } from './analytics.ts';
import { validationFailure } from './envelope.ts';
import { queryRecord } from './query.ts';

// GET /api/v1/analytics: days 1 to 365; the default (30) is ours.

describe('analytics query', () => {
  it.each([
    ['', 30],
    ['days=1', 1],
    ['days=7', 7],
    ['days=365', 365],
  ])('accepts ?%s → days %i', (qs, days) => {
    expect(analyticsQuerySchema.parse(queryRecord(qs))).toEqual({ days });
  });

  it.each(['days=0', 'days=366', 'days=-1', 'days=abc', 'days=30.5', 'days=', 'days=7&days=30', 'window=7'])(
    'refuses ?%s naming the parameter',
    (qs) => {
      const result = analyticsQuerySchema.safeParse(queryRecord(qs));
      expect(result.success).toBe(false);
      const envelope = validationFailure(result.error!);
      expect(envelope.error).toMatch(/days|window/);
    },
  );
});

describe('analytics result from any deployment', () => {
  it('reads completed and reviewLeft under requests (the real service)', () => {
    const data = analyticsResultSchema.parse({ requests: { completed: 12, reviewLeft: 9 } });
    expect(completionFigures(data)).toEqual({ completed: 12, reviewLeft: 9 });
  });

  it('reads completed and reviewLeft at the top of data', () => {
    const data = analyticsResultSchema.parse({ completed: 3, reviewLeft: 2 });
    expect(completionFigures(data)).toEqual({ completed: 3, reviewLeft: 2 });
  });

  it('reports a missing figure as null, never zero, and keeps unknown fields', () => {
    const data = analyticsResultSchema.parse({ completed: 0, conversion: 0.4 });
    expect(completionFigures(data)).toEqual({ completed: 0, reviewLeft: null });
    expect(data).toMatchObject({ conversion: 0.4 });
  });

  it('refuses figures of the wrong type', () => {
    expect(analyticsResultSchema.safeParse({ requests: { completed: 'many' } }).success).toBe(false);
    expect(analyticsResultSchema.safeParse({ completed: -1 }).success).toBe(false);
  });
});
