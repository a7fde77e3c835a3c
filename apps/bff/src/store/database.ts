import { randomBytes } from 'node:crypto';
import { migrationsBeside } from '@review-desk/server/db/migrate';
import { isPostgresUrl, openMigratedDatabase, serviceMigrations } from '@review-desk/server/db/open';
import type { Database, DbLogger, Queryable } from '@review-desk/server/db/types';
import { ALERT_MIGRATIONS } from '../alerts/store.ts';
import { BULK_MIGRATIONS } from '../bulk/store.ts';
import { USER_RATE_MIGRATIONS } from '../fair-share/user-rate.ts';
import { LOCATION_RECORD_MIGRATIONS } from '../locations/records/records.ts';
import { LOCATION_MIGRATIONS } from '../locations/store.ts';
import { REPLY_MIGRATIONS } from '../replies/journal.ts';

// The BFF's own database: users, sessions, login throttling, the send journal, the running
// instances' leases and the locations. SQLite by default (BFF_DATABASE_PATH: several processes may
// open it at once, cluster workers and the CLI; WAL, busy timeout, every claim one atomic
// statement); PostgreSQL when BFF_DATABASE_URL is set, shared by every replica. Opened once per
// process and handed to every store.

// Before numbered migrations the schema was counted in SQLite's user_version.
export const BFF_MIGRATIONS = migrationsBeside(import.meta.url, 'bff', 'user_version');

/** Every component whose tables live in the BFF's database, in the order they are migrated. */
export const ALL_BFF_MIGRATIONS = serviceMigrations(BFF_MIGRATIONS, [
  LOCATION_MIGRATIONS,
  USER_RATE_MIGRATIONS,
  BULK_MIGRATIONS,
  ALERT_MIGRATIONS,
  REPLY_MIGRATIONS,
  // Last: it moves records of the tables above to their location's id.
  LOCATION_RECORD_MIGRATIONS,
]);

export type DatabaseSettings = {
  /** A postgres:// URL (BFF_DATABASE_URL) or an absolute SQLite file path (BFF_DATABASE_PATH). */
  databaseUrl: string;
  databasePoolSize?: number;
};

/** The variable that chose the database, named in refusals to start. */
export const databaseVariable = (settings: DatabaseSettings) =>
  isPostgresUrl(settings.databaseUrl) ? 'BFF_DATABASE_URL' : 'BFF_DATABASE_PATH';

/** Opens the BFF's database and brings every component's tables up to date (once, under a lock). */
export function openBffDatabase(settings: DatabaseSettings, logger?: DbLogger): Promise<Database> {
  return openMigratedDatabase(
    {
      url: settings.databaseUrl,
      variable: databaseVariable(settings),
      poolSize: settings.databasePoolSize,
      logger,
      applicationName: 'review-desk-bff',
    },
    ALL_BFF_MIGRATIONS,
    ensureContactSecret,
  );
}

/**
 * The secret the journal hashes contacts with, made once per database: every process and replica
 * must hash a contact the same way, or the frequency-cap warning would miss a send made elsewhere.
 */
async function ensureContactSecret(db: Queryable): Promise<void> {
  await db.run(
    `INSERT INTO meta (key, value) VALUES ('contact_hash_secret', $1) ON CONFLICT (key) DO NOTHING`,
    randomBytes(32).toString('base64url'),
  );
}

export async function metaValue(db: Queryable, key: string): Promise<string | null> {
  const row = await db.get<{ value: string }>('SELECT value FROM meta WHERE key = $1', key);
  return row?.value ?? null;
}
