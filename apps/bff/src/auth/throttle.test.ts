import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, describe, expect, it } from 'vitest';
import { ALL_BFF_MIGRATIONS } from '../store/database.ts';
import { createLoginThrottle, LOGIN_LIMITS } from './throttle.ts';

// The login throttle's table is keyed by what anonymous callers send: emails and addresses.

const limits = { ...LOGIN_LIMITS, maxBuckets: 200 };

describeEngines('the login throttle', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: ALL_BFF_MIGRATIONS });
  const rows = async () =>
    Number((await database().db.get<{ n: number }>('SELECT COUNT(*) AS n FROM login_failures'))?.n);

  beforeEach(async () => {
    await database().db.exec('DELETE FROM login_failures');
  });

  describe('under a flood', () => {
    it('adds no account buckets for an address over its limit', async () => {
      const throttle = createLoginThrottle(database().db, limits);
      const now = Date.now();
      for (let i = 0; i < 2_000; i++) await throttle.attempt(`guess${i}@example.com`, '203.0.113.9', now);
      // The address's own bucket and one per account it tried while within its limit.
      expect(await rows()).toBe(1 + LOGIN_LIMITS.perIp);
    });

    it('never holds more than maxBuckets rows, keeps counting the buckets it has, and makes room as windows end', async () => {
      const throttle = createLoginThrottle(database().db, limits);
      const now = Date.now();
      expect(await throttle.attempt('victim@example.com', '198.51.100.1', now)).toBeNull();
      let refused = 0;
      for (let i = 0; i < 2_000; i++) {
        const wait = await throttle.attempt(
          `guess${i}@example.com`,
          `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
          now,
        );
        if (wait !== null) refused++;
      }
      expect(await rows()).toBeLessThanOrEqual(limits.maxBuckets);
      expect(refused).toBeGreaterThan(1_800);
      // A bucket the table holds keeps counting: guessing the victim's password stays limited.
      const guesses: (number | null)[] = [];
      for (let i = 0; i < 6; i++)
        guesses.push(await throttle.attempt('victim@example.com', '198.51.100.1', now));
      expect(guesses.filter((wait) => wait !== null).length).toBeGreaterThan(0);
      // A new caller waits for the oldest window to end, then gets in.
      const wait = await throttle.attempt('new@example.com', '192.0.2.7', now);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(LOGIN_LIMITS.windowMs / 1000);
      expect(
        await throttle.attempt('new@example.com', '192.0.2.7', now + LOGIN_LIMITS.windowMs + 1),
      ).toBeNull();
      expect(await rows()).toBeLessThanOrEqual(limits.maxBuckets);
    });
  });

  it('counts attempts made through two handles on one database together (replicas share the limit)', async () => {
    const a = createLoginThrottle(database().db, limits);
    const b = createLoginThrottle(database().db, limits);
    const now = Date.now();
    const waits = await Promise.all(
      Array.from({ length: LOGIN_LIMITS.perAccount + 3 }, (_, i) =>
        (i % 2 ? a : b).attempt('shared@example.com', `192.0.2.${i}`, now),
      ),
    );
    expect(waits.filter((wait) => wait === null)).toHaveLength(LOGIN_LIMITS.perAccount);
  });
});
