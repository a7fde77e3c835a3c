import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/support/processes.ts';
import { type Db, openDatabase } from '../store/db.ts';
import { createLoginThrottle, LOGIN_LIMITS } from './throttle.ts';

// The login throttle's table is keyed by what anonymous callers send: emails and addresses.

let temp: ReturnType<typeof tempDir>;
let db: Db;
const rows = () => Number((db.prepare('SELECT COUNT(*) AS n FROM login_failures').get() as { n: number }).n);
const limits = { ...LOGIN_LIMITS, maxBuckets: 200 };

beforeEach(() => {
  temp = tempDir('bff-throttle-');
  db = openDatabase(`${temp.dir}/bff.db`);
});

afterEach(() => {
  db.close();
  temp.cleanup();
});

describe('the login throttle under a flood', () => {
  it('adds no account buckets for an address over its limit', () => {
    const throttle = createLoginThrottle(db, limits);
    const now = Date.now();
    for (let i = 0; i < 5_000; i++) throttle.attempt(`guess${i}@example.com`, '203.0.113.9', now);
    // The address's own bucket and one per account it tried while within its limit.
    expect(rows()).toBe(1 + LOGIN_LIMITS.perIp);
  });

  it('never holds more than maxBuckets rows, keeps counting the buckets it has, and makes room as windows end', () => {
    const throttle = createLoginThrottle(db, limits);
    const now = Date.now();
    expect(throttle.attempt('victim@example.com', '198.51.100.1', now)).toBeNull();
    let refused = 0;
    for (let i = 0; i < 5_000; i++) {
      if (
        throttle.attempt(`guess${i}@example.com`, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, now) !== null
      )
        refused++;
    }
    expect(rows()).toBeLessThanOrEqual(limits.maxBuckets);
    expect(refused).toBeGreaterThan(4_500);
    // A bucket the table holds keeps counting: guessing the victim's password stays limited.
    const guesses = Array.from({ length: 6 }, () =>
      throttle.attempt('victim@example.com', '198.51.100.1', now),
    );
    expect(guesses.filter((wait) => wait !== null).length).toBeGreaterThan(0);
    // A new caller waits for the oldest window to end, then gets in.
    const wait = throttle.attempt('new@example.com', '192.0.2.7', now);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(LOGIN_LIMITS.windowMs / 1000);
    expect(throttle.attempt('new@example.com', '192.0.2.7', now + LOGIN_LIMITS.windowMs + 1)).toBeNull();
    expect(rows()).toBeLessThanOrEqual(limits.maxBuckets);
  });
});
