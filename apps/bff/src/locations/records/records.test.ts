import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type MigrationSource, migrate } from '@review-desk/server/db/migrate';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { afterAll, expect, it } from 'vitest';
import { ALL_BFF_MIGRATIONS } from '../../store/database.ts';
import { LOCATION_RECORD_MIGRATIONS } from './records.ts';

// A database written before records were bound to location ids: sends, list sends and alerts
// named their location by slug ('' for sends journaled before sends named one). Migrated, each
// record belongs to its location's id; the implicit location's go to the first location stored;
// a removed location's (a slug no location has) are dropped, so a later location of that slug
// never reads them.

/** The BFF's migrations as they were before location ids: no locations 002, no location-records. */
function migrationsBefore(dir: string): MigrationSource[] {
  return ALL_BFF_MIGRATIONS.filter((source) => source.component !== LOCATION_RECORD_MIGRATIONS.component).map(
    (source) => {
      if (source.component !== 'locations') return source;
      const copy = path.join(dir, 'locations');
      cpSync(source.dir, copy, { recursive: true, filter: (file) => !/00[2-9]-[^/]*\.sql$/.test(file) });
      return { ...source, dir: copy };
    },
  );
}

describeEngines('records of a database written before location ids', (dialect) => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'rd-records-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const database = useTestDatabase(dialect, { migrations: migrationsBefore(scratch) });

  it('binds each record to its location’s id: the first location gets the implicit one’s, a removed one’s are gone', async () => {
    const { db } = database();
    for (const [slug, position] of [
      ['alpha', 1],
      ['beta', 2],
    ] as const)
      await db.run(
        `INSERT INTO locations (slug, name, key_sealed, auth_scheme, position, created_at, updated_at)
         VALUES ($1, $1, 'v1.x', 'x-api-key', $2, 1, 1)`,
        slug,
        position,
      );
    // '' : journaled before sends named a location; main: the implicit location; gone: removed.
    for (const [id, location] of [
      ['s-none', ''],
      ['s-main', 'main'],
      ['s-alpha', 'alpha'],
      ['s-beta', 'beta'],
      ['s-gone', 'gone'],
    ] as [string, string][])
      await db.run(
        `INSERT INTO sends (id, user_id, sent_by, fingerprint, channel, contact_masked, outcome, created_at, location)
         VALUES ($1, 'u1', 'a@example.com', 'f', 'sms', '+1•••', 'sent', 1, $2)`,
        id,
        location,
      );
    for (const [id, location] of [
      ['b-beta', 'beta'],
      ['b-gone', 'gone'],
    ] as [string, string][]) {
      await db.run(
        `INSERT INTO bulk_jobs (id, location, channel, skip_recent, status, runs, created_by, created_by_email, total, created_at)
         VALUES ($1, $2, 'sms', 0, 'done', 1, 'u1', 'a@example.com', 1, 1)`,
        id,
        location,
      );
      await db.run(
        `INSERT INTO bulk_rows (job_id, idx, contact_masked, outcome, generation) VALUES ($1, 0, '+1•••', 'sent', 0)`,
        id,
      );
    }
    for (const [review, location] of [
      ['r-main', 'main'],
      ['r-both', 'main'],
      ['r-both', 'alpha'],
      ['r-gone', 'gone'],
    ] as [string, string][]) {
      await db.run(
        `INSERT INTO alerts (user_id, location, review_id, rating, created_at, email) VALUES ('u1', $1, $2, 1, 1, 'none')`,
        location,
        review,
      );
      await db.run(
        'INSERT INTO alert_seen (location, review_id, seen_at) VALUES ($1, $2, 1)',
        location,
        review,
      );
    }

    await migrate(db, ALL_BFF_MIGRATIONS);

    const ids = Object.fromEntries(
      (await db.all<{ slug: string; id: string }>('SELECT slug, id FROM locations')).map((r) => [
        r.slug,
        r.id,
      ]),
    );
    expect(ids.alpha).toMatch(/^[0-9a-f]{32}$/);
    expect(ids.beta).toMatch(/^[0-9a-f]{32}$/);
    expect(ids.alpha).not.toBe(ids.beta);
    const rows = (table: string, key: string) =>
      db.all<{ key: string; location: string }>(
        `SELECT ${key} AS key, location FROM ${table} ORDER BY ${key}, location`,
      );
    expect(await rows('sends', 'id')).toEqual([
      { key: 's-alpha', location: ids.alpha },
      { key: 's-beta', location: ids.beta },
      { key: 's-main', location: ids.alpha },
      { key: 's-none', location: ids.alpha },
    ]);
    expect(await rows('bulk_jobs', 'id')).toEqual([{ key: 'b-beta', location: ids.beta }]);
    expect(await db.all('SELECT job_id FROM bulk_rows')).toEqual([{ job_id: 'b-beta' }]);
    const expectedAlerts = [
      { key: 'r-both', location: ids.alpha },
      { key: 'r-main', location: ids.alpha },
    ];
    expect(await rows('alerts', 'review_id')).toEqual(expectedAlerts);
    expect(await rows('alert_seen', 'review_id')).toEqual(expectedAlerts);
  });
});
