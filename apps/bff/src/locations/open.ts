import type { Database } from '@review-desk/server/db/types';
import type { Config } from '../env.ts';
import { createSecretBox, loadSecretsKey, refusingBox } from './secrets.ts';
import { createLocationStore, type LocationStore } from './store.ts';

// The locations store of a running BFF: its tables live in the BFF's database (component
// `locations`, migrated with the others when the database is opened); the secrets key is read
// on first use or by `ready()` at start.

export type OpenedLocations = {
  store(): Promise<LocationStore>;
};

export function openLocations(db: Database, config: Pick<Config, 'secrets'>): OpenedLocations {
  let opened: LocationStore | null = null;
  const open = () => {
    const key = loadSecretsKey(config.secrets, { create: false });
    const box = key
      ? createSecretBox(key)
      : refusingBox(
          'Locations are stored but there is no secrets key: set BFF_SECRETS_KEY or BFF_SECRETS_KEY_FILE to the key they were added with.',
        );
    return createLocationStore(db, box);
  };
  return {
    async store() {
      opened ??= open();
      return opened;
    },
  };
}
