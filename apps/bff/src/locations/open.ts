import { migrate } from '@review-desk/server/db/migrate';
import { openDatabase } from '@review-desk/server/db/open';
import type { Database } from '@review-desk/server/db/types';
import type { Config } from '../env.ts';
import { createSecretBox, loadSecretsKey, refusingBox } from './secrets.ts';
import { createLocationStore, LOCATION_MIGRATIONS, type LocationStore } from './store.ts';

// The locations store of a running BFF: its tables live in the BFF's database (component
// `locations`), opened and migrated once, on first use or by `ready()` at start.

export type OpenedLocations = {
  store(): Promise<LocationStore>;
  close(): Promise<void>;
};

export function openLocations(config: Pick<Config, 'databasePath' | 'secrets'>): OpenedLocations {
  let opened: Promise<{ db: Database; store: LocationStore }> | null = null;
  const open = async () => {
    const db = await openDatabase({ url: config.databasePath, variable: 'BFF_DATABASE_PATH' });
    await migrate(db, [LOCATION_MIGRATIONS], { variable: 'BFF_DATABASE_PATH' });
    const key = loadSecretsKey(config.secrets, { create: false });
    const box = key
      ? createSecretBox(key)
      : refusingBox(
          'Locations are stored but there is no secrets key: set BFF_SECRETS_KEY or BFF_SECRETS_KEY_FILE to the key they were added with.',
        );
    return { db, store: createLocationStore(db, box) };
  };
  return {
    async store() {
      opened ??= open();
      return (await opened).store;
    },
    async close() {
      if (opened) await (await opened).db.close();
    },
  };
}
