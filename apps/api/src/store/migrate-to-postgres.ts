import { existsSync } from 'node:fs';
import { CopyRefused, copySqliteToPostgres } from '@review-desk/server/db/copy-to-postgres';
import { migrate } from '@review-desk/server/db/migrate';
import { isPostgresUrl, openDatabase } from '@review-desk/server/db/open';
import { StartupError } from '@review-desk/server/startup-error';
import { ALL_API_MIGRATIONS, openApiDatabase } from './database.ts';

// Moving the service from its SQLite file to PostgreSQL: the SQLite file is first brought up to
// this version's schema, the PostgreSQL database migrated to the same, then every row of every
// component's tables (the service's, scheduling, settings, delivery) is copied in one transaction
// and the counts compared table by table before it commits; the id sequences continue after the
// copied ids (packages/server db/copy-to-postgres.ts), then the tables are vacuumed and analysed.
// A target holding any row is refused.
// Stop every API process first: what they write during the copy would not be in it.

export type MoveReport = { tables: { table: string; rows: number }[] };

export async function moveToPostgres(options: {
  sqlitePath: string;
  postgresUrl: string;
  onProgress?: (table: string, copied: number, total: number) => void;
}): Promise<MoveReport> {
  const { sqlitePath, postgresUrl } = options;
  if (!isPostgresUrl(postgresUrl))
    throw new StartupError('migrate-to-postgres needs a postgres:// URL: pass it, or set DATABASE_URL');
  if (sqlitePath === ':memory:' || !existsSync(sqlitePath))
    throw new StartupError(`There is no service database at ${sqlitePath} (DATABASE_PATH)`);
  // Same schema version on both sides, or the copy refuses.
  await (await openApiDatabase({ databasePath: sqlitePath })).close();
  const target = await openDatabase({ url: postgresUrl, variable: 'DATABASE_URL', poolSize: 2 });
  try {
    await migrate(target, ALL_API_MIGRATIONS, { variable: 'DATABASE_URL' });
    const report = await copySqliteToPostgres({
      from: sqlitePath,
      to: target,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    // The planner's statistics and the visibility map now, rather than when autovacuum first gets
    // to the new rows: without the map the list's index-only scans read every row they skip.
    await target.exec('VACUUM (ANALYZE)');
    return report;
  } catch (error) {
    if (error instanceof CopyRefused) throw new StartupError(error.message);
    throw error;
  } finally {
    await target.close();
  }
}
