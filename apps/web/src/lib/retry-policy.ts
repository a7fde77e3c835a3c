import { ApiError, NetworkError } from './api-error.ts';

// Reads are retried only when waiting can help (docs/api.md, Errors: 429 "wait, retry with
// increasing delays"; 5xx "retry reads with a bounded delay"): network failures and the codes the
// shared table marks retryable (by status for an answer without one of our codes).
// At most 3 retries, capped exponential backoff with jitter, never sooner than Retry-After.
// Mutations are never retried automatically: a send retried blindly may reach a customer twice.

export const MAX_READ_RETRIES = 3;
export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/**
 * A Retry-After longer than this is not waited out silently behind a spinner: the query fails
 * and the error state shows the countdown, so the user knows why nothing happens.
 */
export const MAX_SILENT_RETRY_AFTER_S = 20;

export function isRetryableRead(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (!(error instanceof ApiError)) return false;
  if (error.authRequired) return false;
  // A 2xx the contract cannot read will read the same way next time.
  if (error.status < 400) return false;
  if (!error.info.retryRead) return false;
  if (error.retryAfterSeconds !== null && error.retryAfterSeconds > MAX_SILENT_RETRY_AFTER_S) return false;
  return true;
}

/** TanStack Query `retry`: failureCount is the number of failures before this one (0 on the first). */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_READ_RETRIES && isRetryableRead(error);
}

/**
 * TanStack Query `retryDelay`. "Equal jitter": half the capped exponential step plus a random
 * half, so clients that failed together do not come back together. Retry-After is a floor.
 */
export function retryDelayMs(
  failureCount: number,
  error: unknown,
  random: () => number = Math.random,
): number {
  const step = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** failureCount);
  const backoff = step / 2 + random() * (step / 2);
  if (error instanceof ApiError && error.retryAfterSeconds !== null) {
    return Math.max(backoff, error.retryAfterSeconds * 1000 + random() * 250);
  }
  return backoff;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** The same policy for reads made outside TanStack Query (the CSV export's page walk). */
export async function withReadRetry<T>(
  read: () => Promise<T>,
  signal?: AbortSignal,
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = sleep,
): Promise<T> {
  for (let failureCount = 0; ; failureCount++) {
    try {
      return await read();
    } catch (error) {
      if (signal?.aborted || !shouldRetryRead(failureCount, error)) throw error;
      await wait(retryDelayMs(failureCount, error), signal);
    }
  }
}
