import type { Queryable } from '../src/db/types.ts';

// A database's schema described alike for both engines: tables, columns (name, kind of value,
// nullability), keys, foreign keys, checks and indexes, one sorted line each. Two databases
// migrated from the same files, one per engine, must describe the same, or code tested on one
// engine breaks on the other and migrate-to-postgres cannot copy a table.

/** The migrations' own bookkeeping, kept by the kit, not by the components' files. */
const BOOKKEEPING = 'schema_migrations';

/** The schema of an open database, on either engine. */
export function describeSchema(db: Queryable): Promise<Described> {
  return db.dialect === 'sqlite' ? sqliteSchema(db) : postgresSchema(db);
}

export type Described = string[];

/** The SQLite schema, read through the pragmas. */
async function sqliteSchema(db: Queryable): Promise<Described> {
  const lines: Described = [];
  const tables = await db.all<{ name: string; sql: string }>(
    `SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> $1`,
    BOOKKEEPING,
  );
  for (const { name: table, sql } of tables) {
    lines.push(`table ${table}`);
    const columns = await db.all<{ name: string; type: string; notnull: number; pk: number }>(
      'SELECT name, type, "notnull", pk FROM pragma_table_info($1)',
      table,
    );
    for (const c of columns)
      lines.push(column(table, c.name, sqliteKind(c.type), c.notnull === 1 || c.pk > 0));
    const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (pk.length > 0) lines.push(`primary key ${table} (${pk.map((c) => c.name).join(', ')})`);
    const checks = sql.match(/\bCHECK\s*\(/gi)?.length ?? 0;
    if (checks > 0) lines.push(`checks ${table} ${checks}`);
    const fks = await db.all<{ parent: string; from: string; to: string }>(
      'SELECT "table" AS parent, "from", "to" FROM pragma_foreign_key_list($1)',
      table,
    );
    for (const fk of fks) lines.push(`foreign key ${table} (${fk.from}) -> ${fk.parent} (${fk.to})`);
    const indexes = await db.all<{ name: string; unique: number; origin: string; partial: number }>(
      'SELECT name, "unique", origin, partial FROM pragma_index_list($1)',
      table,
    );
    for (const index of indexes) {
      const keys = (
        await db.all<{ name: string; desc: number }>(
          'SELECT name, "desc" FROM pragma_index_xinfo($1) WHERE key = 1 ORDER BY seqno',
          index.name,
        )
      )
        .map((k) => (k.desc ? `${k.name} desc` : k.name))
        .join(', ');
      if (index.origin === 'u') lines.push(`unique ${table} (${keys})`);
      if (index.origin === 'c')
        lines.push(indexLine(index.name, table, keys, index.unique === 1, index.partial === 1));
    }
  }
  return lines.sort();
}

async function postgresSchema(db: Queryable): Promise<Described> {
  const lines: Described = [];
  const columns = await db.all<{ table: string; name: string; type: string; nullable: string }>(
    `SELECT c.table_name AS "table", c.column_name AS name, c.data_type AS type, c.is_nullable AS nullable
       FROM information_schema.columns c JOIN information_schema.tables t
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> $1`,
    BOOKKEEPING,
  );
  for (const table of new Set(columns.map((c) => c.table))) lines.push(`table ${table}`);
  for (const c of columns) lines.push(column(c.table, c.name, postgresKind(c.type), c.nullable === 'NO'));
  const constraints = await db.all<{
    type: string;
    table: string;
    parent: string | null;
    keys: string;
    parent_keys: string | null;
  }>(
    `SELECT c.contype AS type, t.relname AS "table", p.relname AS parent,
            (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY k (attnum, n)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS keys,
            (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY k (attnum, n)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS parent_keys
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid LEFT JOIN pg_class p ON p.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND c.contype IN ('p', 'u', 'f', 'c') AND t.relname <> $1`,
    BOOKKEEPING,
  );
  const checks = new Map<string, number>();
  for (const c of constraints) {
    if (c.type === 'p') lines.push(`primary key ${c.table} (${c.keys})`);
    if (c.type === 'u') lines.push(`unique ${c.table} (${c.keys})`);
    if (c.type === 'f') lines.push(`foreign key ${c.table} (${c.keys}) -> ${c.parent} (${c.parent_keys})`);
    if (c.type === 'c') checks.set(c.table, (checks.get(c.table) ?? 0) + 1);
  }
  for (const [table, n] of checks) lines.push(`checks ${table} ${n}`);
  // Indexes written as CREATE INDEX, not the ones behind a primary key or UNIQUE constraint.
  const indexes = await db.all<{
    name: string;
    table: string;
    unique: boolean;
    partial: boolean;
    keys: string;
  }>(
    `SELECT i.relname AS name, t.relname AS "table", x.indisunique AS "unique", x.indpred IS NOT NULL AS partial,
            (SELECT string_agg(a.attname || CASE WHEN x.indoption[k.n - 1] & 1 = 1 THEN ' desc' ELSE '' END, ', ' ORDER BY k.n)
               FROM unnest(x.indkey::int2[]) WITH ORDINALITY k (attnum, n)
               JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS keys
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND t.relname <> $1
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype IN ('p', 'u', 'x'))`,
    BOOKKEEPING,
  );
  for (const i of indexes) lines.push(indexLine(i.name, i.table, i.keys, i.unique, i.partial));
  return lines.sort();
}

const column = (table: string, name: string, kind: string, notNull: boolean) =>
  `column ${table}.${name} ${kind} ${notNull ? 'not null' : 'null'}`;

const indexLine = (name: string, table: string, keys: string, unique: boolean, partial: boolean) =>
  `${unique ? 'unique index' : 'index'} ${name} on ${table} (${keys})${partial ? ' partial' : ''}`;

/** The kind of value a column holds, named alike for both engines. */
function sqliteKind(type: string): string {
  const kinds: Record<string, string> = { INTEGER: 'integer', TEXT: 'text', BLOB: 'bytes', REAL: 'real' };
  return kinds[type.toUpperCase()] ?? type.toLowerCase();
}

function postgresKind(type: string): string {
  const kinds: Record<string, string> = {
    bigint: 'integer',
    integer: 'integer',
    smallint: 'integer',
    text: 'text',
    bytea: 'bytes',
    'double precision': 'real',
  };
  return kinds[type] ?? type;
}
