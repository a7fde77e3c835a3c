import type { Database, Transaction } from '@review-desk/server/db/types';

// Brute-force protection for /auth/login, per account and per client IP, kept in the BFF's
// database so every worker process and every replica counts together. It counts *failures*, not attempts: a correct password is never
// refused because other sign-ins of the same account (or office) are under way at that moment.
//
// Guessing stays limited even when the guesses arrive at once: besides its failures, a bucket
// holds how many checks are in flight (`pending`), and a check may start only while
// failures + in-flight checks stay within the limit. A sign-in that finds every slot taken waits a
// moment for one to settle (`admit`) instead of being refused; a settled failure takes the slot for
// good, a success gives it back. So the limit holds for any burst, and a right password only waits.
// A success clears the account's failures.
//
// A browser that signed in to the account before (its device cookie, devices.ts) is counted on
// its own bucket instead, with the per-account limit: guesses made elsewhere — from any address,
// by anyone who knows the email — never lock it out (decision 0027). Once its own failures reach
// the limit it is an unknown browser again, held to the account's and the address's buckets.
//
// The table is keyed by what anonymous callers send (an email, an address), so it is bounded: an
// address over its limit adds no account buckets (at most perIp + 1 rows per address and window),
// and the table never holds more than maxBuckets rows. When it is full of live windows, an
// attempt that needs a new bucket waits for the oldest window to end — forgetting counts instead
// would let the flood's author guess on uncounted.

export const LOGIN_LIMITS = {
  windowMs: 15 * 60_000,
  /** Failures per account per window: a person mistyping gets several tries; a guesser gets few. */
  perAccount: 5,
  /** Failures per IP per window, across accounts (password spraying). Offices share an IP: higher. */
  perIp: 30,
  /** Rows the table may hold: about 100 bytes each. */
  maxBuckets: 100_000,
  /** In-flight checks older than this are forgotten (their process died before settling them). */
  staleMs: 60_000,
  /** How long a sign-in waits for a free slot before it is refused (Retry-After: 1). */
  busyWaitMs: 10_000,
} as const;

type Row = { failures: number; window_start: number; pending: number; pending_at: number };
type Limits = { [K in keyof typeof LOGIN_LIMITS]: number };

/** How often the row count is read again (each new bucket counts one meanwhile). */
const RECOUNT_EVERY_MS = 1_000;

/** How a finished check ends: a wrong password takes its slot, a right one gives it back. */
export type Outcome = 'succeeded' | 'failed' | 'abandoned';

export type Attempt =
  /** The password may be checked; `settle` must be called once it has been. */
  | { kind: 'check'; settle(outcome: Outcome): Promise<void> }
  /** Over a limit, or the table is full: refuse for this long without checking the password. */
  | { kind: 'refused'; waitSeconds: number }
  /** Every slot is held by checks in flight: try again in a moment. */
  | { kind: 'busy' };

type Reserved = { kind: 'reserved' } | Exclude<Attempt, { kind: 'check' }>;

