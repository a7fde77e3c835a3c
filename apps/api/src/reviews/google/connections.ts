import { migrationsBeside } from '@review-desk/server/db/migrate';
import { withNumbers } from '@review-desk/server/db/rows';
import type { Queryable } from '@review-desk/server/db/types';
import type { SecretBox } from '@review-desk/server/secrets';
import type { GoogleState } from '@review-desk/shared';

// The google_connections table (component `google`): one Google location per business, its
// refresh token and latest access token sealed with the service's secrets key (opened only to
// call Google), and how its sync goes. Every write after a connect names the connection's
// generation, so a sync or a reply started for an older connection changes nothing.

export const GOOGLE_MIGRATIONS = migrationsBeside(import.meta.url, 'google');

export type ConnectionRow = {
  business_id: number;
  account_id: string;
  location_id: string;
  refresh_token: string;
  access_token: string | null;
  access_expires_at: number | null;
  state: GoogleState;
  problem: string | null;
  synced_through: number | null;
  last_sync_at: number | null;
  last_error: string | null;
  failures: number;
  generation: number;
  created_at: number;
  updated_at: number;
};

const NUMBERS = [
  'business_id',
  'access_expires_at',
  'synced_through',
  'last_sync_at',
  'failures',
  'generation',
  'created_at',
  'updated_at',
] as const;
const toRow = (row: ConnectionRow) => withNumbers(row, [...NUMBERS]);

const refreshContext = (businessId: number) => `google-refresh:${businessId}`;
const accessContext = (businessId: number) => `google-access:${businessId}`;

export function connectionStore(db: Queryable, box: () => SecretBox) {
  // A new location starts its sync from nothing; the same location connected again (a new token
  // after `needs_owner`) keeps how far it had read.
  const connect = db.prepare(`INSERT INTO google_connections
    (business_id, account_id, location_id, refresh_token, state, created_at, updated_at)
    VALUES ($1, $2, $3, $4, 'connected', $5, $5)
    ON CONFLICT (business_id) DO UPDATE SET
      synced_through = CASE WHEN google_connections.account_id = excluded.account_id
        AND google_connections.location_id = excluded.location_id THEN google_connections.synced_through END,
      account_id = excluded.account_id, location_id = excluded.location_id,
      refresh_token = excluded.refresh_token, access_token = NULL, access_expires_at = NULL,
      state = 'connected', problem = NULL, last_error = NULL, failures = 0,
      generation = google_connections.generation + 1, created_at = excluded.created_at,
      updated_at = excluded.updated_at
    RETURNING *`);
  const byBusiness = db.prepare('SELECT * FROM google_connections WHERE business_id = $1');
  const all = db.prepare("SELECT * FROM google_connections WHERE state = 'connected' ORDER BY business_id");
  const remove = db.prepare('DELETE FROM google_connections WHERE business_id = $1');
  const access =
    db.prepare(`UPDATE google_connections SET access_token = $3, access_expires_at = $4, updated_at = $5
    WHERE business_id = $1 AND generation = $2`);
  const needsOwner = db.prepare(`UPDATE google_connections SET state = 'needs_owner', problem = $3,
    access_token = NULL, access_expires_at = NULL, updated_at = $4 WHERE business_id = $1 AND generation = $2`);
  const synced = db.prepare(`UPDATE google_connections SET synced_through = coalesce($3, synced_through),
    last_sync_at = $4, last_error = NULL, failures = 0, updated_at = $4 WHERE business_id = $1 AND generation = $2`);
  const failed =
    db.prepare(`UPDATE google_connections SET last_error = $3, failures = failures + 1, updated_at = $4
    WHERE business_id = $1 AND generation = $2 RETURNING failures`);
  const reviews = db.prepare(
    "SELECT count(*) AS n FROM reviews WHERE business_id = $1 AND platform = 'google' AND status IN ('pending', 'responded', 'ignored')",
  );

  return {
    async connect(
      businessId: number,
      ids: { accountId: string; locationId: string },
      refreshToken: string,
      now: number,
    ): Promise<ConnectionRow> {
      const sealed = box().seal(refreshToken, refreshContext(businessId));
      return toRow(
        (await connect.get<ConnectionRow>(businessId, ids.accountId, ids.locationId, sealed, now))!,
      );
    },
    async get(businessId: number): Promise<ConnectionRow | undefined> {
      const row = await byBusiness.get<ConnectionRow>(businessId);
      return row && toRow(row);
    },
    async connected(): Promise<ConnectionRow[]> {
      return (await all.all<ConnectionRow>()).map(toRow);
    },
    async disconnect(businessId: number): Promise<boolean> {
      return (await remove.run(businessId)).changes > 0;
    },
    refreshToken: (row: ConnectionRow) => box().open(row.refresh_token, refreshContext(row.business_id)),
    /** The stored access token while it is good until `until`; null otherwise. */
    accessToken(row: ConnectionRow, until: number): string | null {
      if (row.access_token === null || row.access_expires_at === null || row.access_expires_at <= until)
        return null;
      return box().open(row.access_token, accessContext(row.business_id));
    },
    async saveAccess(row: ConnectionRow, token: string, expiresAt: number, now: number): Promise<void> {
      const sealed = box().seal(token, accessContext(row.business_id));
      await access.run(row.business_id, row.generation, sealed, expiresAt, now);
    },
    async needsOwner(row: ConnectionRow, problem: string, now: number): Promise<void> {
      await needsOwner.run(row.business_id, row.generation, problem.slice(0, 500), now);
    },
    async synced(row: ConnectionRow, through: number | null, now: number): Promise<void> {
      await synced.run(row.business_id, row.generation, through, now);
    },
    /** One more failure in a row; how many there are now. */
    async failed(row: ConnectionRow, error: string, now: number): Promise<number> {
      const result = await failed.get<{ failures: number }>(
        row.business_id,
        row.generation,
        error.slice(0, 500),
        now,
      );
      return Number(result?.failures ?? row.failures + 1);
    },
    async reviewCount(businessId: number): Promise<number> {
      return Number((await reviews.get<{ n: number }>(businessId))?.n ?? 0);
    },
  };
}
export type ConnectionStore = ReturnType<typeof connectionStore>;
