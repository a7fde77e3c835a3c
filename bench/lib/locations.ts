import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { migrate } from '@review-desk/server/db/migrate';
import { openSqlite } from '@review-desk/server/db/sqlite/database';
import { createSecretBox } from '../../apps/bff/src/locations/secrets.ts';
import { createLocationStore, LOCATION_MIGRATIONS } from '../../apps/bff/src/locations/store.ts';
import { OWNER } from '../../test/support/stack.ts';

export type StoredLocation = { slug: string; name: string; key: string };

/**
 * A BFF database (bff.db in `dir`) holding `locations`, each on the default upstream with its own
 * key, sealed with a fresh secrets key: the BFF's settings for that database and its first owner.
 */
export async function storeLocations(
  dir: string,
  locations: StoredLocation[],
): Promise<Record<string, string>> {
  const secrets = randomBytes(32);
  const databasePath = path.join(dir, 'bff.db');
  const db = openSqlite({ file: databasePath });
  await migrate(db, [LOCATION_MIGRATIONS]);
  const store = createLocationStore(db, createSecretBox(secrets));
  for (const { slug, name, key } of locations)
    await store.add({ slug, name, upstreamUrl: null, authScheme: 'x-api-key', origin: null, key });
  await db.close();
  return {
    BFF_DATABASE_PATH: databasePath,
    BFF_SECRETS_KEY: secrets.toString('hex'),
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
  };
}
