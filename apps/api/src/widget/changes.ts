import type { Queryable } from '@review-desk/server/db/types';

// What a business's website shows changed: a review arrived or its consent changed, a review was
// hidden or shown again, the widget was made or switched. Every process on the database drops its
// copy of that business's widget (PostgreSQL NOTIFY; in-process on SQLite); a process that did
// not hear (the CLI beside a SQLite server, a lost listening connection) sees the change within
// the cache's time to live (cache.ts).

/**
 * The notification channel: `{"businessId":N}`, with `publicId` when its widget was made, and
 * `from` the process that made the change (which dropped its own copy already).
 */
export const WEBSITE_CHANNEL = 'api_website';
export type WebsiteEvent = { businessId: number; publicId?: string; from?: string };

export const isWebsiteEvent = (value: unknown): value is WebsiteEvent => {
  const event = value as WebsiteEvent | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    typeof event.businessId === 'number' &&
    (event.publicId === undefined || typeof event.publicId === 'string') &&
    (event.from === undefined || typeof event.from === 'string')
  );
};

/** Tells every process (this one through its listener). Sent after the change committed. */
export function notifyWebsiteChange(db: Pick<Queryable, 'notify'>, event: WebsiteEvent): Promise<void> {
  return db.notify(WEBSITE_CHANNEL, JSON.stringify(event));
}
