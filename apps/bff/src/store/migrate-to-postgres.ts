import type { MoveRequest, MoveSource } from '@review-desk/server/db/to-postgres/move';
import { moveSqliteToPostgres } from '@review-desk/server/db/to-postgres/move';
import { ALL_BFF_MIGRATIONS, openBffDatabase } from './database.ts';

// `migrate-to-postgres`: moves a BFF installation from its SQLite file to PostgreSQL
// (packages/server db/to-postgres/move.ts): every row copied in one transaction, the counts
// compared table by table before it commits. It refuses a target that holds any row.
// Stop every BFF process first: sends made during the copy would not be in it.

/** The BFF's database as `migrate-to-postgres` moves it. */
const BFF_DATABASE: MoveSource = {
  name: 'BFF',
  variables: { path: 'BFF_DATABASE_PATH', url: 'BFF_DATABASE_URL' },
  migrations: ALL_BFF_MIGRATIONS,
  openSqlite: (databaseUrl) => openBffDatabase({ databaseUrl }),
};

export const moveToPostgres = (request: MoveRequest) => moveSqliteToPostgres(BFF_DATABASE, request);
