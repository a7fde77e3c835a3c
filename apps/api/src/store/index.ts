import type { Database, Transaction, TransactionOptions } from '@review-desk/server/db/types';
import type { CacheOverrides } from '@review-desk/server/shared-cache';
import { businessStore } from '../accounts/businesses-store.ts';
import { keyStore } from '../accounts/keys-store.ts';
import { analyticsStore } from '../analytics/store.ts';
import { outboxStore } from '../delivery/outbox-store.ts';
import { squareStore } from '../integrations/square/store.ts';
import { allowanceStore } from '../requests/allowance.ts';
import { optOutStore } from '../requests/opt-outs.ts';
import { originStore } from '../requests/origins.ts';
import { requestStore } from '../requests/store.ts';
import { replyStore } from '../reviews/reply/store.ts';
import { reviewStore } from '../reviews/store.ts';
import { websiteStore } from '../reviews/website-store.ts';
import { endpointStore } from '../webhooks/endpoints-store.ts';
import { eventWriter } from '../webhooks/events.ts';
import { widgetStore } from '../widget/store.ts';
import { type ApiDatabaseSettings, openApiDatabase } from './database.ts';
import { settingsStore } from './service-values.ts';

/**
 * Every table's statements over the service's one database handle. Knows SQL, nothing of HTTP.
 * A store call made inside `transaction(fn)` (in fn's async context) joins that transaction.
 */
export function createStore(db: Database, options: CacheOverrides = {}) {
  const keys = keyStore(db, options);
  const requests = requestStore(db);
  const origins = originStore(db);
  return {
    db,
    transaction: <T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions) =>
      db.transaction(fn, options),
    businesses: businessStore(db, keys.businessChanged),
    keys,
    requests,
    optOuts: optOutStore(db),
    origins,
    /** Events out: written inside the transaction of what they report (webhooks/events.ts). */
    events: eventWriter(db, { requests, origins }),
    webhookEndpoints: endpointStore(db),
    square: squareStore(db),
    allowance: allowanceStore(db),
    reviews: reviewStore(db),
    /** A review on the business's website: consent, reports, what the widget reads. */
    website: websiteStore(db),
    widgets: widgetStore(db),
    replies: replyStore(db),
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
