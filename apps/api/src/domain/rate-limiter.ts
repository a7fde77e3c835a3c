// Per-key request limit, answered with 429 (docs/api.md, "Limits"). GCRA, the
// generic cell rate algorithm: a key may burst up to its per-minute limit, then gets one request
// every 60/limit seconds. It needs one timestamp per key and gives an exact Retry-After.

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the full allowance is back. */
  resetSeconds: number;
  /** Seconds to wait before the next request is allowed (0 when allowed). */
  retryAfterSeconds: number;
};

const PERIOD_MS = 60_000;

export function createRateLimiter() {
  const tat = new Map<string, number>();
  let lastSweep = 0;

  function sweep(now: number) {
    if (now - lastSweep < PERIOD_MS) return;
    lastSweep = now;
    for (const [key, t] of tat) if (t <= now) tat.delete(key);
  }

  return {
    check(key: string, limitPerMinute: number, now: number): RateDecision {
      sweep(now);
      const interval = PERIOD_MS / limitPerMinute;
      // A stored time never lies more than one period ahead unless the clock jumped back (NTP):
      // then the state is forgotten rather than locking the key out.
      let stored = tat.get(key) ?? now;
      if (stored > now + PERIOD_MS) stored = now;
      const next = Math.max(stored, now) + interval;
      const used = next - now; // how much of the period this request would occupy
      if (used > PERIOD_MS) {
        const wait = used - PERIOD_MS;
        const current = stored - now;
        return {
          allowed: false,
          limit: limitPerMinute,
          remaining: 0,
          resetSeconds: Math.ceil(current / 1000),
          retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)),
        };
      }
      tat.set(key, next);
      return {
        allowed: true,
        limit: limitPerMinute,
        remaining: Math.max(0, Math.floor((PERIOD_MS - used) / interval)),
        resetSeconds: Math.ceil(used / 1000),
        retryAfterSeconds: 0,
      };
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
