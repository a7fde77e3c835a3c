import { migrate } from '@review-desk/server/db/migrate';
import { openDatabase } from '@review-desk/server/db/open';
import type { Database } from '@review-desk/server/db/types';
import { createSettingsStore, SETTINGS_MIGRATIONS, type SettingsStore } from './store.ts';

// The settings table of a running service: it lives in the service's database file (component
// `settings`), opened through the async database layer and migrated once, on first use or by
// `ready()` at start.

export type OpenedSettings = {
  store(): Promise<SettingsStore>;
  close(): Promise<void>;
};

export function openSettings(url: string): OpenedSettings {
  let opened: Promise<{ db: Database; store: SettingsStore }> | null = null;
  const open = async () => {
    const db = await openDatabase({ url, variable: 'DATABASE_PATH' });
    await migrate(db, [SETTINGS_MIGRATIONS], { variable: 'DATABASE_PATH' });
    return { db, store: createSettingsStore(db) };
  };
  return {
    store() {
      opened ??= open();
      return opened.then((o) => o.store);
    },
    async close() {
      if (opened) await (await opened).db.close();
    },
  };
}
