// GCRA, the generic cell rate algorithm, written once for every rate limit of both services: the
// service's limit per API key (docs/api.md, "Limits") and the dashboard server's fair share per
// user of its key's limit. A caller may burst up to its limit per minute, then gets one call every
// 60/limit seconds; one time per caller (its theoretical arrival time, `tat`) is all that is kept,
// and the wait it is told is exact. Several calls may be asked for at once (the fair share counts
// one user's calls of a turn together): the first that fit are granted, exactly as that many calls
// one after the other would be. The stores keep the times: in memory for one process (memory.ts),
// in the database for processes that count together (sql.ts), both by these rules.

export const RATE_PERIOD_MS = 60_000;

/** Whole milliseconds between calls at `perMinute`, rounded up: never more than the limit. */
export function rateInterval(perMinute: number): number {
  return Math.ceil(RATE_PERIOD_MS / perMinute);
}

/** A take's result: how many calls fitted, the caller's time after them, and the time it was counted at. */
export type Taken = { granted: number; tat: number; at: number };

/**
 * Where the next call starts from: the stored time while it lies ahead, else now. A stored time
 * more than two periods ahead (the clock went back) counts from now rather than locking the caller
 * out. Not one period: after a full burst the stored time is a period ahead of the call that set
 * it, and a call timed a moment earlier (another process, or one that waited on the row) would find
 * it "more than a period ahead" and be let through over the limit.
 */
export function startOf(tat: number | undefined, now: number): number {
  return tat !== undefined && tat > now && tat <= now + 2 * RATE_PERIOD_MS ? tat : now;
}

/** How many of `calls` fit from `base` on: between 0 and `calls` (division truncated, as in SQL). */
export function fitting(base: number, now: number, interval: number, calls: number): number {
  const room = Math.trunc((RATE_PERIOD_MS + now - base) / interval);
  return room <= 0 ? 0 : Math.min(room, calls);
}

/** `calls` calls at `now` against the stored time `tat` (undefined: none stored). */
export function take(tat: number | undefined, now: number, interval: number, calls: number): Taken {
  const base = startOf(tat, now);
  const granted = fitting(base, now, interval, calls);
  return { granted, tat: granted > 0 ? base + granted * interval : (tat ?? now), at: now };
}

/** Seconds a refused call waits before one fits again (at least 1). */
export function retryAfterSeconds({ tat, at }: Taken, interval: number): number {
  return Math.max(1, Math.ceil((Math.max(tat, at) + interval - RATE_PERIOD_MS - at) / 1000));
}

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the whole limit is back. */
  resetSeconds: number;
  /** Seconds to wait before the next call is allowed (0 when allowed). */
  retryAfterSeconds: number;
};

/** The answer to one call taken alone, with what is left of the limit (the API's RateLimit headers). */
export function decisionOf(taken: Taken, perMinute: number): RateDecision {
  const interval = rateInterval(perMinute);
  const used = taken.tat - taken.at; // how much of the period the caller now occupies
  if (taken.granted === 0)
    return {
      allowed: false,
      limit: perMinute,
      remaining: 0,
      resetSeconds: Math.max(0, Math.ceil(used / 1000)),
      retryAfterSeconds: retryAfterSeconds(taken, interval),
    };
  return {
    allowed: true,
    limit: perMinute,
    remaining: Math.max(0, Math.floor((RATE_PERIOD_MS - used) / interval)),
    resetSeconds: Math.ceil(used / 1000),
    retryAfterSeconds: 0,
  };
}

/** Where the times are kept: `now` null asks the store for its own clock (the database's). */
export type RateStore = {
  take(key: string, now: number | null, interval: number, calls: number): Promise<Taken>;
  /** Forgets the callers whose whole limit is back (each store also does it once a period). */
  sweep(now: number | null): Promise<void>;
};
