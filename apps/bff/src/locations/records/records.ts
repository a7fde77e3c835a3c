import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Queryable } from '@review-desk/server/db/types';
import { pollKey } from '../../alerts/poll-key.ts';

// The records a location keeps in the BFF's database, each bound to the location's id (never its
// slug, which a later location may take): the send journal's entries, the list sends and their
// rows, the alerts, what its polls have seen and its poll job, the webhook pauses told, who answered its reviews and its
// saved replies. Written here once, for the two moments they change hands: a location's removal
// drops them, and the first location stored takes over those of the implicit location ('') that
// UPSTREAM_URL gave before.

/** The migration that moved these records from slugs to ids; after every component it touches. */
export const LOCATION_RECORD_MIGRATIONS = migrationsBeside(import.meta.url, 'location-records');

/** The implicit location's id: UPSTREAM_URL and its key while no location is stored. */
export const IMPLICIT_LOCATION_ID = '';

const TABLES = [
  'sends',
  'bulk_jobs',
  'alerts',
  'alert_seen',
  'alert_watches',
  'webhook_pause_notices',
  'review_actions',
  'saved_replies',
] as const;

/** Deletes every record of the location `id` (in the caller's transaction). */
export async function dropLocationRecords(tx: Queryable, id: string): Promise<void> {
  await tx.run('DELETE FROM bulk_rows WHERE job_id IN (SELECT id FROM bulk_jobs WHERE location = $1)', id);
  for (const table of TABLES) await tx.run(`DELETE FROM ${table} WHERE location = $1`, id);
  await tx.run('DELETE FROM jobs WHERE unique_key = $1', pollKey(id));
}

/** The first location stored takes over the implicit location's records. */
export async function adoptImplicitRecords(tx: Queryable, id: string): Promise<void> {
  for (const table of TABLES)
    await tx.run(`UPDATE ${table} SET location = $1 WHERE location = $2`, id, IMPLICIT_LOCATION_ID);
  await tx.run('DELETE FROM jobs WHERE unique_key = $1', pollKey(IMPLICIT_LOCATION_ID));
}
