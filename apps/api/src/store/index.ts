import { analyticsStore } from './analytics.ts';
import { businessStore } from './businesses.ts';
import { closeDatabase, type Db, openDatabase } from './db.ts';
import { keyStore } from './keys.ts';
import { outboxStore } from './outbox.ts';
import { requestStore } from './requests.ts';
import { reviewStore } from './reviews.ts';
import { settingsStore } from './settings.ts';

/** Every table's statements, prepared once per connection. Knows SQL, nothing of HTTP. */
export function createStore(db: Db) {
  return {
    db,
    transaction: db.transaction,
    businesses: businessStore(db),
    keys: keyStore(db),
    requests: requestStore(db),
    reviews: reviewStore(db),
    analytics: analyticsStore(db),
    outbox: outboxStore(db),
    settings: settingsStore(db),
    close: (options: { checkpoint?: boolean } = {}) => closeDatabase(db, options),
  };
}
export type Store = ReturnType<typeof createStore>;

export function openStore(file: string): Store {
  return createStore(openDatabase(file));
}
