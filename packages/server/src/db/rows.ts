// Stored rows as the services read and answer them: an engine may hand a BIGINT column back as a
// string, so the stores make their number columns numbers; times are kept as epoch milliseconds and
// answered as ISO 8601 strings (a time not yet reached, such as a last sign-in, stays null).

/** An epoch-milliseconds time as an ISO 8601 string; null stays null. */
export function isoTime(ms: number): string;
export function isoTime(ms: number | null): string | null;
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The row with the named columns made numbers (null stays null). */
export function withNumbers<R extends object>(row: R, columns: readonly (keyof R)[]): R {
  const out = { ...row };
  for (const column of columns) {
    const value = out[column];
    if (value !== null) out[column] = Number(value) as R[keyof R];
  }
  return out;
}
