import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeEngines, useTestDatabase } from '../../test-support/databases.ts';
import { decisionOf, RATE_PERIOD_MS, type RateStore, rateInterval, retryAfterSeconds, take } from './gcra.ts';
import { memoryRateStore } from './memory.ts';
import { sqlRateStore } from './sql.ts';

// GCRA written once: the rules (gcra.ts) and the two stores that keep its times, the memory one and
// the SQL one on both engines, give the same answers to the same calls.

const T0 = Date.UTC(2030, 0, 1);

describe('GCRA', () => {
  it('lets a burst of the limit through, then one call an interval, and says how long to wait', () => {
    const interval = rateInterval(5);
    let tat: number | undefined;
    const granted = [];
    for (let i = 0; i < 6; i++) {
      const taken = take(tat, T0, interval, 1);
      granted.push(taken.granted);
      if (taken.granted) tat = taken.tat;
    }
    expect(granted).toEqual([1, 1, 1, 1, 1, 0]);
    const refused = take(tat, T0, interval, 1);
    expect(retryAfterSeconds(refused, interval)).toBe(12);
    expect(decisionOf(refused, 5)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 12 });
    expect(take(tat, T0 + 11_999, interval, 1).granted).toBe(0);
    expect(take(tat, T0 + 12_000, interval, 1).granted).toBe(1);
  });

  it('grants the first of several calls that fit, as that many calls one after the other would', () => {
    const interval = rateInterval(6);
    expect(take(undefined, T0, interval, 9)).toEqual({ granted: 6, tat: T0 + RATE_PERIOD_MS, at: T0 });
    const after = take(T0 + 40_000, T0, interval, 5);
    expect(after).toEqual({ granted: 2, tat: T0 + 60_000, at: T0 });
  });

  it('counts from now when the stored time lies more than two periods ahead (the clock went back)', () => {
    const interval = rateInterval(2);
    expect(take(T0 + 2 * RATE_PERIOD_MS, T0, interval, 1).granted).toBe(0);
    expect(take(T0 + 2 * RATE_PERIOD_MS + 1, T0, interval, 1).granted).toBe(1);
  });
});

// The shape every rate table has (sql.ts).
const TABLE = `CREATE TABLE IF NOT EXISTS rate_test (k TEXT PRIMARY KEY, tat BIGINT NOT NULL,
  allowed INTEGER NOT NULL, granted INTEGER NOT NULL DEFAULT 0, at BIGINT NOT NULL DEFAULT 0)`;

describeEngines('the rate stores', (dialect) => {
  const database = useTestDatabase(dialect);
  beforeEach(() => database().db.exec(TABLE));

  it('answer every sequence of calls as the rules do, in memory and in SQL', async () => {
    const call = fc.record({
      key: fc.constantFrom('a', 'b'),
      step: fc.integer({ min: 0, max: 40_000 }),
      back: fc.boolean(),
      calls: fc.integer({ min: 1, max: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.array(call, { maxLength: 30 }),
        async (perMinute, calls) => {
          await database().db.exec('DELETE FROM rate_test');
          const stores: RateStore[] = [
            memoryRateStore(),
            sqlRateStore(database().db, { table: 'rate_test', key: 'k' }),
          ];
          const interval = rateInterval(perMinute);
          let now = T0;
          for (const c of calls) {
            now += c.back ? -3 * RATE_PERIOD_MS : c.step;
            const [memory, sql] = await Promise.all(stores.map((s) => s.take(c.key, now, interval, c.calls)));
            expect(sql).toEqual(memory);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('forget the callers whose whole limit is back, however many called', async () => {
    const db = database().db;
    await db.exec('DELETE FROM rate_test');
    const memory = memoryRateStore();
    const stores = [memory, sqlRateStore(db, { table: 'rate_test', key: 'k' })];
    for (const store of stores) for (let i = 0; i < 500; i++) await store.take(`caller-${i}`, T0, 1_000, 1);
    const rows = async () => Number((await db.get<{ n: number }>('SELECT count(*) AS n FROM rate_test'))?.n);
    expect([memory.callers(), await rows()]).toEqual([500, 500]);
    for (const store of stores) await store.sweep(T0 + 999);
    expect([memory.callers(), await rows()]).toEqual([500, 500]);
    for (const store of stores) await store.sweep(T0 + 1_000);
    expect([memory.callers(), await rows()]).toEqual([0, 0]);
    // Each store sweeps by itself once a period: a flood of callers does not outlive it.
    for (const store of stores)
      for (let i = 0; i < 500; i++) await store.take(`later-${i}`, T0 + 2_000, 1_000, 1);
    for (const store of stores) await store.take('next', T0 + 2_000 + RATE_PERIOD_MS, 1_000, 1);
    expect([memory.callers(), await rows()]).toEqual([1, 1]);
  });
});
