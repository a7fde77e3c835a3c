import { existsSync } from 'node:fs';
import { CopyRefused, copySqliteToPostgres } from '@review-desk/server/db/copy-to-postgres';
import { migrate } from '@review-desk/server/db/migrate';
import { isPostgresUrl, openDatabase } from '@review-desk/server/db/open';
import { StartupError } from '@review-desk/server/startup-error';
import { ALL_BFF_MIGRATIONS, openBffDatabase } from './database.ts';

// `migrate-to-postgres`: moves a BFF installation from its SQLite file to PostgreSQL. The SQLite
// file is first brought up to this version's schema, the PostgreSQL database migrated to the same,
// then every row is copied in one transaction and the counts compared table by table before it
// commits (packages/server db/copy-to-postgres.ts). It refuses a target that holds any row.
// Stop every BFF process first: sends made during the copy would not be in it.

export type MoveReport = { tables: { table: string; rows: number }[] };

export async function moveToPostgres(options: {
  sqlitePath: string;
  postgresUrl: string;
  onProgress?: (table: string, copied: number, total: number) => void;
}): Promise<MoveReport> {
  const { sqlitePath, postgresUrl } = options;
  if (!isPostgresUrl(postgresUrl))
    throw new StartupError('migrate-to-postgres needs a postgres:// URL: set BFF_DATABASE_URL or pass --to');
  if (!existsSync(sqlitePath))
    throw new StartupError(`There is no BFF database at ${sqlitePath} (BFF_DATABASE_PATH)`);
  // Same schema version on both sides, or the copy refuses.
  await (await openBffDatabase({ databaseUrl: sqlitePath })).close();
  const target = await openDatabase({ url: postgresUrl, variable: 'BFF_DATABASE_URL', poolSize: 2 });
  try {
    await migrate(target, ALL_BFF_MIGRATIONS, { variable: 'BFF_DATABASE_URL' });
    return await copySqliteToPostgres({
      from: sqlitePath,
      to: target,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } catch (error) {
    if (error instanceof CopyRefused) throw new StartupError(error.message);
    throw error;
  } finally {
    await target.close();
  }
}
