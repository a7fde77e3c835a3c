import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, describe, expect, it } from 'vitest';
import { ALL_BFF_MIGRATIONS } from '../store/database.ts';
import { type Attempt, createLoginThrottle, LOGIN_LIMITS } from './throttle.ts';

// The login throttle's table is keyed by what anonymous callers send: emails and addresses.

const limits = { ...LOGIN_LIMITS, maxBuckets: 200 };
/** A guess: checked (and wrong) when the throttle lets it be checked. */
const guess = async (pending: Promise<Attempt>): Promise<Attempt> => {
  const attempt = await pending;
  if (attempt.kind === 'check') await attempt.settle('failed');
  return attempt;
};

describeEngines('the login throttle', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: ALL_BFF_MIGRATIONS });
  const throttle = () => createLoginThrottle(database().db, limits);
  const rows = async () =>
    Number((await database().db.get<{ n: number }>('SELECT COUNT(*) AS n FROM login_failures'))?.n);

  beforeEach(async () => {
    await database().db.exec('DELETE FROM login_failures');
  });

  describe('under a flood', () => {
    it('adds no account buckets for an address over its limit', async () => {
      const t = throttle();
      const now = Date.now();
      for (let i = 0; i < 1_000; i++) await guess(t.attempt(`guess${i}@example.com`, '203.0.113.9', now));
      // The address's own bucket and one per account it tried while within its limit.
      expect(await rows()).toBe(1 + LOGIN_LIMITS.perIp);
    });

    it('never holds more than maxBuckets rows, keeps counting the buckets it has, and makes room as windows end', async () => {
      const t = throttle();
      const now = Date.now();
      expect((await guess(t.attempt('victim@example.com', '198.51.100.1', now))).kind).toBe('check');
      let refused = 0;
      for (let i = 0; i < 1_000; i++) {
        const ip = `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;
        if ((await guess(t.attempt(`guess${i}@example.com`, ip, now))).kind === 'refused') refused++;
      }
      expect(await rows()).toBeLessThanOrEqual(limits.maxBuckets);
      expect(refused).toBeGreaterThan(850);
      // A bucket the table holds keeps counting: guessing the victim's password stays limited.
      const guesses: Attempt[] = [];
      for (let i = 0; i < 6; i++)
        guesses.push(await guess(t.attempt('victim@example.com', '198.51.100.1', now)));
      expect(guesses.filter((g) => g.kind === 'refused').length).toBeGreaterThan(0);
      // A new caller waits for the oldest window to end, then gets in.
      const wait = await t.attempt('new@example.com', '192.0.2.7', now);
      expect(wait.kind).toBe('refused');
      const seconds = wait.kind === 'refused' ? wait.waitSeconds : 0;
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(LOGIN_LIMITS.windowMs / 1000);
      expect((await t.attempt('new@example.com', '192.0.2.7', now + LOGIN_LIMITS.windowMs + 1)).kind).toBe(
        'check',
      );
      expect(await rows()).toBeLessThanOrEqual(limits.maxBuckets);
    });
  });

  describe('counts failures, not attempts', () => {
    it('lets any number of checks of one account run while none fails, and keeps none after', async () => {
      const t = throttle();
      const now = Date.now();
      // Twenty right passwords, checked a few at a time: never refused, at most waiting for a slot.
      let checked = 0;
      while (checked < 20) {
        const inFlight: Attempt[] = [];
        for (let a = await t.attempt('ana@example.com', '198.51.100.7', now); a.kind === 'check'; ) {
          inFlight.push(a);
          a = await t.attempt('ana@example.com', '198.51.100.7', now);
          if (a.kind === 'refused') throw new Error('a right password was refused');
        }
        expect(inFlight.length).toBe(LOGIN_LIMITS.perAccount);
        for (const a of inFlight) if (a.kind === 'check') await a.settle('succeeded');
        checked += inFlight.length;
      }
      expect((await t.attempt('ana@example.com', '198.51.100.7', now)).kind).toBe('check');
    });

    it('limits a burst of guesses, from two processes at once: checks in flight count against the limit until they settle', async () => {
      // Two throttles on one database: two replicas taking slots of one account at the same moment.
      const [a, b] = [throttle(), throttle()];
      const now = Date.now();
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).attempt('ana@example.com', '198.51.100.8', now)),
      );
      expect(burst.filter((x) => x.kind === 'check').length).toBe(LOGIN_LIMITS.perAccount);
      expect(burst.filter((x) => x.kind === 'busy').length).toBe(20 - LOGIN_LIMITS.perAccount);
      for (const x of burst) if (x.kind === 'check') await x.settle('failed');
      // Five failures: the account is locked for the window, even for the right password elsewhere.
      const locked = await a.attempt('ana@example.com', '198.51.100.9', now);
      expect(locked.kind).toBe('refused');
      expect(locked.kind === 'refused' && locked.waitSeconds).toBeGreaterThan(800);
    });

    it('forgets checks in flight whose process died before settling them', async () => {
      const t = throttle();
      const now = Date.now();
      for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) await t.attempt('bo@example.com', '192.0.2.10', now);
      expect((await t.attempt('bo@example.com', '192.0.2.10', now)).kind).toBe('busy');
      expect((await t.attempt('bo@example.com', '192.0.2.10', now + LOGIN_LIMITS.staleMs + 1)).kind).toBe(
        'check',
      );
    });
  });
});
