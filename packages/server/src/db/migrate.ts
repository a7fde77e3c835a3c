import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StartupError } from '../startup-error.ts';
import type { Database, Dialect, Queryable } from './types.ts';

// Numbered SQL files per dialect (`<dir>/sqlite/NNN-name.sql`, `<dir>/postgres/NNN-name.sql`),
// applied at start, each in its own transaction, recorded in schema_migrations. Each file is
// checked and applied under a lock (PostgreSQL: an advisory lock on a fixed key; SQLite: the
// write lock of BEGIN IMMEDIATE), so two processes starting together apply it once.
// Several components keep their tables in one database (the service's or the BFF's own, and the
// jobs and instance leases of scheduling.ts): each is numbered on its own.

export type MigrationSource = {
  /** Who owns the tables, e.g. 'api', 'bff', 'scheduling'. */
  component: string;
  /** The folder holding `sqlite/` and `postgres/`. */
  dir: string;
  /**
   * Bookkeeping an older version of this component kept, taken over on first start: the rows of
   * a schema_migrations table without components, or SQLite's `PRAGMA user_version` (N means
   * files 1…N are applied).
   */
  legacy?: 'schema_migrations' | 'user_version';
};

/**
 * A component whose migrations are in the `migrations` folder beside the module that declares it:
 * `migrationsBeside(import.meta.url, 'alerts')`.
 */
export function migrationsBeside(
  moduleUrl: string,
  component: string,
  legacy?: MigrationSource['legacy'],
): MigrationSource {
  return {
    component,
    dir: path.join(path.dirname(fileURLToPath(moduleUrl)), 'migrations'),
    ...(legacy ? { legacy } : {}),
  };
}

export type MigrationFile = { version: number; name: string; sql: string };
export type AppliedMigration = { component: string; version: number; name: string };
export type MigrateOptions = {
  /** The setting that chose the database, for the refusal. */ variable?: string;
};

const FILE = /^(\d{3,})-[a-z0-9-]+\.sql$/;
const LOCK = ['schema_migrations', 'apply'] as const;
const TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  component TEXT NOT NULL,
  version INTEGER NOT NULL,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  PRIMARY KEY (component, version)
)`;

export function migrationFiles(source: MigrationSource, dialect: Dialect): MigrationFile[] {
  const dir = path.join(source.dir, dialect);
  if (!existsSync(dir)) throw new Error(`No ${dialect} migrations for ${source.component} in ${dir}`);
  const files = readdirSync(dir)
    .filter((name) => FILE.test(name))
    .sort()
    .map((name) => ({
      version: Number(FILE.exec(name)?.[1]),
      name,
      sql: readFileSync(path.join(dir, name), 'utf8'),
    }));
  files.forEach((file, i) => {
    if (file.version !== i + 1)
      throw new Error(`Migrations in ${dir} must be numbered 001, 002, … (${file.name})`);
  });
  return files;
}

/** Applies what is missing; refuses a database written by a newer version. Returns what it applied. */
export async function migrate(
  db: Database,
  sources: readonly MigrationSource[],
  options: MigrateOptions = {},
): Promise<AppliedMigration[]> {
  const plans = sources.map((source) => ({ source, files: migrationFiles(source, db.dialect) }));
  const applied = await db.transaction(async (tx) => {
    await tx.lock(...LOCK);
    await tx.exec(TABLE);
    for (const { source } of plans) await adoptLegacy(tx, source);
    return tx.all<{ component: string; version: number }>('SELECT component, version FROM schema_migrations');
  });
  for (const { source, files } of plans) {
    const newest = Math.max(
      0,
      ...applied.filter((a) => a.component === source.component).map((a) => a.version),
    );
    if (newest > files.length) {
      const where = options.variable ? ` (${options.variable})` : '';
      throw new StartupError(
        `The database ${db.description}${where} was written by a newer version of Review Desk ` +
          `(schema ${newest}, this version knows up to ${files.length}; ${source.component} tables). ` +
          'Run that version or a newer one, or restore a backup made before the upgrade.',
        options.variable ? { variable: options.variable } : {},
      );
    }
  }
  const done: AppliedMigration[] = [];
  for (const { source, files } of plans) {
    for (const file of files) {
      if (applied.some((a) => a.component === source.component && a.version === file.version)) continue;
      const ran = await db.transaction(async (tx) => {
        await tx.lock(...LOCK);
        // Another process may have applied it while this one waited for the lock.
        const there = await tx.get(
          'SELECT 1 AS there FROM schema_migrations WHERE component = $1 AND version = $2',
          source.component,
          file.version,
        );
        if (there) return false;
        await tx.exec(file.sql);
        await tx.run(
          'INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ($1, $2, $3, $4)',
          source.component,
          file.version,
          file.name,
          new Date().toISOString(),
        );
        return true;
      });
      if (ran) done.push({ component: source.component, version: file.version, name: file.name });
    }
  }
  return done;
}

/** Takes over what an older version of the component recorded (SQLite only: PostgreSQL is new). */
async function adoptLegacy(tx: Queryable, source: MigrationSource): Promise<void> {
  if (tx.dialect !== 'sqlite' || source.legacy === undefined) return;
  if (source.legacy === 'schema_migrations') {
    const columns = await tx.all<{ name: string }>(`SELECT name FROM pragma_table_info('schema_migrations')`);
    if (columns.some((c) => c.name === 'component')) return;
    // The old table (version, name, applied_at) survived CREATE … IF NOT EXISTS: rebuild it with
    // the component column, its rows belonging to this component.
    await tx.exec('ALTER TABLE schema_migrations RENAME TO schema_migrations_old');
    await tx.exec(TABLE);
    await tx.run(
      `INSERT INTO schema_migrations (component, version, name, applied_at)
       SELECT $1, version, name, applied_at FROM schema_migrations_old`,
      source.component,
    );
    await tx.exec('DROP TABLE schema_migrations_old');
    return;
  }
  const recorded = await tx.get(
    'SELECT 1 AS there FROM schema_migrations WHERE component = $1',
    source.component,
  );
  if (recorded) return;
  const row = await tx.get<{ user_version: number }>('PRAGMA user_version');
  const version = Number(row?.user_version ?? 0);
  for (let v = 1; v <= version; v++) {
    await tx.run(
      'INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ($1, $2, $3, $4)',
      source.component,
      v,
      `${String(v).padStart(3, '0')}-user-version.sql`,
      new Date().toISOString(),
    );
  }
}

/** Versions present for one dialect and not the other: both folders must describe one schema. */
export function migrationParity(source: MigrationSource): string[] {
  const names = (dialect: Dialect) => migrationFiles(source, dialect).map((f) => f.name);
  const sqlite = names('sqlite');
  const postgres = names('postgres');
  return [
    ...sqlite.filter((n) => !postgres.includes(n)).map((n) => `${n} has no postgres counterpart`),
    ...postgres.filter((n) => !sqlite.includes(n)).map((n) => `${n} has no sqlite counterpart`),
  ];
}
