import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { describeSchema } from '@review-desk/server/test-support/schema';
import { expect, it } from 'vitest';
import { openBffDatabase } from './database.ts';

// The BFF's schema is written once, with what differs per engine marked in the files (migrate.ts):
// every component in its database (its own, scheduling, locations, fair share, lists, alerts)
// must still give the same tables, columns, keys, checks and indexes on both engines.

it('gives the same tables, columns, keys, checks and indexes on SQLite and PostgreSQL', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rd-bff-schema-'));
  const onSqlite = await openBffDatabase({ databaseUrl: path.join(dir, 'bff.db') });
  const pg = await createPostgresDatabase();
  const onPostgres = await openBffDatabase({ databaseUrl: pg.url });
  try {
    const sqlite = await describeSchema(onSqlite);
    expect(await describeSchema(onPostgres)).toEqual(sqlite);
    // The comparison saw every component's tables, not two empty lists.
    for (const line of [
      'column sends.location text not null',
      'column jobs.run_at integer not null',
      'primary key user_locations (user_id, slug)',
      'column user_rate.tat integer not null',
      'column user_rate.granted integer not null',
      'index bulk_rows_open on bulk_rows (job_id, outcome, idx)',
      'primary key alert_digests (user_id, week)',
    ])
      expect(sqlite).toContain(line);
  } finally {
    await onSqlite.close();
    await onPostgres.close();
    await pg.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});
