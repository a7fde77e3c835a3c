import type { MoveRequest, MoveSource } from '@review-desk/server/db/to-postgres/move';
import { moveSqliteToPostgres } from '@review-desk/server/db/to-postgres/move';
import { ALL_API_MIGRATIONS, openApiDatabase } from './database.ts';

// Moving the service from its SQLite file to PostgreSQL (packages/server db/to-postgres/move.ts):
// every row of every component's tables (the service's, scheduling, settings, delivery), copied
// in one transaction with the counts compared; the id sequences continue after the copied ids;
// then the tables are vacuumed and analysed. A target holding any row is refused.
// Stop every API process first: what they write during the copy would not be in it.

/** The service's database as `migrate-to-postgres` moves it. */
const API_DATABASE: MoveSource = {
  name: 'service',
  variables: { path: 'DATABASE_PATH', url: 'DATABASE_URL' },
  migrations: ALL_API_MIGRATIONS,
  openSqlite: (databasePath) => openApiDatabase({ databasePath }),
  // The planner's statistics and the visibility map now, rather than when autovacuum first
  // gets to the new rows: without the map the list's index-only scans read every row they skip.
  afterCopy: (target) => target.exec('VACUUM (ANALYZE)'),
};

export const moveToPostgres = (request: MoveRequest) => moveSqliteToPostgres(API_DATABASE, request);
