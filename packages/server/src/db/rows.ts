// Stored rows as the services answer them: times are kept as epoch milliseconds and answered as
// ISO 8601 strings (a time not yet reached, such as a last sign-in, stays null).

/** An epoch-milliseconds time as an ISO 8601 string; null stays null. */
export function isoTime(ms: number): string;
export function isoTime(ms: number | null): string | null;
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
