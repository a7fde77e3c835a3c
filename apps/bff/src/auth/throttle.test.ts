import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/support/processes.ts';
import { type Db, openDatabase } from '../store/db.ts';
import { type Attempt, createLoginThrottle, LOGIN_LIMITS } from './throttle.ts';

// The login throttle's table is keyed by what anonymous callers send: emails and addresses.

let temp: ReturnType<typeof tempDir>;
let db: Db;
const rows = () => Number((db.prepare('SELECT COUNT(*) AS n FROM login_failures').get() as { n: number }).n);
const limits = { ...LOGIN_LIMITS, maxBuckets: 200 };
/** A guess: checked (and wrong) when the throttle lets it be checked. */
const guess = (attempt: Attempt): Attempt => {
  if (attempt.kind === 'check') attempt.settle('failed');
  return attempt;
};

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
    for (let i = 0; i < 5_000; i++) guess(throttle.attempt(`guess${i}@example.com`, '203.0.113.9', now));
    // The address's own bucket and one per account it tried while within its limit.
    expect(rows()).toBe(1 + LOGIN_LIMITS.perIp);
  });

  it('never holds more than maxBuckets rows, keeps counting the buckets it has, and makes room as windows end', () => {
    const throttle = createLoginThrottle(db, limits);
    const now = Date.now();
    expect(guess(throttle.attempt('victim@example.com', '198.51.100.1', now)).kind).toBe('check');
    let refused = 0;
    for (let i = 0; i < 5_000; i++) {
      const ip = `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;
      if (guess(throttle.attempt(`guess${i}@example.com`, ip, now)).kind === 'refused') refused++;
    }
    expect(rows()).toBeLessThanOrEqual(limits.maxBuckets);
    expect(refused).toBeGreaterThan(4_500);
    // A bucket the table holds keeps counting: guessing the victim's password stays limited.
    const guesses = Array.from({ length: 6 }, () =>
      guess(throttle.attempt('victim@example.com', '198.51.100.1', now)),
    );
    expect(guesses.filter((g) => g.kind === 'refused').length).toBeGreaterThan(0);
    // A new caller waits for the oldest window to end, then gets in.
    const wait = throttle.attempt('new@example.com', '192.0.2.7', now);
    expect(wait.kind).toBe('refused');
    const seconds = wait.kind === 'refused' ? wait.waitSeconds : 0;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(LOGIN_LIMITS.windowMs / 1000);
    expect(throttle.attempt('new@example.com', '192.0.2.7', now + LOGIN_LIMITS.windowMs + 1).kind).toBe(
      'check',
    );
    expect(rows()).toBeLessThanOrEqual(limits.maxBuckets);
  });
});

describe('the login throttle counts failures, not attempts', () => {
  it('lets any number of checks of one account run while none fails, and keeps none after', () => {
    const throttle = createLoginThrottle(db, limits);
    const now = Date.now();
    // Twenty right passwords, checked a few at a time: never refused, at most waiting for a slot.
    let checked = 0;
    while (checked < 20) {
      const inFlight: Attempt[] = [];
      for (let a = throttle.attempt('ana@example.com', '198.51.100.7', now); a.kind === 'check'; ) {
        inFlight.push(a);
        a = throttle.attempt('ana@example.com', '198.51.100.7', now);
        if (a.kind === 'refused') throw new Error('a right password was refused');
      }
      expect(inFlight.length).toBe(LOGIN_LIMITS.perAccount);
      for (const a of inFlight) if (a.kind === 'check') a.settle('succeeded');
      checked += inFlight.length;
    }
    expect(throttle.attempt('ana@example.com', '198.51.100.7', now).kind).toBe('check');
  });

  it('limits a burst of guesses: checks in flight count against the limit until they settle', () => {
    const throttle = createLoginThrottle(db, limits);
    const now = Date.now();
    const burst = Array.from({ length: 20 }, () => throttle.attempt('ana@example.com', '198.51.100.8', now));
    expect(burst.filter((a) => a.kind === 'check').length).toBe(LOGIN_LIMITS.perAccount);
    expect(burst.filter((a) => a.kind === 'busy').length).toBe(20 - LOGIN_LIMITS.perAccount);
    for (const a of burst) if (a.kind === 'check') a.settle('failed');
    // Five failures: the account is locked for the window, even for the right password elsewhere.
    const locked = throttle.attempt('ana@example.com', '198.51.100.9', now);
    expect(locked.kind).toBe('refused');
    expect(locked.kind === 'refused' && locked.waitSeconds).toBeGreaterThan(800);
  });

  it('forgets checks in flight whose process died before settling them', () => {
    const throttle = createLoginThrottle(db, limits);
    const now = Date.now();
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) throttle.attempt('bo@example.com', '192.0.2.10', now);
    expect(throttle.attempt('bo@example.com', '192.0.2.10', now).kind).toBe('busy');
    expect(throttle.attempt('bo@example.com', '192.0.2.10', now + LOGIN_LIMITS.staleMs + 1).kind).toBe(
      'check',
    );
  });
});
