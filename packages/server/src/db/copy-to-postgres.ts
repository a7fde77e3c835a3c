import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { batchSize, insertMany, quoteIdentifier as quote } from './insert-many.ts';
import type { Database, Queryable, SqlValue } from './types.ts';

// Moving an installation from its SQLite file to PostgreSQL (each service's `migrate-to-postgres`
// command): every row of every table, copied in batches inside ONE PostgreSQL transaction, the
// row counts compared table by table before it commits, the identity sequences moved past the
// copied ids. It refuses a target that holds any row, or whose schema is not the source's.

export type CopyOptions = {
  /** The SQLite file (opened read-only; stop the service first). */
  from: string;
  /** A PostgreSQL database migrated by the same version (the command migrates it first). */
  to: Database;
  /** Tables to copy, parents before children; default every table of the target, in foreign-key order. */
  tables?: readonly string[];
  /** Rows per INSERT (default 1,000; fewer when a table has many columns). */
  batchRows?: number;
  /** Called after each batch, for the command's progress line. */
  onProgress?: (table: string, copied: number, total: number) => void;
};

export type CopyReport = { tables: { table: string; rows: number }[] };

/** A refusal the command prints as one line (nothing was written). */
export class CopyRefused extends Error {
  override name = 'CopyRefused';
}

type Column = { name: string; boolean: boolean };

export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyReport> {
  const { from, to } = options;
  if (to.dialect !== 'postgres')
    throw new CopyRefused('The target of the copy must be a PostgreSQL database');
  if (!existsSync(from)) throw new CopyRefused(`There is no SQLite database at ${from}`);
  const source = new DatabaseSync(from, { readOnly: true });
  try {
    source.exec('BEGIN'); // one snapshot for every table, even if something still writes the file
    await checkSchemaVersions(source, to);
    const tables = options.tables ?? (await tablesInDependencyOrder(to));
    const columns = new Map<string, Column[]>();
    for (const table of tables) columns.set(table, await sameColumns(source, to, table));
    const nonEmpty: string[] = [];
    for (const table of tables) {
      if (await to.get(`SELECT 1 AS there FROM ${quote(table)} LIMIT 1`)) nonEmpty.push(table);
    }
    if (nonEmpty.length > 0) {
      throw new CopyRefused(
        `The PostgreSQL database ${to.description} already holds data (${nonEmpty.join(', ')}): copy only into an empty, freshly migrated database`,
      );
    }
    const report: CopyReport = { tables: [] };
    await to.transaction(async (tx) => {
      for (const table of tables) {
        const cols = columns.get(table) as Column[];
        const total = Number(
          (source.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n,
        );
        const perBatch = batchSize(tx, cols.length, options.batchRows);
        const read = source.prepare(
          `SELECT ${cols.map((c) => quote(c.name)).join(', ')} FROM ${quote(table)}`,
        );
        read.setReadBigInts(true); // exact, whatever the size; pg sends a bigint as its digits
        const names = cols.map((c) => c.name);
        let batch: SqlValue[][] = [];
        let copied = 0;
        const flush = async () => {
          if (batch.length === 0) return;
          copied += await insertMany(tx, table, names, batch, { batchRows: perBatch });
          batch = [];
          options.onProgress?.(table, copied, total);
        };
        for (const row of read.iterate() as Iterable<Record<string, unknown>>) {
          batch.push(cols.map((c) => convert(row[c.name], c)));
          if (batch.length === perBatch) await flush();
        }
        await flush();
        const there = Number((await tx.get<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table)}`))?.n);
        if (there !== total || copied !== total) {
          throw new Error(
            `${table}: ${total} rows in SQLite, ${there} in PostgreSQL after the copy; nothing was kept`,
          );
        }
        report.tables.push({ table, rows: total });
      }
      await resetIdentities(tx, tables);
    });
    return report;
  } finally {
    if (source.isTransaction) source.exec('COMMIT');
    source.close();
  }
}

/** SQLite keeps flags as 0/1; a boolean column of the target takes true/false. */
function convert(value: unknown, column: Column): SqlValue {
  // pg sends a boolean as true/false; SqlValue leaves booleans out for the stores' sake.
  if (column.boolean && value !== null) return (value !== 0 && value !== 0n) as unknown as SqlValue;
  return value as SqlValue;
}

/** Both databases must be at the same schema version of every component the target has. */
async function checkSchemaVersions(source: DatabaseSync, to: Database): Promise<void> {
  const target = await to.all<{ component: string; version: number }>(
    'SELECT component, max(version) AS version FROM schema_migrations GROUP BY component',
  );
  let columns: { name: string }[] = [];
  try {
    columns = source.prepare(`SELECT name FROM pragma_table_info('schema_migrations')`).all() as {
      name: string;
    }[];
  } catch {
    // no table at all: handled below
  }
  const versions = new Map<string, number>();
  if (columns.some((c) => c.name === 'component')) {
    const rows = source
      .prepare('SELECT component, max(version) AS version FROM schema_migrations GROUP BY component')
      .all() as { component: string; version: number }[];
    for (const row of rows) versions.set(row.component, Number(row.version));
  }
  for (const { component, version } of target) {
    const at = versions.get(component) ?? 0;
    if (at !== Number(version)) {
      throw new CopyRefused(
        `The SQLite database is at schema ${at} of ${component}, PostgreSQL at ${version}: start this version of Review Desk once on the SQLite file (it brings the file up to date), stop it, then copy`,
      );
    }
  }
}

/** The target's tables (schema_migrations aside), each after the tables its foreign keys name. */
async function tablesInDependencyOrder(to: Database): Promise<string[]> {
  const tables = (
    await to.all<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'
        ORDER BY table_name`,
    )
  ).map((t) => t.name);
  const edges = await to.all<{ child: string; parent: string }>(
    `SELECT DISTINCT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return; // a cycle: leave it to the constraints
    visiting.add(table);
    for (const edge of edges) if (edge.child === table && edge.parent !== table) visit(edge.parent);
    visiting.delete(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** The columns both sides have; any difference means the schemas are not the same version. */
async function sameColumns(source: DatabaseSync, to: Database, table: string): Promise<Column[]> {
  const target = await to.all<{ name: string; type: string }>(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    table,
  );
  const sourceNames = (
    source.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]
  ).map((c) => c.name);
  if (target.length === 0 || sourceNames.length === 0) {
    throw new CopyRefused(
      `Table ${table} is missing ${target.length === 0 ? 'in PostgreSQL' : 'in the SQLite file'}`,
    );
  }
  const missing = [
    ...target.filter((c) => !sourceNames.includes(c.name)).map((c) => `${c.name} (only in PostgreSQL)`),
    ...sourceNames.filter((n) => !target.some((c) => c.name === n)).map((n) => `${n} (only in SQLite)`),
  ];
  if (missing.length > 0) throw new CopyRefused(`Table ${table} differs: ${missing.join(', ')}`);
  return target.map((c) => ({ name: c.name, boolean: c.type === 'boolean' }));
}

/** Moves each identity (or serial) sequence past the largest copied id. */
async function resetIdentities(tx: Queryable, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const columns = await tx.all<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1
          AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`,
      table,
    );
    for (const { name } of columns) {
      await tx.get(
        `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${quote(name)}) FROM ${quote(table)}), 0) + 1, false)`,
        quote(table),
        name,
      );
    }
  }
}
