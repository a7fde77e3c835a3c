import type { Database, LockKey, Transaction, TransactionOptions } from '@review-desk/server/db/types';
import type { CacheOverrides } from '@review-desk/server/shared-cache';
import { analyticsStore } from './analytics.ts';
import { businessStore } from './businesses.ts';
import { type ApiDatabaseSettings, openApiDatabase } from './database.ts';
import { keyStore } from './keys.ts';
import { outboxStore } from './outbox.ts';
import { requestStore } from './requests.ts';
import { reviewStore } from './reviews.ts';
import { settingsStore } from './settings.ts';

/**
 * Every table's statements over the service's one database handle. Knows SQL, nothing of HTTP.
 * A store call made inside `transaction(fn)` (in fn's async context) joins that transaction.
 */
export function createStore(db: Database, options: CacheOverrides = {}) {
  const keys = keyStore(db, options);
  return {
    db,
    transaction: <T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions) =>
      db.transaction(fn, options),
    transactionTogether: <T>(fn: (tx: Transaction) => Promise<T>, locks?: LockKey[]) =>
      db.transactionTogether(fn, locks),
    businesses: businessStore(db, keys.businessChanged),
    keys,
    requests: requestStore(db),
    reviews: reviewStore(db),
    analytics: analyticsStore(db),
    outbox: outboxStore(db),
    settings: settingsStore(db),
    close: (options: { checkpoint?: boolean } = {}) => db.close(options),
  };
}
export type Store = ReturnType<typeof createStore>;

export async function openStore(settings: ApiDatabaseSettings): Promise<Store> {
  return createStore(await openApiDatabase(settings));
}
