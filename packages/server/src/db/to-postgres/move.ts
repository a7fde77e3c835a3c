import { existsSync } from 'node:fs';
import { StartupError } from '../../startup-error.ts';
import { type MigrationSource, migrate } from '../migrate.ts';
import { isPostgresUrl, openDatabase } from '../open.ts';
import type { Database } from '../types.ts';
import { CopyRefused, type CopyReport, copySqliteToPostgres } from './copy.ts';

// A service's `migrate-to-postgres`: the SQLite file is first brought up to this version's schema,
// the PostgreSQL database migrated to the same, then every row of every component's tables is
// copied in one transaction and the counts compared table by table before it commits
// (copy.ts). A target holding any row is refused. Every refusal is a StartupError
// naming what to fix.

/** What a service moves, and how its refusals name it. */
export type MoveSource = {
  /** The database in refusals: "service", "BFF". */
  name: string;
  /** The variables that name the SQLite file and the PostgreSQL database. */
  variables: { path: string; url: string };
  /** The service's components, in the order they are migrated. */
  migrations: readonly MigrationSource[];
  /** Opens the SQLite file with the service's own settings, which migrates it. */
  openSqlite(path: string): Promise<Database>;
  /** Work on the filled target before it is closed (its statistics, say). */
  afterCopy?(target: Database): Promise<void>;
};

export type MoveRequest = {
  sqlitePath: string;
  postgresUrl: string;
  onProgress?: (table: string, copied: number, total: number) => void;
};

export async function moveSqliteToPostgres(source: MoveSource, request: MoveRequest): Promise<CopyReport> {
  const { sqlitePath, postgresUrl, onProgress } = request;
  const variable = source.variables.url;
  if (!isPostgresUrl(postgresUrl))
    throw new StartupError(`migrate-to-postgres needs a postgres:// URL: pass one, or set ${variable}`);
  if (sqlitePath === ':memory:' || !existsSync(sqlitePath))
    throw new StartupError(`There is no ${source.name} database at ${sqlitePath} (${source.variables.path})`);
  // Same schema version on both sides, or the copy refuses.
  await (await source.openSqlite(sqlitePath)).close();
  const target = await openDatabase({ url: postgresUrl, variable, poolSize: 2 });
  try {
    await migrate(target, source.migrations, { variable });
    const report = await copySqliteToPostgres({
      from: sqlitePath,
      to: target,
      ...(onProgress ? { onProgress } : {}),
    });
    await source.afterCopy?.(target);
    return report;
  } catch (error) {
    if (error instanceof CopyRefused) throw new StartupError(error.message);
    throw error;
  } finally {
    await target.close();
  }
}
