// Per-key request limit, answered with 429 (docs/api.md, "Limits"). GCRA, the
// generic cell rate algorithm: a key may burst up to its per-minute limit, then gets one request
// every 60/limit seconds. It needs one timestamp per key and gives an exact Retry-After.
// In memory for a service on SQLite (one process); counted in the database on PostgreSQL
// (rate/limiter.ts), where replicas share each key's limit.

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the full allowance is back. */
  resetSeconds: number;
  /** Seconds to wait before the next request is allowed (0 when allowed). */
  retryAfterSeconds: number;
};

export type RateLimiter = {
  check(key: string, limitPerMinute: number, now: number): Promise<RateDecision>;
};

export const PERIOD_MS = 60_000;

/**
 * The answer once the key's theoretical arrival time is known: `tat` after the call when it was
 * allowed, the unchanged stored one when it was not.
 */
export function decisionAfter(
  allowed: boolean,
  tat: number,
  now: number,
  limitPerMinute: number,
  interval: number,
): RateDecision {
  if (!allowed) {
    const wait = Math.max(tat, now) + interval - PERIOD_MS - now;
    return {
      allowed: false,
      limit: limitPerMinute,
      remaining: 0,
      resetSeconds: Math.max(0, Math.ceil((tat - now) / 1000)),
      retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)),
    };
  }
  const used = tat - now; // how much of the period the key now occupies
  return {
    allowed: true,
    limit: limitPerMinute,
    remaining: Math.max(0, Math.floor((PERIOD_MS - used) / interval)),
    resetSeconds: Math.ceil(used / 1000),
    retryAfterSeconds: 0,
  };
}

export function createRateLimiter(): RateLimiter {
  const tat = new Map<string, number>();
  let lastSweep = 0;

  function sweep(now: number) {
    if (now - lastSweep < PERIOD_MS) return;
    lastSweep = now;
    for (const [key, t] of tat) if (t <= now) tat.delete(key);
  }

  return {
    async check(key, limitPerMinute, now) {
      sweep(now);
      const interval = PERIOD_MS / limitPerMinute;
      // A stored time never lies more than one period ahead unless the clock jumped back (NTP):
      // then the state is forgotten rather than locking the key out.
      let stored = tat.get(key) ?? now;
      if (stored > now + PERIOD_MS) stored = now;
      const next = Math.max(stored, now) + interval;
      const allowed = next - now <= PERIOD_MS;
      if (allowed) tat.set(key, next);
      return decisionAfter(allowed, allowed ? next : stored, now, limitPerMinute, interval);
    },
  };
}
