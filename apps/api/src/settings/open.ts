import type { Database } from '@review-desk/server/db/types';
import { createSettingsStore, type SettingsStore } from './store.ts';

// The settings table of a running service: it lives in the service's database (component
// `settings`, migrated with the others when the database opens: store/database.ts).

export type OpenedSettings = {
  store(): Promise<SettingsStore>;
};

export function openSettings(db: Database): OpenedSettings {
  const store = createSettingsStore(db);
  return { store: async () => store };
}
