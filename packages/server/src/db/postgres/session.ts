import pg from 'pg';

// How `pg` turns PostgreSQL's values into JavaScript ones, what every session is started with,
// and how a server's URL is shown.

const INT8 = 20;
const NUMERIC = 1700;
/** count(*) and bigint columns (ms timestamps, ids) as numbers while exact; beyond 2^53 a bigint. */
function parseInt8(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}
export const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === INT8) return parseInt8;
    // sum() over bigint columns is numeric: a number, as SQLite's sum() is.
    if (oid === NUMERIC) return Number;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * Settings of every pooled session:
 * - A connection left idle inside a transaction (a bug, a hung request) must not hold its locks
 *   for ever.
 * - Prepared statements run on their generic plan, planned once per connection. By default
 *   PostgreSQL plans a statement again for each execution while the generic plan's estimate is
 *   worse than the plans made for the values, and a paged read's `LIMIT $n OFFSET $m` always
 *   estimates worse: planning the reviews list's page took 0.2 ms on top of its 0.26 ms of
 *   execution. Every statement here reaches its rows through an index its own shape names
 *   (partial indexes are matched by literals in the statement, never by a parameter), so the
 *   value-specific plan finds nothing better (docs/decisions/0024-generic-plans.md).
 */
export const SESSION_OPTIONS =
  '-c idle_in_transaction_session_timeout=60000 -c plan_cache_mode=force_generic_plan';

/** The URL without its password, for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the PostgreSQL URL (unparseable)';
  }
}
