import type { Clock } from '@review-desk/server/clock';

// Waits on the BFF's scheduling clock, not on a timer alone: with the dev hooks on
// (BFF_DEV_HOOKS=1) a test moves that clock over HTTP, and a list send's waits (its pace, a 429's
// Retry-After, a back-off) end when the moved clock reaches them, as they would in real time.

/** Resolves true once `clock.now() >= at`, false if `signal` aborts first. */
export async function waitUntil(clock: Clock, at: number, signal: AbortSignal): Promise<boolean> {
  while (!signal.aborted) {
    const left = at - clock.now();
    if (left <= 0) return true;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe?.();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, left);
      const unsubscribe = clock.onChange?.(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
  return false;
}
