import { describe, expect, it } from 'vitest';
import { createViewCache } from './cache.ts';

// The visitors' cache: bounded however many widgets are viewed, one build per business however
// many views wait, never keeping what a change overtook, served stale while it is built again.

type Entry = { key: number; version: number; size: number; day?: number };

function harness(limits = { maxEntries: 50, maxBytes: 10_000, ttlMs: 1_000 }) {
  let clock = 0;
  const versions = new Map<number, number>();
  const builds: number[] = [];
  const pending: (() => void)[] = [];
  let hold = false;
  let fail = false;
  let today = 0;
  const cache = createViewCache<Entry>({
    build: async (key) => {
      builds.push(key);
      const version = versions.get(key) ?? 0; // read "before the change" when held
      if (hold) await new Promise<void>((resolve) => pending.push(resolve));
      if (fail) throw new Error('database away');
      return { key, version, size: 100, day: today };
    },
    bytes: (entry) => entry.size,
    fresh: (entry) => entry.day === today,
    limits,
    now: () => clock,
  });
  return {
    cache,
    builds,
    change: (key: number) => versions.set(key, (versions.get(key) ?? 0) + 1),
    advance: (ms: number) => {
      clock += ms;
    },
    nextDay: () => {
      today++;
    },
    hold: (on: boolean) => {
      hold = on;
    },
    release: () => {
      for (const resolve of pending.splice(0)) resolve();
    },
    fail: (on: boolean) => {
      fail = on;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the widgets cache', () => {
  it('keeps at most maxEntries businesses and maxBytes of bodies, however many are viewed', async () => {
    const byCount = harness({ maxEntries: 50, maxBytes: 1_000_000, ttlMs: 60_000 });
    for (let key = 0; key < 5_000; key++) await byCount.cache.lookup(key);
    expect(byCount.cache.size()).toBe(50);
    const byBytes = harness({ maxEntries: 10_000, maxBytes: 2_500, ttlMs: 60_000 });
    for (let key = 0; key < 5_000; key++) await byBytes.cache.lookup(key);
    expect(byBytes.cache.bytes()).toBeLessThanOrEqual(2_500);
    expect(byBytes.cache.size()).toBe(25);
    // The most recently viewed stay.
    expect(byBytes.cache.lookup(4_999)).toMatchObject({ key: 4_999 });
  });

  it('builds once for many views arriving together, and answers the next from memory', async () => {
    const h = harness();
    h.hold(true);
    const views = Array.from({ length: 100 }, () => h.cache.lookup(7));
    h.release();
    const answers = await Promise.all(views);
    expect(h.builds).toEqual([7]);
    expect(answers.every((a) => a?.key === 7)).toBe(true);
    expect(h.cache.lookup(7)).toMatchObject({ key: 7 });
    expect(h.builds).toEqual([7]);
  });

  it('never keeps a build a change overtook: the next view waits for one made after it', async () => {
    const h = harness();
    h.hold(true);
    const before = h.cache.lookup(3);
    await settle();
    h.change(3);
    h.cache.drop(3);
    h.hold(false);
    h.release();
    await before;
    const after = await h.cache.lookup(3);
    expect(after).toMatchObject({ version: 1 });
    expect(h.builds).toEqual([3, 3]);
  });

  it('serves a stale entry while it is built again, after its time or on a new day', async () => {
    const h = harness();
    await h.cache.lookup(1);
    h.change(1);
    h.advance(1_001);
    expect(h.cache.lookup(1)).toMatchObject({ version: 0 }); // at once, the old one
    await settle();
    expect(h.cache.lookup(1)).toMatchObject({ version: 1 });
    h.nextDay();
    expect(h.cache.lookup(1)).toMatchObject({ day: 0 });
    await settle();
    expect(h.cache.lookup(1)).toMatchObject({ day: 1 });
    expect(h.builds).toEqual([1, 1, 1]);
  });

  it('keeps serving the last entry when a background build fails', async () => {
    const h = harness();
    await h.cache.lookup(2);
    h.fail(true);
    h.advance(1_001);
    expect(h.cache.lookup(2)).toMatchObject({ key: 2 });
    await settle();
    expect(h.cache.lookup(2)).toMatchObject({ key: 2 });
    h.cache.clear();
    await expect(h.cache.lookup(2)).rejects.toThrow('database away');
  });
});