export function createLoginThrottle(db: Database, limits: Limits = LOGIN_LIMITS) {
  const readSql = 'SELECT failures, window_start, pending, pending_at FROM login_failures WHERE bucket = $1';
  const insertSql =
    'INSERT INTO login_failures (bucket, failures, window_start, pending, pending_at) VALUES ($1, 0, $2, 1, $3)';
  const reserveSql =
    'UPDATE login_failures SET failures = $1, window_start = $2, pending = $3, pending_at = $4 WHERE bucket = $5';
  const releaseSql = `UPDATE login_failures SET pending = CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END,
       failures = CASE WHEN $1 = 'failed' THEN failures + 1 WHEN $1 = 'cleared' THEN 0 ELSE failures END
     WHERE bucket = $2`;
  const rowCount = db.prepare('SELECT COUNT(*) AS n FROM login_failures');
  const oldest = db.prepare('SELECT MIN(window_start) AS start FROM login_failures');
  const sweep = db.prepare('DELETE FROM login_failures WHERE window_start <= $1');

  let rows = 0;
  let countedAt = Number.NEGATIVE_INFINITY;
  const recount = async (now: number) => {
    rows = Number((await rowCount.get<{ n: number }>())?.n ?? 0);
    countedAt = now;
  };

  /** Whether the table may take a new bucket. */
  async function roomForNew(now: number): Promise<boolean> {
    if (now - countedAt >= RECOUNT_EVERY_MS) await recount(now);
    if (rows < limits.maxBuckets) return true;
    await sweep.run(now - limits.windowMs);
    await recount(now);
    return rows < limits.maxBuckets;
  }

  const waitSeconds = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));
  const whenFull = async (now: number): Promise<Reserved> => {
    const start = Number((await oldest.get<{ start: number | null }>())?.start ?? now);
    return { kind: 'refused', waitSeconds: waitSeconds(start + limits.windowMs, now) };
  };

  /**
   * Takes one check slot on the bucket, or says why not. Inside the attempt's transaction, under
   * the bucket's lock: replicas taking slots of one bucket at once take them one after another.
   */
  async function take(tx: Transaction, bucket: string, limit: number, now: number): Promise<Reserved> {
    await tx.lock('login', bucket);
    const row = await tx.get<Row>(readSql, bucket);
    if (row === undefined) {
      if (!(await roomForNew(now))) return whenFull(now);
      await tx.run(insertSql, bucket, now, now);
      rows++;
      return { kind: 'reserved' };
    }
    const expired = Number(row.window_start) <= now - limits.windowMs;
    const failures = expired ? 0 : Number(row.failures);
    const start = expired ? now : Number(row.window_start);
    const pending = Number(row.pending_at) <= now - limits.staleMs ? 0 : Number(row.pending);
    if (failures >= limit) return { kind: 'refused', waitSeconds: waitSeconds(start + limits.windowMs, now) };
    if (failures + pending >= limit) return { kind: 'busy' };
    await tx.run(reserveSql, failures, start, pending + 1, now, bucket);
    return { kind: 'reserved' };
  }

  /** A check counted on one bucket alone (a known browser's). */
  const checkOn = (bucket: string): Attempt => {
    let settled: Promise<void> | null = null;
    return {
      kind: 'check',
      settle(outcome: Outcome) {
        settled ??= db
          .run(
            releaseSql,
            outcome === 'succeeded' ? 'cleared' : outcome === 'failed' ? 'failed' : 'abandoned',
            bucket,
          )
          .then(() => undefined);
        return settled;
      },
    };
  };

  const settleBoth = (ipBucket: string, accountBucket: string, outcome: Outcome) =>
    db.transaction(async (tx) => {
      await tx.run(releaseSql, outcome === 'failed' ? 'failed' : 'abandoned', ipBucket);
      await tx.run(
        releaseSql,
        outcome === 'succeeded' ? 'cleared' : outcome === 'failed' ? 'failed' : 'abandoned',
        accountBucket,
      );
    });

  /**
   * Asks to check one password: from a known browser (`device`, its cookie's nonce), a slot of its
   * own bucket; else a slot for the IP and, while the IP is within its limit, for the account. A
   * refusal or `busy` holds nothing; a `check` must be settled.
   */
  async function attempt(email: string, ip: string, now = Date.now(), device?: string): Promise<Attempt> {
    if (device !== undefined) {
      const bucket = `device:${device}`;
      const own = await db.transaction((tx) => take(tx, bucket, limits.perAccount, now));
      if (own.kind === 'reserved') return checkOn(bucket);
      if (own.kind === 'busy') return own;
      // Its own allowance is used up: from now on an unknown browser like any other.
    }
    const ipBucket = `ip:${ip}`;
    const accountBucket = `account:${email}`;
    // Always the IP's lock first, then the account's: two attempts never wait on each other in a circle.
    return db.transaction(async (tx): Promise<Attempt> => {
      const byIp = await take(tx, ipBucket, limits.perIp, now);
      if (byIp.kind !== 'reserved') return byIp;
      const account = await take(tx, accountBucket, limits.perAccount, now);
      if (account.kind !== 'reserved') {
        await tx.run(releaseSql, 'abandoned', ipBucket);
        return account;
      }
      let settled: Promise<void> | null = null;
      return {
        kind: 'check',
        settle(outcome: Outcome) {
          settled ??= settleBoth(ipBucket, accountBucket, outcome);
          return settled;
        },
      };
    });
  }

  return {
    attempt,
    /**
     * `attempt`, waiting while every slot is held by checks in flight (a burst of sign-ins of one
     * account); after `busyWaitMs` the sign-in is refused for a second.
     */
    async admit(email: string, ip: string, device?: string): Promise<Exclude<Attempt, { kind: 'busy' }>> {
      const deadline = Date.now() + limits.busyWaitMs;
      for (;;) {
        const tried = await attempt(email, ip, Date.now(), device);
        if (tried.kind !== 'busy') return tried;
        if (Date.now() >= deadline) return { kind: 'refused', waitSeconds: 1 };
        await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
      }
    },

    async sweep(now = Date.now()): Promise<void> {
      await sweep.run(now - limits.windowMs);
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
