import pg from 'pg';

// How `pg` turns PostgreSQL's values into JavaScript ones, and how a server's URL is shown.

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
