import { describe, expect, it } from 'vitest';
import { mapBounded } from './fan-out.ts';

/** Stand-in: work that takes `ms`, so several calls overlap. */
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapBounded', () => {
  it('never runs more than the limit at once and keeps the input order', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapBounded([30, 5, 20, 1, 10, 2, 8], 3, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await tick(ms);
      running--;
      return i * 10;
    });
    expect(peak).toBe(3);
    expect(results.map((r) => (r.ok ? r.value : null))).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it("turns one item's failure into that item's error and still answers the others", async () => {
    const results = await mapBounded(['a', 'down', 'c'], 2, async (slug) => {
      if (slug === 'down') throw new Error('unreachable');
      return slug.toUpperCase();
    });
    expect(results[0]).toEqual({ ok: true, value: 'A' });
    expect(results[1]).toMatchObject({ ok: false });
    expect((results[1] as { error: Error }).error.message).toBe('unreachable');
    expect(results[2]).toEqual({ ok: true, value: 'C' });
  });

  it('answers an empty list without calling anything, and refuses a limit below 1', async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
    await expect(mapBounded([1], 0, async () => 1)).rejects.toThrow(RangeError);
  });
});
