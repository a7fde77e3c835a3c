import type { Database } from '@review-desk/server/db/types';
import { type CacheOverrides, createSharedCache } from '@review-desk/server/shared-cache';
import type { BusinessRow } from './businesses-store.ts';

export type ApiKeyRow = {
  id: string;
  business_id: number;
  key_hash: string;
  display_prefix: string;
  scopes: string;
  rate_limit_per_minute: number | null;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  rotated_to: string | null;
  last_used_at: number | null;
};

export type ApiKeyListRow = ApiKeyRow & { business_slug: string };
export type KeyWithBusiness = { key: ApiKeyRow; business: BusinessRow };

/** A change other processes must apply to their caches of keys at once. */
export type KeyEvent = { kind: 'key'; id: string } | { kind: 'business'; id: number };
/** The notification channel of changes to keys and their businesses. */
export const KEY_CHANNEL = 'api_keys';
/** How long a key read from the database is trusted (docs/decisions/0021-api-key-and-settings-cache.md). */
export const KEY_CACHE_MS = 1_000;
/** At most this many keys are cached; only keys found are, so a made-up key takes no room. */
export const KEY_CACHE_MAX = 10_000;

const isKeyEvent = (value: unknown): value is KeyEvent => {
  const event = value as { kind?: unknown; id?: unknown } | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    ((event.kind === 'key' && typeof event.id === 'string') ||
      (event.kind === 'business' && typeof event.id === 'number'))
  );
};

export function keyStore(db: Database, options: CacheOverrides = {}) {
  const insert = db.prepare(`INSERT INTO api_keys
    (id, business_id, key_hash, display_prefix, scopes, rate_limit_per_minute, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`);
  // Every authenticated call reads its key and the key's business: one round trip, not two.
  const withBusiness = db.prepare(`SELECT k.*, b.slug AS b_slug, b.name AS b_name,
    b.review_url AS b_review_url, b.suspended_at AS b_suspended_at, b.created_at AS b_created_at
    FROM api_keys k JOIN businesses b ON b.id = k.business_id WHERE k.key_hash = $1`);
  const byId = db.prepare('SELECT * FROM api_keys WHERE id = $1');
  const list = db.prepare(`SELECT k.*, b.slug AS business_slug FROM api_keys k
    JOIN businesses b ON b.id = k.business_id ORDER BY k.created_at, k.id`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL');
  const setExpires = db.prepare('UPDATE api_keys SET expires_at = $1 WHERE id = $2');
  const setRotatedTo = db.prepare('UPDATE api_keys SET rotated_to = $1 WHERE id = $2');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = $1 WHERE id = $2');
  // Every authenticated call looks its key up: a key found is trusted for up to KEY_CACHE_MS
  // (expiry and revocation times are still compared with the call's time), and any change to a
  // key or its business drops it here at once and in every listening process.
  const cache = createSharedCache<string, KeyWithBusiness, KeyEvent>({
    db,
    channel: KEY_CHANNEL,
    ttlMs: KEY_CACHE_MS,
    max: options.cacheMax ?? KEY_CACHE_MAX,
    isEvent: isKeyEvent,
    drops: (event, { key }) => (event.kind === 'key' ? key.id === event.id : key.business_id === event.id),
    now: options.cacheClock,
  });
  const keyChanged = (id: string) => cache.changed({ kind: 'key', id });

  return {
    async insert(row: {
      id: string;
      businessId: number;
      keyHash: string;
      displayPrefix: string;
      scopes: string[];
      rateLimitPerMinute: number | null;
      createdAt: number;
      expiresAt: number | null;
    }): Promise<ApiKeyRow> {
      return (await insert.get<ApiKeyRow>(
        row.id,
        row.businessId,
        row.keyHash,
        row.displayPrefix,
        row.scopes.join(','),
        row.rateLimitPerMinute,
        row.createdAt,
        row.expiresAt,
      ))!;
    },
    async byHash(hash: string): Promise<KeyWithBusiness | undefined> {
      const cached = cache.get(hash);
      if (cached) return cached.value;
      const row = await withBusiness.get<ApiKeyRow & Record<`b_${string}`, unknown>>(hash);
      if (!row) return undefined;
      const { b_slug, b_name, b_review_url, b_suspended_at, b_created_at, ...key } = row;
      const business = {
        id: key.business_id,
        slug: b_slug,
        name: b_name,
        review_url: b_review_url,
        suspended_at: b_suspended_at,
        created_at: b_created_at,
      } as BusinessRow;
      cache.set(hash, { key, business });
      return { key, business };
    },
    byId: (id: string) => byId.get<ApiKeyRow>(id),
    list: () => list.all<ApiKeyListRow>(),
    async revoke(id: string, at: number): Promise<boolean> {
      const changed = (await revoke.run(at, id)).changes > 0;
      await keyChanged(id);
      return changed;
    },
    async setExpires(id: string, at: number | null): Promise<void> {
      await setExpires.run(at, id);
      await keyChanged(id);
    },
    async setRotatedTo(id: string, to: string): Promise<void> {
      await setRotatedTo.run(to, id);
      await keyChanged(id);
    },
    /** A business's row changed (suspension, review site): its keys must be read again. */
    businessChanged: (id: number) => cache.changed({ kind: 'business', id }),
    /** Hears the changes made by every other process on the database (close it on stop). */
    listen: () => cache.listen(),
    /** How many keys this process has cached (for the bound's test). */
    cacheSize: () => cache.size(),
    async touch(id: string, at: number): Promise<void> {
      await touch.run(at, id);
    },
  };
}
