import { parseArgs } from 'node:util';
import { StartupError } from '@review-desk/server/startup-error';
import { moveToPostgres } from '../store/migrate-to-postgres.ts';

// `migrate-to-postgres [postgres-url]`: copies the SQLite database (DATABASE_PATH) into an empty
// PostgreSQL database (the URL given, else DATABASE_URL). Prints one line per table and a total;
// a refusal (non-empty target, other schema version, no file) is one line on stderr, exit 1.

export const MIGRATE_USAGE =
  '  migrate-to-postgres [postgres://…]   (copies DATABASE_PATH into an empty PostgreSQL database)';

export async function migrateToPostgresCommand(
  argv: string[],
  config: { databasePath: string; databaseUrl?: string | undefined },
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  err: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<number> {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: {} }));
  } catch (error) {
    err(`Error: ${(error as Error).message}\n\n${MIGRATE_USAGE}`);
    return 2;
  }
  const to = positionals[0] ?? config.databaseUrl;
  if (to === undefined || positionals.length > 1) {
    err(`Error: migrate-to-postgres takes one postgres:// URL (or set DATABASE_URL)\n\n${MIGRATE_USAGE}`);
    return 2;
  }
  // Progress on stderr at most once a second, so a copy of millions of rows shows it is moving.
  let shown = 0;
  const progress = (table: string, copied: number, total: number) => {
    if (Date.now() - shown < 1_000 && copied < total) return;
    shown = Date.now();
    err(`${table}: ${copied} of ${total} rows`);
  };
  try {
    const started = Date.now();
    const report = await moveToPostgres({
      sqlitePath: config.databasePath,
      postgresUrl: to,
      onProgress: progress,
    });
    for (const { table, rows } of report.tables) out(`${table.padEnd(24)} ${rows} rows`);
    const total = report.tables.reduce((sum, t) => sum + t.rows, 0);
    out(
      `Copied ${total} rows in ${report.tables.length} tables in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        'every count matched. Start the service with DATABASE_URL set.',
    );
    return 0;
  } catch (error) {
    if (error instanceof StartupError) {
      err(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
