import type { Db } from '../store/db.ts';

// Brute-force protection for /auth/login, per account and per client IP, kept in SQLite so every
// worker process counts together. An attempt is counted *before* the password is checked (one
// atomic upsert), so parallel guesses cannot slip through while the slow hash runs; a successful
// login clears the account's count and gives the IP its attempt back.
//
// The table is keyed by what anonymous callers send (an email, an address), so it is bounded: an
// address over its limit adds no account buckets (at most perIp + 1 rows per address and window),
// and the table never holds more than maxBuckets rows. When it is full of live windows, an
// attempt that needs a new bucket waits for the oldest window to end — forgetting counts instead
// would let the flood's author guess on uncounted.

export const LOGIN_LIMITS = {
  windowMs: 15 * 60_000,
  /** Attempts per account per window: a person mistyping gets several tries; a guesser gets few. */
  perAccount: 5,
  /** Attempts per IP per window, across accounts (password spraying). Offices share an IP: higher. */
  perIp: 30,
  /** Rows the table may hold: about 100 bytes each. */
  maxBuckets: 100_000,
} as const;

type Counted = { failures: number; window_start: number };
type Limits = { windowMs: number; perAccount: number; perIp: number; maxBuckets: number };

/** How often the row count is read again (each new bucket counts one meanwhile). */
const RECOUNT_EVERY_MS = 1_000;

export function createLoginThrottle(db: Db, limits: Limits = LOGIN_LIMITS) {
  const count = db.prepare(
    `INSERT INTO login_failures (bucket, failures, window_start) VALUES (?, 1, ?)
     ON CONFLICT (bucket) DO UPDATE SET
       failures = CASE WHEN window_start <= excluded.window_start - ? THEN 1 ELSE failures + 1 END,
       window_start = CASE WHEN window_start <= excluded.window_start - ? THEN excluded.window_start ELSE window_start END
     RETURNING failures, window_start`,
  );
  const exists = db.prepare('SELECT 1 AS one FROM login_failures WHERE bucket = ?');
  const rowCount = db.prepare('SELECT COUNT(*) AS n FROM login_failures');
  const oldest = db.prepare('SELECT MIN(window_start) AS start FROM login_failures');
  const clear = db.prepare('DELETE FROM login_failures WHERE bucket = ?');
  const giveBack = db.prepare(
    'UPDATE login_failures SET failures = MAX(failures - 1, 0) WHERE bucket = ? AND window_start > ?',
  );
  const sweep = db.prepare('DELETE FROM login_failures WHERE window_start <= ?');

  let rows = 0;
  let countedAt = Number.NEGATIVE_INFINITY;
  const recount = (now: number) => {
    rows = Number((rowCount.get() as { n: number }).n);
    countedAt = now;
  };

  /** Whether the table may take this bucket (it exists, or there is room for it). */
  function roomFor(bucket: string, now: number): boolean {
    if (now - countedAt >= RECOUNT_EVERY_MS) recount(now);
    if (rows < limits.maxBuckets || exists.get(bucket) !== undefined) return true;
    sweep.run(now - limits.windowMs);
    recount(now);
    return rows < limits.maxBuckets;
  }

  /** Counts one attempt on the bucket; null when the table is full and the bucket is new. */
  function countAttempt(bucket: string, now: number): Counted | null {
    if (!roomFor(bucket, now)) return null;
    const counted = count.get(bucket, now, limits.windowMs, limits.windowMs) as Counted;
    if (counted.failures === 1) rows++;
    return counted;
  }

  const waitSeconds = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));
  const whenFull = (now: number) => {
    const start = Number((oldest.get() as { start: number | null }).start ?? now);
    return waitSeconds(start + limits.windowMs, now);
  };

  return {
    /**
     * Counts one attempt for the IP and, while the IP is within its limit, the account. Returns the
     * seconds to wait when either is over its limit (the attempt must then be refused without
     * checking the password), else null.
     */
    attempt(email: string, ip: string, now = Date.now()): number | null {
      const byIp = countAttempt(`ip:${ip}`, now);
      if (byIp === null) return whenFull(now);
      if (byIp.failures > limits.perIp) return waitSeconds(byIp.window_start + limits.windowMs, now);
      const account = countAttempt(`account:${email}`, now);
      if (account === null) return whenFull(now);
      if (account.failures > limits.perAccount)
        return waitSeconds(account.window_start + limits.windowMs, now);
      return null;
    },

    succeeded(email: string, ip: string, now = Date.now()): void {
      clear.run(`account:${email}`);
      giveBack.run(`ip:${ip}`, now - limits.windowMs);
    },

    sweep(now = Date.now()): void {
      sweep.run(now - limits.windowMs);
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
