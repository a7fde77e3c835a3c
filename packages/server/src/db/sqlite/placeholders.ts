// SQL is written once, with PostgreSQL's $1…$n placeholders. SQLite reads `$1` as a *named*
// parameter whose index is its order of first appearance, so `$2 … $1` would bind the wrong
// values; `?NNN` binds by number. This rewrites the placeholders outside string literals, quoted
// identifiers and comments, and refuses SQLite's own `?` placeholders so no statement is written
// in a form only one engine understands.

const cache = new Map<string, string>();
const CACHE_MAX = 2_000;

function isIdentifierChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 95 || // _
    code === 36 || // $
    code > 127
  );
}

/** `$n` → `?n` for SQLite. Cached: stores issue the same few hundred texts again and again. */
export function toSqlitePlaceholders(sql: string): string {
  let converted = cache.get(sql);
  if (converted === undefined) {
    converted = convert(sql);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(sql, converted);
  }
  return converted;
}

function convert(sql: string): string {
  if (!sql.includes('$') && !sql.includes('?')) return sql;
  let out = '';
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '$' && (i === 0 || !isIdentifierChar(sql.charCodeAt(i - 1)))) {
      let j = i + 1;
      while (j < n && sql.charCodeAt(j) >= 48 && sql.charCodeAt(j) <= 57) j++;
      if (j === i + 1) throw new Error(`SQL placeholders are written $1…$n: ${sql}`);
      out += `?${sql.slice(i + 1, j)}`;
      i = j;
    } else if (c === '?') {
      throw new Error(`SQL placeholders are written $1…$n, not ?: ${sql}`);
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Index just past the quote that closes the one at `start` (a doubled quote is an escaped one). */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}
