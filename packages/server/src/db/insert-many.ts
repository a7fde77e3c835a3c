import type { Queryable, SqlValue } from './types.ts';

// Many rows, the fastest way on each engine. PostgreSQL: multi-row INSERT … VALUES (…), (…) in
// batches under its limit of bound parameters (one round trip per batch). SQLite: one prepared
// single-row INSERT run per row — in process there is no round trip to save, and SQLite binds
// numbered placeholders in time that grows with their count (100,000 rows of 11 columns: 0.3 s
// one by one, 1 s in 25-row statements, 42 s in 1,000-row ones). For bulk paths (imports, a bulk
// send's rows, moving an installation).

const MAX_PARAMETERS = { sqlite: 32_766, postgres: 65_535 } as const;

export type InsertManyOptions = {
  /** Rows per statement at most (default 1,000; fewer when the columns would pass the limit). */
  batchRows?: number;
  /** Appended to each statement, e.g. `ON CONFLICT (key) DO NOTHING`. */
  suffix?: string;
};

/** Inserts `rows` (values in `columns` order); returns the number of rows inserted. */
export async function insertMany(
  q: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
  options: InsertManyOptions = {},
): Promise<number> {
  if (columns.length === 0) throw new Error('insertMany needs at least one column');
  if (q.dialect === 'sqlite') {
    const insert = q.prepare(insertSql(table, columns, 1, options.suffix));
    let inserted = 0;
    for (const row of rows) {
      if (row.length !== columns.length)
        throw new Error(`insertMany: a row of ${table} has ${row.length} values`);
      inserted += (await insert.run(...row)).changes;
    }
    return inserted;
  }
  const perBatch = batchSize(q, columns.length, options.batchRows);
  let inserted = 0;
  for (let start = 0; start < rows.length; start += perBatch) {
    const batch = rows.slice(start, start + perBatch);
    const params: SqlValue[] = [];
    for (const row of batch) {
      if (row.length !== columns.length)
        throw new Error(`insertMany: a row of ${table} has ${row.length} values`);
      params.push(...row);
    }
    inserted += (await q.run(insertSql(table, columns, batch.length, options.suffix), ...params)).changes;
  }
  return inserted;
}

/** Rows per statement for this engine and this many columns. */
export function batchSize(q: Pick<Queryable, 'dialect'>, columnCount: number, wanted = 1_000): number {
  return Math.max(1, Math.min(wanted, Math.floor(MAX_PARAMETERS[q.dialect] / columnCount)));
}

export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

export function insertSql(table: string, columns: readonly string[], rows: number, suffix = ''): string {
  const values: string[] = [];
  let n = 0;
  for (let r = 0; r < rows; r++) values.push(`(${columns.map(() => `$${++n}`).join(', ')})`);
  const names = columns.map(quoteIdentifier).join(', ');
  return `INSERT INTO ${quoteIdentifier(table)} (${names}) VALUES ${values.join(', ')} ${suffix}`.trimEnd();
}
