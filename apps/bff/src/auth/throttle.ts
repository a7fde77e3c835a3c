import type { Database } from '@review-desk/server/db/types';

// Brute-force protection for /auth/login, per account and per client IP, kept in the BFF's
// database so every worker process and every replica counts together. An attempt is counted *before* the password is checked (one
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

export function createLoginThrottle(db: Database, limits: Limits = LOGIN_LIMITS) {
  // One atomic upsert: a window that has ended starts again at 1.
  const count = db.prepare(
    `INSERT INTO login_failures (bucket, failures, window_start) VALUES ($1, 1, $2)
     ON CONFLICT (bucket) DO UPDATE SET
       failures = CASE WHEN login_failures.window_start <= excluded.window_start - $3 THEN 1 ELSE login_failures.failures + 1 END,
       window_start = CASE WHEN login_failures.window_start <= excluded.window_start - $3 THEN excluded.window_start ELSE login_failures.window_start END
     RETURNING failures, window_start`,
  );
  const exists = db.prepare('SELECT 1 AS one FROM login_failures WHERE bucket = $1');
  const rowCount = db.prepare('SELECT COUNT(*) AS n FROM login_failures');
  const oldest = db.prepare('SELECT MIN(window_start) AS start FROM login_failures');
  const clear = db.prepare('DELETE FROM login_failures WHERE bucket = $1');
  const giveBack = db.prepare(
    `UPDATE login_failures SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END
      WHERE bucket = $1 AND window_start > $2`,
  );
  const sweep = db.prepare('DELETE FROM login_failures WHERE window_start <= $1');

  let rows = 0;
  let countedAt = Number.NEGATIVE_INFINITY;
  const recount = async (now: number) => {
    rows = Number((await rowCount.get<{ n: number }>())?.n ?? 0);
    countedAt = now;
  };

  /** Whether the table may take this bucket (it exists, or there is room for it). */
  async function roomFor(bucket: string, now: number): Promise<boolean> {
    if (now - countedAt >= RECOUNT_EVERY_MS) await recount(now);
    if (rows < limits.maxBuckets || (await exists.get(bucket)) !== undefined) return true;
    await sweep.run(now - limits.windowMs);
    await recount(now);
    return rows < limits.maxBuckets;
  }

  /** Counts one attempt on the bucket; null when the table is full and the bucket is new. */
  async function countAttempt(bucket: string, now: number): Promise<Counted | null> {
    if (!(await roomFor(bucket, now))) return null;
    const counted = (await count.get<Counted>(bucket, now, limits.windowMs)) as Counted;
    if (counted.failures === 1) rows++;
    return counted;
  }

  const waitSeconds = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));
  const whenFull = async (now: number) => {
    const start = Number((await oldest.get<{ start: number | null }>())?.start ?? now);
    return waitSeconds(start + limits.windowMs, now);
  };

  return {
    /**
     * Counts one attempt for the IP and, while the IP is within its limit, the account. Returns the
     * seconds to wait when either is over its limit (the attempt must then be refused without
     * checking the password), else null.
     */
    async attempt(email: string, ip: string, now = Date.now()): Promise<number | null> {
      const byIp = await countAttempt(`ip:${ip}`, now);
      if (byIp === null) return whenFull(now);
      if (byIp.failures > limits.perIp) return waitSeconds(byIp.window_start + limits.windowMs, now);
      const account = await countAttempt(`account:${email}`, now);
      if (account === null) return whenFull(now);
      if (account.failures > limits.perAccount)
        return waitSeconds(account.window_start + limits.windowMs, now);
      return null;
    },

    async succeeded(email: string, ip: string, now = Date.now()): Promise<void> {
      await clear.run(`account:${email}`);
      await giveBack.run(`ip:${ip}`, now - limits.windowMs);
    },

    async sweep(now = Date.now()): Promise<void> {
      await sweep.run(now - limits.windowMs);
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
