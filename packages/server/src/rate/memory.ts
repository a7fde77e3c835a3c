import { RATE_PERIOD_MS, type RateStore, take } from './gcra.ts';

// GCRA's times in memory, for a service that counts alone (one process on SQLite). Bounded by the
// callers of the last period: once a period, the callers whose whole limit is back are forgotten.

export function memoryRateStore(): RateStore & { callers(): number } {
  const times = new Map<string, number>();
  let sweptAt = 0;
  const sweep = (now: number) => {
    sweptAt = now;
    for (const [key, tat] of times) if (tat <= now) times.delete(key);
  };
  return {
    async take(key, now, interval, calls) {
      const at = now ?? Date.now();
      if (at - sweptAt >= RATE_PERIOD_MS) sweep(at);
      const taken = take(times.get(key), at, interval, calls);
      if (taken.granted > 0) times.set(key, taken.tat);
      return taken;
    },
    async sweep(now) {
      sweep(now ?? Date.now());
    },
    /** Callers kept (for the bound's test). */
    callers: () => times.size,
  };
}
