import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrationFiles } from '@review-desk/server/db/migrate';
import { createPostgresDatabase, createTestDatabase } from '@review-desk/server/test-support/databases';
import { describeSchema } from '@review-desk/server/test-support/schema';
import { expect, it } from 'vitest';
import { API_MIGRATIONS, openApiDatabase } from './database.ts';

// The service's schema is written once, with what differs per engine marked in the files
// (migrate.ts): both engines must still give the same tables, columns (name, kind of value,
// nullability), keys, foreign keys, checks and indexes, or code tested on one engine breaks on the
// other and migrate-to-postgres cannot copy a table. Every component in the service's database is
// compared, each database opened as the service opens it.

it('gives the same tables, columns, keys, checks and indexes on SQLite and PostgreSQL', async () => {
  // Both opened as the service opens its database: every component migrated.
  const dir = mkdtempSync(path.join(tmpdir(), 'rd-api-schema-'));
  const onSqlite = await openApiDatabase({ databasePath: path.join(dir, 'api.db') });
  const pg = await createPostgresDatabase();
  const onPostgres = await openApiDatabase({ databasePath: ':memory:', databaseUrl: pg.url });
  try {
    const sqlite = await describeSchema(onSqlite);
    const postgres = await describeSchema(onPostgres);
    expect(postgres).toEqual(sqlite);
    // The comparison saw the service's tables, not two empty lists.
    expect(sqlite).toContain('column requests.email_key text null');
    expect(sqlite).toContain(
      'index requests_email_key on requests (business_id, email_key, created_at) partial',
    );
  } finally {
    await onSqlite.close();
    await onPostgres.close();
    await pg.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});

it('refuses, on PostgreSQL, to add the contact key column over addresses stored without keys', async () => {
  // PostgreSQL databases are migrated empty and filled by migrate-to-postgres with keyed rows; the
  // SQLite-only keying of older rows has no counterpart there, so 002 stops instead of skipping it.
  const [initial, emailKey] = migrationFiles(API_MIGRATIONS, 'postgres');
  const pg = await createTestDatabase('postgres');
  try {
    await pg.db.exec(initial?.sql ?? '');
    await pg.db.run(`INSERT INTO businesses (slug, name, created_at) VALUES ('b', 'B', 0)`);
    await pg.db.run(`INSERT INTO requests (public_id, token, business_id, channel, customer_email, status, created_at)
      VALUES ('req_1', 't1', 1, 'email', 'ana+1@gmail.com', 'sent', 0)`);
    await expect(pg.db.transaction((tx) => tx.exec(emailKey?.sql ?? ''))).rejects.toThrow(
      /without contact keys/,
    );
  } finally {
    await pg.dispose();
  }
});
