import { migrationsBeside } from '@review-desk/server/db/migrate';
import { isPostgresUrl, openMigratedDatabase, serviceMigrations } from '@review-desk/server/db/open';
import type { Database, DbLogger } from '@review-desk/server/db/types';
import { emailContactKey } from '@review-desk/shared/contact';
import { DELIVERY_MIGRATIONS } from '../delivery/store.ts';
import { SQUARE_MIGRATIONS } from '../integrations/square/store.ts';
import { RATE_MIGRATIONS } from '../rate/limiter.ts';
import { REQUESTS_MIGRATIONS } from '../requests/origins.ts';
import { GOOGLE_MIGRATIONS } from '../reviews/google/connections.ts';
import { REVIEWS_MIGRATIONS } from '../reviews/website-store.ts';
import { SETTINGS_MIGRATIONS } from '../settings/store.ts';
import { WEBHOOKS_MIGRATIONS } from '../webhooks/endpoints-store.ts';
import { WIDGET_MIGRATIONS } from '../widget/store.ts';

// The service's database: SQLite by default (DATABASE_PATH; WAL, so the CLI can write while the
// server runs), PostgreSQL when DATABASE_URL is set, shared by every replica. Opened once per
// process and handed to every store; each component's numbered migrations are applied at open,
// under a lock, so replicas starting together migrate once.

// An older version kept the service's schema_migrations rows without a component.
export const API_MIGRATIONS = migrationsBeside(import.meta.url, 'api', 'schema_migrations');

/** Every component whose tables live in the service's database, in the order they are migrated. */
export const ALL_API_MIGRATIONS = serviceMigrations(API_MIGRATIONS, [
  SETTINGS_MIGRATIONS,
  DELIVERY_MIGRATIONS,
  RATE_MIGRATIONS,
  GOOGLE_MIGRATIONS,
  REQUESTS_MIGRATIONS,
  WEBHOOKS_MIGRATIONS,
  SQUARE_MIGRATIONS,
  REVIEWS_MIGRATIONS,
  WIDGET_MIGRATIONS,
]);

export type ApiDatabaseSettings = {
  /** A SQLite file path (absolute) or ':memory:'. */
  databasePath: string;
  /** A postgres:// URL: used instead of the file. */
  databaseUrl?: string | undefined;
  databasePoolSize?: number | undefined;
};

/** What the stores open: the PostgreSQL URL when set, else the SQLite file. */
export const databaseUrlOf = (settings: ApiDatabaseSettings) => settings.databaseUrl ?? settings.databasePath;

/** The variable that chose the database, named in refusals to start. */
export const databaseVariable = (settings: ApiDatabaseSettings) =>
  isPostgresUrl(databaseUrlOf(settings)) ? 'DATABASE_URL' : 'DATABASE_PATH';

/** Opens the service's database and brings every component's tables up to date. */
export async function openApiDatabase(settings: ApiDatabaseSettings, logger?: DbLogger): Promise<Database> {
  return openMigratedDatabase(
    {
      url: databaseUrlOf(settings),
      variable: databaseVariable(settings),
      poolSize: settings.databasePoolSize,
      logger,
      applicationName: 'review-desk-api',
      // Migration 002 keys the addresses an older version stored (SQLite files only: a PostgreSQL
      // database starts empty or is filled by migrate-to-postgres with keyed rows).
      sqliteFunctions: {
        email_contact_key: (email) => (typeof email === 'string' ? emailContactKey(email) : null),
      },
    },
    ALL_API_MIGRATIONS,
  );
}
