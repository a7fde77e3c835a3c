import { schedulingMigrations } from '../jobs/store.ts';
import { type MigrationSource, migrate } from './migrate.ts';
import { openPostgres } from './postgres/database.ts';
import { openSqlite, type SqliteOptions } from './sqlite/database.ts';
import type { Database, DbLogger } from './types.ts';

// One setting chooses the engine: a postgres:// URL opens PostgreSQL, anything else is a SQLite
// file (the zero-setup default). Nothing past this point asks which one it got, except a store
// choosing SQL where the dialects really differ (docs/decisions/0012-database-layer.md).

export type OpenDatabaseOptions = {
  /** A postgres:// (or postgresql://) URL, a SQLite file path (absolute) or ':memory:'. */
  url: string;
  /** The setting that chose it (DATABASE_URL, BFF_DATABASE_URL), named in refusals to start. */
  variable?: string;
  /** PostgreSQL connections per process (default 10). */
  poolSize?: number | undefined;
  logger?: DbLogger | undefined;
  /** PostgreSQL application_name, e.g. 'review-desk-api'. */
  applicationName?: string;
  /** SQLite only: SQL functions its migrations call (see SqliteOptions.functions). */
  sqliteFunctions?: SqliteOptions['functions'];
};

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const { url, variable, poolSize, logger, applicationName, sqliteFunctions } = options;
  if (isPostgresUrl(url)) {
    return openPostgres({
      url,
      ...(variable ? { variable } : {}),
      ...(poolSize ? { poolSize } : {}),
      ...(logger ? { logger } : {}),
      ...(applicationName ? { applicationName } : {}),
    });
  }
  return openSqlite({
    file: url,
    ...(variable ? { variable } : {}),
    ...(logger ? { logger } : {}),
    ...(sqliteFunctions ? { functions: sqliteFunctions } : {}),
  });
}

/**
 * The components whose tables live in a service's own database, in the order they are migrated:
 * the service's own, the scheduling tables (jobs and instance leases), then each feature's.
 */
export function serviceMigrations(
  own: MigrationSource,
  features: readonly MigrationSource[],
): readonly MigrationSource[] {
  return [own, schedulingMigrations, ...features];
}

/**
 * Opens a service's database and brings every component's tables up to date (under the
 * migrations' lock, so replicas starting together migrate once); `prepare` then runs once on the
 * migrated database. Closed again when any step fails.
 */
export async function openMigratedDatabase(
  options: OpenDatabaseOptions,
  sources: readonly MigrationSource[],
  prepare?: (db: Database) => Promise<void>,
): Promise<Database> {
  const db = await openDatabase(options);
  try {
    await migrate(db, sources, options.variable ? { variable: options.variable } : {});
    if (prepare) await prepare(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
