import type { Db } from '../store/db.ts';

// Brute-force protection for /auth/login, per account and per client IP, kept in SQLite so every
// worker process counts together. An attempt is counted *before* the password is checked (one
// atomic upsert), so parallel guesses cannot slip through while the slow hash runs; a successful
// login clears the account's count and gives the IP its attempt back.

export const LOGIN_LIMITS = {
  windowMs: 15 * 60_000,
  /** Attempts per account per window: a person mistyping gets several tries; a guesser gets few. */
  perAccount: 5,
  /** Attempts per IP per window, across accounts (password spraying). Offices share an IP: higher. */
  perIp: 30,
} as const;

type Counted = { failures: number; window_start: number };

export function createLoginThrottle(db: Db, limits = LOGIN_LIMITS) {
  const count = db.prepare(
    `INSERT INTO login_failures (bucket, failures, window_start) VALUES (?, 1, ?)
     ON CONFLICT (bucket) DO UPDATE SET
       failures = CASE WHEN window_start <= excluded.window_start - ? THEN 1 ELSE failures + 1 END,
       window_start = CASE WHEN window_start <= excluded.window_start - ? THEN excluded.window_start ELSE window_start END
     RETURNING failures, window_start`,
  );
  const clear = db.prepare('DELETE FROM login_failures WHERE bucket = ?');
  const giveBack = db.prepare(
    'UPDATE login_failures SET failures = MAX(failures - 1, 0) WHERE bucket = ? AND window_start > ?',
  );
  const sweep = db.prepare('DELETE FROM login_failures WHERE window_start <= ?');

  function countAttempt(bucket: string, now: number): Counted {
    return count.get(bucket, now, limits.windowMs, limits.windowMs) as Counted;
  }

  return {
    /**
     * Counts one attempt for the account and the IP. Returns the seconds to wait when either is
     * over its limit (the attempt must then be refused without checking the password), else null.
     */
    attempt(email: string, ip: string, now = Date.now()): number | null {
      const account = countAttempt(`account:${email}`, now);
      const byIp = countAttempt(`ip:${ip}`, now);
      let waitMs = 0;
      if (account.failures > limits.perAccount) waitMs = account.window_start + limits.windowMs - now;
      if (byIp.failures > limits.perIp) waitMs = Math.max(waitMs, byIp.window_start + limits.windowMs - now);
      return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : null;
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
