import { openPostgres } from '@review-desk/server/db/postgres/database';
import { createTestDatabase, ENGINES, type TestDatabase } from '@review-desk/server/test-support/databases';
import { afterAll, describe, expect, it } from 'vitest';
import { createRateLimiter, createSharedRateLimiter, RATE_MIGRATIONS, type RateLimiter } from './limiter.ts';

// The same rules whether a key is counted in memory (one process on SQLite) or in the database
// (replicas on PostgreSQL; also runs on SQLite).
const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const db of opened) await db.dispose();
});
const LIMITERS: [string, () => Promise<RateLimiter>][] = [
  ['in memory', async () => createRateLimiter()],
  ...ENGINES.map((engine): [string, () => Promise<RateLimiter>] => [
    `in the database (${engine})`,
    async () => {
      const test = await createTestDatabase(engine, { migrations: [RATE_MIGRATIONS] });
      opened.push(test);
      return createSharedRateLimiter(test.db, { callerClock: true });
    },
  ]),
];

describe.each(LIMITERS)('GCRA rate limiter %s', (_name, make) => {
  it('allows a burst of the per-minute limit, then one request per interval', async () => {
    const limiter = await make();
    const t0 = 1_000_000;
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await limiter.check('k', 5, t0));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions[5]!.retryAfterSeconds).toBe(12); // 60 s / 5
    expect((await limiter.check('k', 5, t0 + 11_999)).allowed).toBe(false);
    expect((await limiter.check('k', 5, t0 + 12_000)).allowed).toBe(true);
    expect((await limiter.check('k', 5, t0 + 12_000)).allowed).toBe(false);
  });

  it('keeps keys apart and recovers fully after a minute', async () => {
    const limiter = await make();
    for (let i = 0; i < 3; i++) await limiter.check('a', 3, 0);
    expect((await limiter.check('a', 3, 0)).allowed).toBe(false);
    expect((await limiter.check('b', 3, 0)).allowed).toBe(true);
    const later = await limiter.check('a', 3, 60_000);
    expect(later.allowed).toBe(true);
    expect(later.remaining).toBe(2);
  });

  it('reports when the allowance is whole again', async () => {
    const limiter = await make();
    const first = await limiter.check('k', 60, 0);
    expect(first.resetSeconds).toBe(1);
    expect((await limiter.check('k', 60, 0)).resetSeconds).toBe(2);
  });

  it('forgets state a clock jump back left in the future', async () => {
    const limiter = await make();
    for (let i = 0; i < 2; i++) await limiter.check('k', 2, 10 * 86_400_000);
    expect((await limiter.check('k', 2, 10 * 86_400_000)).allowed).toBe(false);
    expect((await limiter.check('k', 2, 0)).allowed).toBe(true);
  });
});

describe('a key counted in PostgreSQL by two processes', () => {
  it('lets exactly the per-minute limit through when calls race from two pools', async () => {
    const test = await createTestDatabase('postgres', { migrations: [RATE_MIGRATIONS] });
    opened.push(test);
    const other = await openPostgres({ url: test.url, poolSize: 5 });
    try {
      // The database's clock times every call: both "replicas" count on one clock.
      const limiters = [createSharedRateLimiter(test.db), createSharedRateLimiter(other)];
      const calls = Array.from({ length: 200 }, (_, i) => limiters[i % 2]!.check('key-1', 120, Date.now()));
      const decisions = await Promise.all(calls);
      const allowed = decisions.filter((d) => d.allowed).length;
      // GCRA refills one call every 500 ms while the race runs.
      expect(allowed).toBeGreaterThanOrEqual(120);
      expect(allowed).toBeLessThanOrEqual(121);
      const refused = decisions.find((d) => !d.allowed)!;
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    } finally {
      await other.close();
    }
  });
});
