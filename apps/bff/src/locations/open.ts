import type { Database } from '@review-desk/server/db/types';
import type { Config } from '../env.ts';
import { createSecretBox, loadSecretsKey, refusingBox } from './secrets.ts';
import { createLocationStore, type LocationStore } from './store.ts';

// The locations store of a running BFF: its tables live in the BFF's database (component
// `locations`, migrated with the others when the database is opened); the secrets key is read
// on first use. While there is none, it is looked for again on each use: the first `location
// add` of the CLI makes the key file, and a running BFF must then open what it sealed (the
// directory reads the table every two seconds) rather than refuse until it is restarted.

export type OpenedLocations = {
  store(): Promise<LocationStore>;
};

export function openLocations(db: Database, config: Pick<Config, 'secrets'>): OpenedLocations {
  let opened: LocationStore | null = null;
  return {
    async store() {
      if (opened) return opened;
      const key = loadSecretsKey(config.secrets, { create: false });
      if (!key)
        return createLocationStore(
          db,
          refusingBox(
            'Locations are stored but there is no secrets key: set BFF_SECRETS_KEY or BFF_SECRETS_KEY_FILE to the key they were added with.',
          ),
        );
      opened = createLocationStore(db, createSecretBox(key));
      return opened;
    },
  };
}
